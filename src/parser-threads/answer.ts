// The worker's side of thread.ts: takes one piece of work at a time and answers it. A handler
// that throws means the input could not be read (a parser that gave up, a stack overflowed by
// nesting): the worker answers `unreadable`, and the reason goes to the server's log, never to
// the uploader.
import type { Reply } from './thread.ts'

declare const self: Worker

export async function answerOnThread<In, Out>(
  handle: (input: In) => Out | Promise<Out>,
  unreadable: Out,
  warmUp?: () => Promise<void>,
): Promise<void> {
  self.onmessage = async ({ data }: MessageEvent<{ id: number; input: In }>) => {
    let reply: Reply<Out>
    try {
      reply = { id: data.id, result: await handle(data.input) }
    } catch (error) {
      reply = { id: data.id, result: unreadable, error: String(error) }
    }
    self.postMessage(reply)
  }
  await warmUp?.()
  self.postMessage({ ready: true })
}
