// Form pieces of the Site page: a labelled textarea and a card section.
import { type ComponentProps, type ReactNode, useId } from 'react'
import { FieldError, inputStyles } from '../components/ui.tsx'

type TextAreaProps = ComponentProps<'textarea'> & {
  label: string
  error?: string
  labelHidden?: boolean
}

export function TextAreaField({
  label,
  error,
  labelHidden,
  id,
  className,
  rows = 3,
  ref,
  ...rest
}: TextAreaProps) {
  const autoId = useId()
  const inputId = id ?? autoId
  return (
    <div className={className}>
      <label
        htmlFor={inputId}
        className={labelHidden ? 'sr-only' : 'mb-1 block font-medium text-sm'}
      >
        {label}
      </label>
      <textarea
        ref={ref}
        id={inputId}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        className={`${inputStyles} resize-y`}
        {...rest}
      />
      <FieldError id={`${inputId}-error`} message={error} />
    </div>
  )
}

/** A card section of the form with its heading. */
export function Section({
  title,
  description,
  children,
}: {
  title: string
  description?: string
  children: ReactNode
}) {
  const id = useId()
  return (
    <section
      aria-labelledby={id}
      className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm sm:p-6 dark:border-ink-700 dark:bg-ink-900"
    >
      <h2 id={id} className="font-semibold text-lg">
        {title}
      </h2>
      {description ? (
        <p className="mt-0.5 mb-4 text-sm text-zinc-500 dark:text-zinc-400">{description}</p>
      ) : (
        <div className="mb-4" />
      )}
      <div className="space-y-5">{children}</div>
    </section>
  )
}
