// Page title with a breadcrumb trail (Dashboard › Page).
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'

interface PageHeaderProps {
  title: string
  crumb?: string
  eyebrow?: ReactNode
  actions?: ReactNode
}

export function PageHeader({ title, crumb, eyebrow, actions }: PageHeaderProps) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <nav aria-label="Breadcrumb" className="mb-2 text-sm text-zinc-500 dark:text-zinc-400">
          <ol className="flex items-center gap-1.5">
            <li>
              {crumb ? (
                <Link
                  to="/dashboard"
                  className="hover:text-zinc-900 hover:underline dark:hover:text-zinc-100"
                >
                  Dashboard
                </Link>
              ) : (
                <span aria-current="page">Dashboard</span>
              )}
            </li>
            {crumb ? (
              <>
                <li aria-hidden="true">/</li>
                <li aria-current="page" className="text-zinc-700 dark:text-zinc-200">
                  {crumb}
                </li>
              </>
            ) : null}
          </ol>
        </nav>
        {eyebrow}
        <h1 className="font-semibold text-2xl tracking-tight sm:text-3xl">{title}</h1>
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  )
}
