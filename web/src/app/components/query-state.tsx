// What a query shows in each of its states: a spinner while it loads, what went wrong when it
// failed (in a section of a dialog, with Try again), a line when there is nothing to show, and
// else the content. A page's body is roomy; a section's is compact.
import type { ReactNode } from 'react'
import { toClientError } from '../lib/errors.ts'
import { Button, Spinner } from './ui.tsx'

/** The part of a TanStack query result this reads. */
type Query<T> = {
  isPending: boolean
  isError: boolean
  error: unknown
  data: T | undefined
  refetch: () => unknown
}

type Props<T, V> = {
  query: Query<T>
  /** The spinner's label, read out while the query loads ("Loading admins"). */
  loading: string
  /** What the failure says when the server gave no message. */
  failed?: string
  /** The part of the answer the content shows; none is a failure too. */
  select?: (data: T) => V | undefined
  /** A line shown instead of the content when `when` says there is nothing to show. */
  empty?: { when: (value: V) => boolean; text: ReactNode }
  /** In a section of a dialog: a compact spinner, and a failure that offers Try again. */
  compact?: boolean
  /** The padding around the spinner, when the place wants another than the look's. */
  pad?: string
  children: (value: V) => ReactNode
}

export function QueryState<T, V = T>({
  query,
  loading,
  failed = 'Something went wrong',
  select,
  empty,
  compact = false,
  pad = compact ? 'py-6' : 'py-16',
  children,
}: Props<T, V>) {
  if (query.isPending) {
    return (
      <div className={`flex justify-center ${pad}`}>
        <Spinner label={loading} className={compact ? 'size-6' : undefined} />
      </div>
    )
  }
  const value =
    query.data === undefined ? undefined : select ? select(query.data) : (query.data as V)
  if (query.isError || value === undefined) {
    const message = (query.error ? toClientError(query.error).message : '') || failed
    if (!compact) {
      return (
        <p role="alert" className="p-6 text-center text-red-600 dark:text-red-400">
          {message}
        </p>
      )
    }
    return (
      <div role="alert" className="rounded-lg border border-red-200 p-3 dark:border-red-900">
        <p className="text-red-600 text-sm dark:text-red-400">{message}</p>
        <Button variant="secondary" className="mt-2 min-h-11" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    )
  }
  if (empty?.when(value)) return <EmptyLine compact={compact}>{empty.text}</EmptyLine>
  return children(value)
}

/** The line a list shows when it has nothing in it. */
export function EmptyLine({
  compact = false,
  children,
}: {
  compact?: boolean
  children: ReactNode
}) {
  return (
    <p
      className={
        compact
          ? 'text-sm text-zinc-600 dark:text-zinc-300'
          : 'p-8 text-center text-zinc-500 dark:text-zinc-400'
      }
    >
      {children}
    </p>
  )
}
