// The frame shared by the sign-in, forgot and reset screens.
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { ThemeToggle } from '../layout/ThemeToggle.tsx'

export function AuthShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-zinc-100 text-zinc-900 dark:bg-ink-950 dark:text-zinc-100">
      <header className="flex items-center justify-between px-4 py-3 sm:px-6">
        <Link to="/" className="font-display text-2xl tracking-wide">
          Studio
        </Link>
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:items-center sm:pt-0">
        <div className="w-full max-w-md rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-ink-700 dark:bg-ink-900">
          <h1 className="mb-6 font-semibold text-2xl">{title}</h1>
          {children}
        </div>
      </main>
    </div>
  )
}
