// A figure with its title (and an icon) on a card: the Overview's and Manage's counts.
import type { ReactNode } from 'react'
import { Card } from './ui.tsx'

export function StatTile({
  title,
  value,
  icon,
}: {
  title: string
  value: ReactNode
  icon?: ReactNode
}) {
  return (
    <Card className="flex items-center gap-4 p-3 sm:p-5">
      {icon ? (
        <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-amber-100 text-amber-700 dark:bg-ink-700 dark:text-accent">
          {icon}
        </span>
      ) : null}
      <div className="min-w-0">
        <p className="text-xs text-zinc-500 sm:text-sm dark:text-zinc-400">{title}</p>
        <p className="font-semibold text-xl tabular-nums sm:text-2xl">{value}</p>
      </div>
    </Card>
  )
}
