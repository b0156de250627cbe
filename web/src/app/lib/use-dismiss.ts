// Close a popover or drawer on a click outside it or on Escape.
import { type RefObject, useEffect, useRef } from 'react'

export function useDismiss(
  open: boolean,
  refs: RefObject<HTMLElement | null>[],
  onDismiss: (reason: 'outside' | 'escape') => void,
) {
  const latest = useRef(onDismiss)
  latest.current = onDismiss
  const refsRef = useRef(refs)
  refsRef.current = refs

  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node
      if (refsRef.current.some((ref) => ref.current?.contains(target))) return
      latest.current('outside')
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') latest.current('escape')
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])
}
