// hls.js (the full build, ~178 KB gzip) is never part of the public page's initial JavaScript:
// it is imported on demand as its own chunk, once, and kept. Callers prefetch it before the
// visitor clicks (idle time, or the grid nearing the viewport), so a click finds it in hand.
import type Hls from 'hls.js'

export type HlsClass = typeof Hls

let loading: Promise<HlsClass> | null = null
let loaded: HlsClass | null = null

/**
 * The hls.js class, importing its chunk the first time. The full build, not `hls.js/light`: the
 * light build has no alternate-audio support, and our ladder's sound is one shared audio
 * rendition (EXT-X-MEDIA), which the light build plays as silence
 * (docs/decisions/043-players-hls-js-full-build-lazy-one-config.md).
 */
export function loadHls(): Promise<HlsClass> {
  loading ??= import('hls.js').then(
    (module) => {
      loaded = module.default
      return loaded
    },
    (error: unknown) => {
      // A failed chunk download (offline for a moment) may be tried again later.
      loading = null
      throw error
    },
  )
  return loading
}

/** The class if its chunk has already arrived, so a click can attach without waiting. */
export function hlsIfLoaded(): HlsClass | null {
  return loaded
}

/** Starts the download without waiting for it; a failure is retried by the next caller. */
export function prefetchHls(): void {
  loadHls().catch((error: unknown) => console.warn('Could not prefetch the stream player', error))
}
