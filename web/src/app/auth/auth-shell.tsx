// The frame shared by the sign-in, forgot and reset screens, in the public page's voice: the
// studio's name and mark, Instrument Serif headings over Inter, paper and ink with the one yellow
// accent; light or dark as the visitor last chose in the dashboard.
import { Link } from '@tanstack/react-router'
import type { ComponentProps, ReactNode } from 'react'
import { BRAND, BrandName, BrandTile } from '../../brand/brand.tsx'
import { hero } from '../../public/content.ts'
import { TextField } from '../components/text-field.tsx'
import { ThemeToggle } from '../layout/theme-toggle.tsx'

/** Links inside the auth forms: ink with an accent underline on paper, the accent on ink. */
export const authLinkClass =
  'rounded-sm font-medium text-ink-950 underline decoration-accent-deep decoration-2 underline-offset-4 hover:decoration-ink-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ink-950 dark:text-accent dark:decoration-accent/50 dark:hover:decoration-accent dark:focus-visible:outline-accent'

/** The primary button of an auth form: the public page's yellow pill. */
export const authButtonClass =
  'inline-flex w-full items-center justify-center rounded-full bg-accent px-6 py-3 font-semibold text-[0.9375rem] text-ink-950 tracking-wide transition-colors hover:bg-accent-deep focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ink-950 disabled:cursor-not-allowed disabled:opacity-60 dark:focus-visible:outline-accent'

export function AuthShell({ title, children }: { title: string; children: ReactNode }) {
  const [before, after] = splitLine(hero.line)
  return (
    <div className="flex min-h-dvh flex-col bg-paper font-sans text-ink-950 antialiased dark:bg-ink-950 dark:text-paper">
      <header className="mx-auto flex w-full max-w-6xl items-center justify-between px-5 py-4 sm:px-8 sm:py-6">
        <Link
          to="/"
          data-brand=""
          className="flex items-center gap-3 rounded-md focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ink-950 dark:focus-visible:outline-accent"
        >
          <BrandTile className="size-9" />
          <BrandName className="text-2xl" />
        </Link>
        <ThemeToggle />
      </header>
      <main className="mx-auto grid w-full max-w-6xl flex-1 content-start gap-12 px-5 pt-6 pb-16 sm:px-8 sm:pt-10 lg:grid-cols-[minmax(0,1fr)_28rem] lg:content-center lg:gap-20 lg:pt-0">
        {/* The studio's line, as on the public page; wide screens only, beside the form. */}
        <div className="hidden lg:block">
          <p className="mb-6 text-[0.6875rem] font-medium tracking-[0.28em] text-ink-500 uppercase dark:text-mist">
            {BRAND.tagline}
          </p>
          <p className="max-w-[14ch] font-display text-[clamp(3.5rem,6vw,5.5rem)] leading-[0.95] tracking-[-0.02em] text-balance">
            {before}{' '}
            {/* On paper the accent is a marker stroke under the words; on ink it colours them. */}
            <span className="box-decoration-clone bg-[linear-gradient(transparent_58%,var(--color-accent)_58%,var(--color-accent)_92%,transparent_92%)] px-1 italic dark:bg-none dark:px-0 dark:text-accent">
              {after}
            </span>
          </p>
        </div>
        <div className="w-full max-w-md justify-self-center rounded-3xl border border-ink-950/10 bg-white p-6 shadow-[0_1px_0_rgb(9_9_10/0.04),0_24px_48px_-24px_rgb(9_9_10/0.18)] sm:p-10 lg:justify-self-end dark:border-white/10 dark:bg-ink-900 dark:shadow-none">
          <p className="mb-3 text-[0.6875rem] font-medium tracking-[0.28em] text-ink-500 uppercase lg:hidden dark:text-mist">
            {BRAND.tagline}
          </p>
          <h1 className="mb-8 font-display text-[2.5rem] leading-[1.05] tracking-[-0.01em] sm:text-5xl">
            {title}
          </h1>
          {children}
        </div>
      </main>
    </div>
  )
}

/** 'Where words leave off, music begins.' → the words before and after its last comma. */
function splitLine(line: string): [string, string] {
  const at = line.lastIndexOf(', ')
  return at < 0 ? [line, ''] : [line.slice(0, at + 1), line.slice(at + 2)]
}

/** The e-mail field of the sign-in and forgot forms. */
export function EmailField(props: Omit<ComponentProps<typeof TextField>, 'label'>) {
  return <TextField label="Email" type="email" autoComplete="email" {...props} />
}

/** An auth form's primary button, saying what it does while it runs. */
export function AuthSubmit({
  label,
  busyLabel,
  busy,
  disabled = busy,
}: {
  label: string
  busyLabel: string
  busy: boolean
  disabled?: boolean
}) {
  return (
    <button type="submit" className={authButtonClass} disabled={disabled}>
      {busy ? busyLabel : label}
    </button>
  )
}

/** The way back from Forgot Password and Set New Password. */
export function BackToSignIn() {
  return (
    <p className="text-center text-sm">
      <Link to="/login" className={authLinkClass}>
        Back to Sign In
      </Link>
    </p>
  )
}
