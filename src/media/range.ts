// Serves a stored object with HTTP Range support (RFC 9110 §14).
import type { Storage } from '../storage/types.ts'

/** Inclusive byte positions, as Content-Range writes them. */
export type ByteRange = { start: number; end: number }

/**
 * Reads a Range header against a file size. `undefined` means "serve the whole file": no header,
 * another unit, bad syntax or several ranges (RFC 9110 lets a server ignore those). The string
 * 'unsatisfiable' means 416.
 */
export function parseRange(
  header: string | null,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const match = header && /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!match) return undefined
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return undefined
  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last)
    if (length === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - length), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? size - 1 : Number(last)
  if (last !== '' && end < start) return undefined
  if (start >= size) return 'unsatisfiable'
  return { start, end: Math.min(end, size - 1) }
}

// Stored names change whenever content changes, so a year of immutable caching is safe.
export const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * Answers a GET or HEAD for the stored object `key`; 404 when it is not there. Size and ETag come
 * from `stat`; the bytes from the engine's local file when it has one (Bun sends it from the
 * kernel), otherwise streamed from `read`, one range or the whole object, never held in memory.
 */
export async function serveObject(
  request: Request,
  storage: Storage,
  key: string,
  type: string,
  cacheControl = IMMUTABLE,
): Promise<Response> {
  const info = await storage.stat(key)
  if (!info) return notFound()
  const { size, etag } = info
  const headers = new Headers({
    'Content-Type': type,
    'Accept-Ranges': 'bytes',
    'Cache-Control': cacheControl,
    'X-Content-Type-Options': 'nosniff',
    ETag: etag,
  })
  if (request.headers.get('if-none-match') === etag) {
    return new Response(null, { status: 304, headers })
  }
  const ifRange = request.headers.get('if-range')
  const range =
    ifRange && ifRange !== etag ? undefined : parseRange(request.headers.get('range'), size)
  const head = request.method === 'HEAD'
  const local = storage.localPath(key)

  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${size}`)
    return new Response(null, { status: 416, headers })
  }
  if (range) {
    const length = range.end - range.start + 1
    headers.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    headers.set('Content-Length', String(length))
    if (head) return new Response(null, { status: 206, headers })
    // An explicit 206 with a sliced file is sent as is; Bun only applies Range itself to 200s.
    const body = local
      ? Bun.file(local).slice(range.start, range.end + 1)
      : (await storage.read(key, range))?.body
    return body ? new Response(body, { status: 206, headers }) : notFound()
  }
  headers.set('Content-Length', String(size))
  if (head) return new Response(null, { status: 200, headers })
  if (local) {
    const file = Bun.file(local)
    // Bun would apply a Range header to a whole-file 200 on its own; a stream is sent as it is,
    // which matters only when If-Range told us to ignore the range.
    return new Response(request.headers.has('range') ? file.stream() : file, {
      status: 200,
      headers,
    })
  }
  const read = await storage.read(key)
  return read ? new Response(read.body, { status: 200, headers }) : notFound()
}

const notFound = () => new Response('Not found', { status: 404 })
