// The head of the dashboard's tables (Manage, Admins, Activity): one row of column headers in the
// small upper-case style, each header a column's label and its own padding and alignment.
import type { ReactNode } from 'react'

export type Column = { label: ReactNode; className: string }

export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead className="border-zinc-200 border-b text-xs text-zinc-500 uppercase tracking-wide dark:border-ink-700 dark:text-zinc-400">
      <tr>
        {columns.map((column, i) => (
          // The columns are fixed for a table: their place is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <th key={i} scope="col" className={column.className}>
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  )
}

/** Columns with the same padding, from their labels. */
export const columnsOf = (className: string, labels: readonly ReactNode[]): Column[] =>
  labels.map((label) => ({ label, className }))
