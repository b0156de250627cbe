// The one mobile breakpoint (docs/limits.md: below 768 px is mobile), for scripts and <picture>
// media. Tailwind's `md:` starts at the same width (48rem), so classes and scripts switch together;
// web/index.html's hero preloads repeat the query because HTML cannot import it.
import { useSyncExternalStore } from 'react'

export const MOBILE_QUERY = '(max-width: 767px)'

export function isMobileViewport(): boolean {
  return window.matchMedia(MOBILE_QUERY).matches
}

/** True while the viewport is below the mobile breakpoint, re-rendering when it crosses it. */
export function useIsMobile(): boolean {
  return useSyncExternalStore((onChange) => {
    const list = window.matchMedia(MOBILE_QUERY)
    list.addEventListener('change', onChange)
    return () => list.removeEventListener('change', onChange)
  }, isMobileViewport)
}
