// Serves a stored file with HTTP Range support (RFC 9110 §14), straight from disk.
import { stat } from 'node:fs/promises'

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

/** Answers a GET or HEAD for the file at `path`; 404 when it is not there. */
export async function serveFile(
  request: Request,
  path: string,
  type: string,
  cacheControl = IMMUTABLE,
): Promise<Response> {
  const info = await stat(path).catch(() => undefined)
  if (!info?.isFile()) return new Response('Not found', { status: 404 })
  const size = info.size
  const etag = `"${size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"`
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
  const file = Bun.file(path)

  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${size}`)
    return new Response(null, { status: 416, headers })
  }
  if (range) {
    const length = range.end - range.start + 1
    headers.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    headers.set('Content-Length', String(length))
    // An explicit 206 with a sliced file is sent as is; Bun only applies Range itself to 200s.
    const body = head ? null : file.slice(range.start, range.end + 1)
    return new Response(body, { status: 206, headers })
  }
  headers.set('Content-Length', String(size))
  if (head) return new Response(null, { status: 200, headers })
  // Bun would apply a Range header to a whole-file 200 on its own; a stream is sent as it is,
  // which matters only when If-Range told us to ignore the range.
  const body = request.headers.has('range') ? file.stream() : file
  return new Response(body, { status: 200, headers })
}
