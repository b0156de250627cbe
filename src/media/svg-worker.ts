// The thread the SVG sanitiser runs on, away from the server's main thread: svg-thread.ts starts
// it, sends one file at a time and ends it when a file takes too long (docs/decisions/056).
import { sanitizeSvg, warmUp } from './svg.ts'

declare const self: Worker

self.onmessage = async ({ data }: MessageEvent<{ id: number; bytes: Uint8Array }>) => {
  try {
    const result = await sanitizeSvg(new TextDecoder().decode(data.bytes))
    self.postMessage({ id: data.id, result })
  } catch (error) {
    // A parser that gives up (a stack overflowed by nesting the byte scan did not see) means the
    // file cannot be read; the reason goes to the server's log, not to the uploader.
    self.postMessage({ id: data.id, result: { ok: false, reason: null }, error: String(error) })
  }
}

await warmUp()
self.postMessage({ ready: true })
