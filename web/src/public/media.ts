// Small browser helpers shared by the work grid's players.
import { isMobileViewport } from '../ui/breakpoint.ts'

/** docs/public-site.md: a failed play is only logged; the caller returns the tile to idle. */
export function logPlayFailure(title: string, error: unknown): void {
  console.error(`Could not play "${title}"`, error)
}

/**
 * play() rejected because a new source was loaded meanwhile (a stream falling back to its MP4,
 * which plays on by itself): not a failure to report.
 */
export function isInterruptedPlay(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError'
}

/** Plays with sound when the browser allows it, muted otherwise (autoplay policies differ). */
export async function playWithSoundIfAllowed(video: HTMLVideoElement): Promise<void> {
  try {
    await video.play()
  } catch (error) {
    if (!(error instanceof DOMException) || error.name !== 'NotAllowedError') throw error
    video.muted = true
    await video.play()
  }
}

/**
 * Hover previews play only where there is a real hover (a mouse on a desktop-sized screen) and
 * the visitor has not asked for less motion.
 */
export function canPreviewOnHover(): boolean {
  return (
    window.matchMedia('(hover: hover) and (pointer: fine)').matches &&
    !window.matchMedia('(prefers-reduced-motion: reduce)').matches &&
    !isMobileViewport()
  )
}
