// An answer given before the request's body was read (a refused PATCH: 409, 413, 415, 401, 429…)
// reaches the client only if that body is read. Bun closes the connection when a handler answers
// with the body unread, and a client still sending then meets a reset: Node's http client and
// superagent saw EPIPE instead of the status (measured before this: superagent 20 of 20 times for
// 8 MiB bodies, Node's http 1 to 4 of 5). Once the answer is sent, Bun stops reading the body
// (the stream reports "The connection was closed"), so the reading happens inside the answer:
// - a body of at most READ_BEFORE_ANSWER is read and dropped, then the answer goes as it is;
// - a larger one (or one of unknown length) gets its status and headers at once, and the answer's
//   body ends only once the request's body has been read and dropped, up to READ_AFTER_ANSWER, or
//   its client has sent nothing for QUIET_MS (curl stops sending once it sees an answer).
// Past READ_AFTER_ANSWER the connection closes: the client has had its status for a long time.
import { MiB } from '../contract/limits.ts'

const READ_BEFORE_ANSWER = 4 * MiB
/**
 * More than a chunk docs/api.md#uploading-files-with-tus advises (50 MiB), so a client following
 * the advice always hears.
 */
const READ_AFTER_ANSWER = 64 * MiB
const QUIET_MS = 2000

/** Reads and drops up to `limit` bytes; stops early once `quietMs` pass without any. */
async function drop(body: ReadableStream<Uint8Array>, limit: number, quietMs?: number) {
  const reader = body.getReader()
  let timer: ReturnType<typeof setTimeout> | undefined
  const quiet = () =>
    new Promise<'quiet'>((resolve) => {
      timer = setTimeout(() => resolve('quiet'), quietMs)
    })
  try {
    for (let read = 0; read <= limit; ) {
      const next = await (quietMs ? Promise.race([reader.read(), quiet()]) : reader.read())
      clearTimeout(timer)
      if (next === 'quiet' || next.done) return
      read += next.value.length
    }
  } catch {
    // The client went away or the connection timed out: nothing left to read.
  } finally {
    clearTimeout(timer)
    reader.cancel().catch(() => undefined)
  }
}

/** `response`, delivered so that the client sees it although its body was not read. */
export async function afterUnreadBody(request: Request, response: Response): Promise<Response> {
  const body = request.body
  if (!body || request.bodyUsed) return response
  const declared = request.headers.get('content-length')
  const length = declared === null ? undefined : Number(declared)
  // A null-body status (204, a HEAD's 200) cannot be kept open: read first, as far as we go.
  const small = length !== undefined && length <= READ_BEFORE_ANSWER
  if (small || response.body === null) {
    await drop(body, small ? READ_BEFORE_ANSWER : READ_AFTER_ANSWER)
    return response
  }
  const answer = new Uint8Array(await response.arrayBuffer())
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  headers.set('Connection', 'close')
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(answer)
    },
    async pull(controller) {
      await drop(body, READ_AFTER_ANSWER, QUIET_MS)
      controller.close()
    },
  })
  return new Response(stream, { status: response.status, statusText: response.statusText, headers })
}
