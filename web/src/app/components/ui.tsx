// Small shared pieces: buttons, fields, spinner, progress bar, icons.
import type { ComponentProps, ReactNode, SVGProps } from 'react'
import { cn } from '../lib/cn.ts'

const buttonBase =
  'inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500 disabled:cursor-not-allowed disabled:opacity-50'

export const buttonStyles = {
  primary: `${buttonBase} bg-accent text-ink-950 hover:bg-accent-deep`,
  secondary: `${buttonBase} border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50 dark:border-ink-700 dark:bg-ink-800 dark:text-zinc-100 dark:hover:bg-ink-700`,
  danger: `${buttonBase} bg-red-600 text-white hover:bg-red-700`,
  ghost: `${buttonBase} text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-ink-800`,
  icon: 'inline-flex size-9 items-center justify-center rounded-lg text-zinc-600 transition-colors hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-amber-500 disabled:opacity-40 dark:text-zinc-300 dark:hover:bg-ink-800',
}

/** A button's props, `ref` included (React 19 passes it as a prop). */
type ButtonProps = ComponentProps<'button'> & {
  variant?: keyof typeof buttonStyles
}

export function Button({ variant = 'primary', className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={cn(buttonStyles[variant], className)} {...rest} />
}

/** A button that shows only an icon: its label is read out and shown on hover. */
export function IconButton({
  label,
  title = label,
  className,
  onClick,
  children,
}: {
  label: string
  /** The hover text; the label unless told, none when `null`. */
  title?: string | null
  className: string
  onClick: () => void
  children: ReactNode
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={title ?? undefined}
      onClick={onClick}
      className={className}
    >
      {children}
    </button>
  )
}

export const inputStyles =
  'block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 placeholder:text-zinc-400 focus:border-amber-500 focus:outline-2 focus:outline-amber-500/40 aria-invalid:border-red-500 dark:border-ink-700 dark:bg-ink-950 dark:text-zinc-100'

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null
  return (
    <p id={id} role="alert" className="mt-1 text-red-600 text-sm dark:text-red-400">
      {message}
    </p>
  )
}

export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <span role="status" className="inline-flex items-center justify-center">
      <span
        aria-hidden="true"
        className={cn(
          'size-8 animate-spin rounded-full border-2 border-zinc-300 border-t-amber-500 dark:border-ink-700 dark:border-t-accent',
          className,
        )}
      />
      <span className="sr-only">{label}</span>
    </span>
  )
}

/** A percentage as a whole number from 0 to 100. */
export const wholePercent = (value: number) => Math.max(0, Math.min(100, Math.round(value)))

/** A bar filled to `value` percent (whole, 0–100), read out as `label`; the caller styles both. */
export function Meter({
  label,
  value,
  className,
  fillClassName,
}: {
  label: string
  value: number
  className: string
  fillClassName: string
}) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className={className}
    >
      <div className={fillClassName} style={{ width: `${value}%` }} />
    </div>
  )
}

export function ProgressBar({ value, label }: { value: number; label: string }) {
  const clamped = wholePercent(value)
  return (
    <div>
      <div className="mb-1 flex justify-between text-sm">
        <span>{label}</span>
        <span aria-hidden="true">{clamped}%</span>
      </div>
      <Meter
        label={label}
        value={clamped}
        className="h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-ink-700"
        fillClassName="h-full rounded-full bg-accent transition-[width] duration-200"
      />
    </div>
  )
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={cn(
        'rounded-xl border border-zinc-200 bg-white shadow-sm dark:border-ink-700 dark:bg-ink-900',
        className,
      )}
    >
      {children}
    </div>
  )
}

type IconProps = SVGProps<SVGSVGElement>
/** A line icon of the dashboard's set (24 px grid, 1.8 px stroke); props override the defaults. */
export const icon = (d: string) =>
  // biome-ignore lint/correctness/noComponentHookFactories: built once at module load, no hooks inside
  function Icon(props: IconProps) {
    return (
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        className="size-5"
        {...props}
      >
        <path d={d} />
      </svg>
    )
  }

const GripDots = icon('M9 6h.01M9 12h.01M9 18h.01M15 6h.01M15 12h.01M15 18h.01')

export const Icons = {
  /** A drag handle's dots. */
  grip: (props: IconProps) => <GripDots strokeWidth={3} {...props} />,
  home: icon('M3 11.5 12 4l9 7.5M5 10v10h5v-6h4v6h5V10'),
  upload: icon('M12 16V4m0 0-5 5m5-5 5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3'),
  film: icon('M4 5h16v14H4zM8 5v14M16 5v14M4 9h4M4 15h4M16 9h4M16 15h4'),
  users: icon(
    'M16 20v-1a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v1M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M22 20v-1a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  ),
  menu: icon('M4 6h16M4 12h16M4 18h16'),
  close: icon('M6 6l12 12M18 6 6 18'),
  sun: icon(
    'M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10M12 1v2M12 21v2M4.2 4.2l1.4 1.4M18.4 18.4l1.4 1.4M1 12h2M21 12h2M4.2 19.8l1.4-1.4M18.4 5.6l1.4-1.4',
  ),
  moon: icon('M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8'),
  edit: icon('M4 20h4L19 9l-4-4L4 16v4M14 6l4 4'),
  trash: icon('M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3'),
  chevronLeft: icon('M15 18l-6-6 6-6'),
  chevronRight: icon('M9 18l6-6-6-6'),
  chevronDown: icon('M6 9l6 6 6-6'),
  logout: icon('M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9'),
  play: icon('M7 4v16l13-8z'),
  collapse: icon('M11 17l-5-5 5-5M18 17l-5-5 5-5'),
  expand: icon('M13 17l5-5-5-5M6 17l5-5-5-5'),
  plus: icon('M12 5v14M5 12h14'),
  /** Three joined dots: a link made to send to someone. */
  share: icon(
    'M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6M6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6M18 22a3 3 0 1 0 0-6 3 3 0 0 0 0 6M8.6 13.5l6.8 4M15.4 6.5l-6.8 4',
  ),
  clip: icon('M15 10l5-3v10l-5-3M3 6h12v12H3z'),
}
