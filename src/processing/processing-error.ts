// Why a source cannot become streams, in words an admin can act on. A ProcessingError is about
// the file itself: running it again gives the same answer, so the caller marks the video failed
// at once instead of retrying. Anything else thrown by processVideo (a timeout, a full disk, a
// killed ffmpeg) may pass on a retry.

export type ProcessingErrorCode =
  | 'unreadable'
  | 'no-video'
  | 'undecodable'
  | 'too-long'
  | 'sparse-frames'

const REASONS: Record<ProcessingErrorCode, string> = {
  unreadable: 'The file could not be read as a video.',
  'no-video': 'The file has no video stream.',
  undecodable: 'The video stream could not be decoded.',
  'too-long': 'The video is longer than a video may last.',
  'sparse-frames': 'The file holds far fewer frames than its length needs.',
}

export class ProcessingError extends Error {
  override readonly name = 'ProcessingError'
  readonly code: ProcessingErrorCode
  /** The sentence for the admin, without ffmpeg's words. */
  readonly reason: string
  /** ffmpeg's or ffprobe's last lines, trimmed; empty when they said nothing useful. */
  readonly detail: string

  /** `reason` replaces the code's sentence when the figures make it clearer (src/processing/claims.ts). */
  constructor(code: ProcessingErrorCode, detail = '', reason = REASONS[code]) {
    super(detail ? `${reason} ffmpeg said: ${detail}` : reason)
    this.code = code
    this.reason = reason
    this.detail = detail
  }
}
