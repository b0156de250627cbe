// Caption files are read (SRT converted, WebVTT checked line by line) on a worker thread: a
// 1 MB file of twenty thousand cues takes about 100 ms of CPU, which no other request should wait
// behind. The size is bounded before the file is sent.
import { captionsMessages } from '../contract/captions.ts'
import { offThread } from '../parser-threads/thread.ts'
import { CaptionsError, CaptionsTooLarge } from './text.ts'

/** toWebVtt's answer as data; `problem: null` when the reader gave up on the file. */
export type ReadCaptions =
  | { ok: true; text: string; converted: boolean; cues: number }
  | { ok: false; tooLarge: true }
  | { ok: false; line: number | null; problem: string | null }

/** Far above what the size bound allows; only a reader gone wrong reaches it. */
const LIMIT_MS = 10_000

const reader = offThread<Uint8Array, ReadCaptions>({
  url: new URL('./worker.ts', import.meta.url),
  name: 'captions',
})

/**
 * toWebVtt on the worker: the WebVTT text to store, or CaptionsTooLarge, or CaptionsError naming
 * the wrong line (or the file as a whole when it could not be read in time).
 */
export async function toWebVttOffThread(
  bytes: Uint8Array,
): Promise<{ text: string; converted: boolean; cues: number }> {
  const read = await reader.run(bytes, LIMIT_MS)
  if (read === 'timeout') throw new CaptionsError(null, captionsMessages.unreadable)
  if (read.ok) return { text: read.text, converted: read.converted, cues: read.cues }
  if ('tooLarge' in read) throw new CaptionsTooLarge()
  throw new CaptionsError(read.line, read.problem ?? captionsMessages.unreadable)
}
