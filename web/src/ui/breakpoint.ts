// The mobile breakpoint for React components: the query and test live in viewport.ts.
import { useSyncExternalStore } from 'react'
import { isMobileViewport, MOBILE_QUERY } from './viewport.ts'

export { isMobileViewport, MOBILE_QUERY }

/** True while the viewport is below the mobile breakpoint, re-rendering when it crosses it. */
export function useIsMobile(): boolean {
  return useSyncExternalStore((onChange) => {
    const list = window.matchMedia(MOBILE_QUERY)
    list.addEventListener('change', onChange)
    return () => list.removeEventListener('change', onChange)
  }, isMobileViewport)
}
