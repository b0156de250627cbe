// Dashboard overview (docs/dashboard.md): greeting, breadcrumb and the 'Total Videos' card.
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { PageHeader } from '../components/page-header.tsx'
import { StatTile } from '../components/stat-tile.tsx'
import { Icons } from '../components/ui.tsx'
import { abbreviateCount } from '../lib/format.ts'
import { useAuthStore } from '../stores/auth.ts'
import { STALE_AFTER_MS } from '../stores/video-store.ts'
import { trpc } from '../trpc.ts'

/** docs/limits.md: the stats are fresh for 5 minutes (the video cache's staleness). */
export const STATS_STALE_MS = STALE_AFTER_MS

/** A summary tile: a title and a value. */
export function OverviewPage() {
  const username = useAuthStore((s) => s.user?.username ?? '')
  const stats = trpc.videos.stats.useQuery(undefined, {
    staleTime: STATS_STALE_MS,
    retry: 2,
    refetchOnMount: true,
  })
  // An answer that is not a number counts as 0 (docs/dashboard.md).
  const total = Number.isFinite(stats.data?.totalVideos) ? Number(stats.data?.totalVideos) : 0

  let value: ReactNode
  if (stats.isPending) {
    value = (
      <span
        data-testid="total-videos-skeleton"
        role="status"
        aria-label="Loading"
        className="mt-1 block h-8 w-16 animate-pulse rounded bg-zinc-200 dark:bg-ink-700"
      />
    )
  } else if (stats.isError) {
    value = <span className="text-red-600 dark:text-red-400">Error</span>
  } else {
    value = <span title={total.toLocaleString('en-US')}>{abbreviateCount(total)}</span>
  }

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Dashboard"
        eyebrow={<p className="mb-1 text-zinc-600 dark:text-zinc-300">Welcome back, {username}!</p>}
      />
      <section aria-label="Summary" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <StatTile title="Total Videos" value={value} icon={<Icons.clip className="size-6" />} />
      </section>
      <section className="mt-8 grid gap-4 sm:grid-cols-2">
        <QuickLink
          to="/dashboard/upload"
          title="Upload Video"
          text="Add a new video with its thumbnail and brand logo."
        />
        <QuickLink
          to="/dashboard/manage"
          title="Manage Videos"
          text="Preview, edit and delete portfolio videos."
        />
      </section>
    </div>
  )
}

function QuickLink({
  to,
  title,
  text,
}: {
  to: '/dashboard/upload' | '/dashboard/manage'
  title: string
  text: string
}) {
  return (
    <Link
      to={to}
      className="rounded-xl border border-zinc-200 bg-white p-5 transition-colors hover:border-amber-400 focus-visible:outline-2 focus-visible:outline-amber-500 dark:border-ink-700 dark:bg-ink-900 dark:hover:border-accent"
    >
      <p className="font-medium">{title}</p>
      <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{text}</p>
    </Link>
  )
}
