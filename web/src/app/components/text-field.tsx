// A labelled input wired to react-hook-form, with its error announced and linked.
import { type ComponentProps, useId } from 'react'
import { cn } from '../lib/cn.ts'
import { FieldError, inputStyles } from './ui.tsx'

/** An input's props (`ref` included, as React 19 passes it) with a label, an error and a hint. */
type TextFieldProps = ComponentProps<'input'> & {
  label: string
  error?: string
  hint?: string
  /** Merged over the input's own classes (e.g. a taller touch target). */
  inputClassName?: string
}

export function TextField({
  label,
  error,
  hint,
  id,
  className,
  inputClassName,
  ref,
  ...rest
}: TextFieldProps) {
  const autoId = useId()
  const inputId = id ?? autoId
  const errorId = `${inputId}-error`
  const hintId = `${inputId}-hint`
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1 block font-medium text-sm">
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? errorId : '', hint ? hintId : ''].join(' ').trim() || undefined}
        className={cn(inputStyles, inputClassName)}
        {...rest}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  )
}
