// Confirmation before deleting one or several videos; it cannot be closed while busy.
import { Dialog } from '../components/dialog.tsx'
import { Button } from '../components/ui.tsx'

interface DeleteDialogProps {
  count: number
  /** The single video's title, when deleting one. */
  title?: string
  busy: boolean
  onConfirm: () => void
  onClose: () => void
}

export function DeleteDialog({ count, title, busy, onConfirm, onClose }: DeleteDialogProps) {
  const single = title !== undefined
  const close = () => {
    if (!busy) onClose()
  }
  const what = single ? `"${title}"` : `${count} selected ${count === 1 ? 'video' : 'videos'}`
  return (
    <Dialog
      role="alertdialog"
      size="sm"
      title={single ? 'Delete Video' : `Delete Selected Videos (${count})`}
      description={`Are you sure you want to delete ${what}? This action cannot be undone.`}
      onClose={close}
    >
      <div className="flex justify-end gap-3 px-5 py-4">
        <Button variant="secondary" onClick={close} disabled={busy} data-autofocus>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy}>
          {busy ? 'Deleting...' : 'Delete'}
        </Button>
      </div>
    </Dialog>
  )
}
