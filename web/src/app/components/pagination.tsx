// Previous/Next on small screens; 'Page X of Y' and numbered buttons on wider ones
// (docs/dashboard.md).
import { Icons } from './ui.tsx'

/** Page numbers to show, with null for a gap: 1 … 4 5 6 … 12. */
export function pageWindow(current: number, total: number): (number | null)[] {
  if (total <= 7) return Array.from({ length: total }, (_, i) => i + 1)
  const pages = new Set([1, total, current - 1, current, current + 1])
  const sorted = [...pages].filter((p) => p >= 1 && p <= total).sort((a, b) => a - b)
  const out: (number | null)[] = []
  for (const p of sorted) {
    const last = out[out.length - 1]
    if (typeof last === 'number' && p - last > 1) out.push(null)
    out.push(p)
  }
  return out
}

const navButton =
  'inline-flex items-center gap-1 rounded-lg border border-zinc-300 px-3 py-2 text-sm font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-amber-500 disabled:cursor-not-allowed disabled:opacity-40 dark:border-ink-700 dark:hover:bg-ink-800'

interface PaginationProps {
  page: number
  totalPages: number
  onChange: (page: number) => void
}

export function Pagination({ page, totalPages, onChange }: PaginationProps) {
  const first = page <= 1
  const last = page >= totalPages
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-3">
      <button
        type="button"
        className={navButton}
        disabled={first}
        onClick={() => onChange(page - 1)}
      >
        <Icons.chevronLeft className="size-4" /> Previous
      </button>
      <div className="hidden items-center gap-3 md:flex">
        <span className="text-sm text-zinc-600 dark:text-zinc-300">
          Page {page} of {totalPages}
        </span>
        <ul className="flex items-center gap-1">
          {pageWindow(page, totalPages).map((p, i) =>
            p === null ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own
              <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-zinc-400">
                …
              </li>
            ) : (
              <li key={p}>
                <button
                  type="button"
                  aria-label={`Page ${p}`}
                  aria-current={p === page ? 'page' : undefined}
                  onClick={() => onChange(p)}
                  className={`min-w-9 rounded-lg px-2 py-2 text-sm tabular-nums focus-visible:outline-2 focus-visible:outline-amber-500 ${
                    p === page
                      ? 'bg-accent font-semibold text-ink-950'
                      : 'hover:bg-zinc-100 dark:hover:bg-ink-800'
                  }`}
                >
                  {p}
                </button>
              </li>
            ),
          )}
        </ul>
      </div>
      <button
        type="button"
        className={navButton}
        disabled={last}
        onClick={() => onChange(page + 1)}
      >
        Next <Icons.chevronRight className="size-4" />
      </button>
    </nav>
  )
}
