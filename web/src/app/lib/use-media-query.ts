import { useSyncExternalStore } from 'react'

/** True while the media query matches (e.g. the 768 px mobile breakpoint of SPEC §9). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    () => window.matchMedia(query).matches,
  )
}

export const SMALL_SCREEN = '(max-width: 767px)'
