// Every modal is a native <dialog> opened with showModal(): the top layer, an inert page behind
// (focus cannot leave, nothing behind is read out or clicked) and Escape, without a hand-made
// focus trap. This hook owns the parts the element leaves to its page.
import { type RefObject, useLayoutEffect, useRef } from 'react'
import { useScrollLock } from './use-scroll-lock.ts'

/**
 * Shows `ref`'s dialog as a modal while the calling component is mounted; unmounting closes it
 * and gives focus back to the element that had it. Escape and a click on the backdrop *ask* to
 * close through `onRequestClose`: the owner closes by unmounting the dialog, or refuses (e.g.
 * while busy) and the dialog stays. The page behind does not scroll meanwhile.
 */
export function useModalDialog(
  ref: RefObject<HTMLDialogElement | null>,
  onRequestClose: () => void,
  options: {
    /** A backdrop click at this point is no request to close (something is drawn over it). */
    ignoreClickAt?: (x: number, y: number) => boolean
    /** Called each time the dialog has been shown (e.g. to put other top-layer content above). */
    onShown?: () => void
  } = {},
): void {
  const request = useRef(onRequestClose)
  request.current = onRequestClose
  const latest = useRef(options)
  latest.current = options
  useScrollLock()

  // A layout effect: shown before the first paint, closed while still in the document.
  useLayoutEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    let unmounting = false
    const show = () => {
      dialog.showModal()
      latest.current.onShown?.()
    }
    if (!dialog.open) show()

    let focusedBefore: Element | null = null
    const onCancel = (event: Event) => {
      focusedBefore = document.activeElement
      event.preventDefault()
      request.current()
    }
    // Chromium lets a page refuse Escape only once per user activation, then closes the dialog
    // anyway (the close-watcher rules). An owner that still renders it has refused: show it again,
    // with focus where it was (or on the dialog, when that is gone or disabled meanwhile).
    const onClose = () => {
      if (unmounting || !dialog.isConnected) return
      show()
      const back = focusedBefore
      const usable =
        back instanceof HTMLElement &&
        back !== dialog &&
        dialog.contains(back) &&
        !back.matches(':disabled')
      ;(usable ? back : dialog).focus()
    }
    // The backdrop is part of the element: a click whose press and release both landed on the
    // dialog itself (not on its content) is outside. A press inside dragged out is not.
    let pressedOutside = false
    const onPointerDown = (event: PointerEvent) => {
      pressedOutside = event.target === dialog
    }
    const onClick = (event: MouseEvent) => {
      const outside = pressedOutside && event.target === dialog
      if (outside && !latest.current.ignoreClickAt?.(event.clientX, event.clientY))
        request.current()
      pressedOutside = false
    }
    dialog.addEventListener('cancel', onCancel)
    dialog.addEventListener('close', onClose)
    dialog.addEventListener('pointerdown', onPointerDown)
    dialog.addEventListener('click', onClick)
    return () => {
      unmounting = true
      dialog.removeEventListener('cancel', onCancel)
      dialog.removeEventListener('close', onClose)
      dialog.removeEventListener('pointerdown', onPointerDown)
      dialog.removeEventListener('click', onClick)
      if (dialog.open) dialog.close()
      if (opener?.isConnected) opener.focus()
    }
  }, [ref])
}
