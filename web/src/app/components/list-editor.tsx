// A form list's pieces (the Site page's services, paragraphs, clients and team): the remove
// button of a row, and the foot under the rows, which says what is wrong with the list as a whole
// and adds a row until the list is full.
import type { ReactNode } from 'react'
import { buttonStyles, IconButton, Icons } from './ui.tsx'

export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <IconButton
      label={label}
      onClick={onClick}
      className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-red-600 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-amber-500 dark:text-red-400 dark:hover:bg-red-950"
    >
      <Icons.trash />
    </IconButton>
  )
}

/** A list's own error, as react-hook-form reports it for a field array (too many, too few). */
type ListErrors = { message?: string; root?: { message?: string } } | undefined

export function ListFooter({
  errors,
  addLabel,
  onAdd,
  full,
  spacing = 'mt-3',
}: {
  errors: ListErrors
  addLabel: ReactNode
  onAdd: () => void
  /** The list holds as many rows as it may: adding is disabled. */
  full: boolean
  /** The space above the add button. */
  spacing?: string
}) {
  const error = errors?.root?.message || errors?.message
  return (
    <>
      {error ? (
        <p role="alert" className="mt-2 text-red-600 text-sm dark:text-red-400">
          {error}
        </p>
      ) : null}
      <div className={spacing}>
        <button type="button" className={buttonStyles.ghost} onClick={onAdd} disabled={full}>
          <Icons.plus className="size-4" /> {addLabel}
        </button>
      </div>
    </>
  )
}
