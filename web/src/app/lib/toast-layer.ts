// Where the toaster draws. A modal <dialog> sits in the top layer, above every z-index, so a
// toaster in the page would be hidden under its backdrop ('Please wait until the update is
// complete' is said while the edit modal is open). The toaster renders into a manual popover
// instead, itself in the top layer, and each modal dialog raises it above itself once shown.
// Outside the open dialog the toasts are inert while it is open: seen, not clicked or read out.

let layer: HTMLDivElement | null = null

/** The toaster's element: an empty, zero-sized popover whose fixed toasts draw over everything. */
export function toastLayer(): HTMLDivElement {
  if (layer) return layer
  layer = document.createElement('div')
  layer.popover = 'manual'
  layer.dataset.toastLayer = ''
  layer.className = 'm-0 size-0 overflow-visible border-0 bg-transparent p-0'
  document.body.append(layer)
  layer.showPopover()
  return layer
}

/** Puts the toasts back on top of a modal dialog that has just been shown. */
export function raiseToasts(): void {
  if (!layer?.isConnected) return
  if (layer.matches(':popover-open')) layer.hidePopover()
  layer.showPopover()
}

/** True when (x, y) is over a toast: a click there is not a click on a dialog's backdrop. */
export function isOverToast(x: number, y: number): boolean {
  if (!layer) return false
  for (const toast of layer.querySelectorAll('[data-sonner-toast]')) {
    const box = toast.getBoundingClientRect()
    if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) return true
  }
  return false
}
