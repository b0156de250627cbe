// The thread the SVG sanitiser runs on, away from the server's main thread (svg-thread.ts).
import { answerOnThread } from '../parser-threads/answer.ts'
import { sanitizeSvg, warmUp } from './svg.ts'

await answerOnThread(
  (bytes: Uint8Array) => sanitizeSvg(new TextDecoder().decode(bytes)),
  { ok: false, reason: null },
  warmUp,
)
