// What a file claims against what it holds. A container's duration is only a number in its header:
// a few KB can claim ten hours, and the ladder would then encode ten hours of repeated frames while
// real uploads wait. These checks run after the probe, before any long work, and refuse such a file
// at once (another attempt would say the same).
// docs/decisions/058-a-file-is-held-to-what-it-claims.md.
import { ProcessingError } from './processing-error.ts'

/** Longer than any reel a studio shows; a 3-hour master at ~1× real time is the longest job. */
export const MAX_DURATION_SECONDS = 3 * 3600

/**
 * The video stream's frames must come at least this often over its span (one per 10 s). A still
 * picture held for minutes by one frame would otherwise be encoded as minutes of copies.
 */
export const MIN_FRAMES_PER_SECOND = 0.1
/** Shorter spans cost seconds whatever they hold: not judged. */
export const SPARSE_FROM_SECONDS = 120

/** "10:00:00", "4:05", "0:42": how an admin reads a length. */
export function clock(seconds: number): string {
  const whole = Math.round(seconds)
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = String(whole % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/** Whether the video stream's span needs its frames counted (so a cheap file skips the count). */
export const spanIsJudged = (span: number | null) => span !== null && span >= SPARSE_FROM_SECONDS

/**
 * Throws ProcessingError when the file cannot be what it claims. `duration` is the whole file's
 * (the longest stream), `span` the video stream's own, `frames` the frames it holds (null when
 * unknown).
 */
export function checkClaims(claims: {
  duration: number | null
  span: number | null
  frames: number | null
}): void {
  const { duration, span, frames } = claims
  if (duration !== null && duration > MAX_DURATION_SECONDS) {
    throw new ProcessingError(
      'too-long',
      '',
      `The file says it lasts ${clock(duration)}, longer than the ${clock(MAX_DURATION_SECONDS)} a video may last. Trim or re-export it.`,
    )
  }
  if (span !== null && frames !== null && spanIsJudged(span)) {
    if (frames < span * MIN_FRAMES_PER_SECOND) {
      const one = frames === 1 ? '1 frame' : `${frames} frames`
      throw new ProcessingError(
        'sparse-frames',
        '',
        `The file says its picture lasts ${clock(span)} but holds only ${one}: its timestamps are broken. Re-export it with a constant frame rate.`,
      )
    }
  }
}
