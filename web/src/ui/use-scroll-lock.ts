// The page behind an overlay stops scrolling while the overlay is open (docs/public-site.md: the
// public mobile menu; every modal dialog). Counted, so two overlays at once release the page only
// when the last one closes.
import { useLayoutEffect } from 'react'

let locks = 0
let before = ''

/**
 * Locks the page's scroll while `active`. A layout effect, so the lock is gone before anything
 * that runs after the overlay closes (the public menu's section scroll) starts.
 */
export function useScrollLock(active = true): void {
  useLayoutEffect(() => {
    if (!active) return
    const root = document.documentElement
    if (locks++ === 0) {
      before = root.style.overflow
      root.style.overflow = 'hidden'
    }
    return () => {
      if (--locks === 0) root.style.overflow = before
    }
  }, [active])
}
