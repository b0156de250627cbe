// The thread caption files are read on, away from the server's main thread (thread.ts). Errors
// cross the thread as plain data; thread.ts makes them the caption errors again.
import { answerOnThread } from '../parser-threads/answer.ts'
import { CaptionsError, CaptionsTooLarge, toWebVtt } from './index.ts'
import type { ReadCaptions } from './thread.ts'

await answerOnThread<Uint8Array, ReadCaptions>(
  (bytes) => {
    try {
      return { ok: true, ...toWebVtt(bytes) }
    } catch (error) {
      if (error instanceof CaptionsTooLarge) return { ok: false, tooLarge: true }
      if (error instanceof CaptionsError) {
        return { ok: false, line: error.line, problem: error.problem }
      }
      throw error
    }
  },
  { ok: false, line: null, problem: null },
)
