// Content codings of dynamic answers: which one a client accepts (RFC 9110 §12.5.3) and the bytes
// in it. Stored answers are encoded once, off the main thread, at a quality worth keeping
// (src/http/response-cache.ts); other JSON answers are encoded here per request, at the cheapest.
// Media, tus and static files never come here: media and tus bodies stream (and Range counts
// bytes of the identity file), and the built files have .br/.gz twins (src/pages/static.ts).
import { promisify } from 'node:util'
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib'

export type Coding = 'br' | 'gzip' | 'identity'
/** Bytes held in memory (a Response body, zlib's output). */
export type Bytes = Uint8Array<ArrayBuffer>
export type Encoded = Exclude<Coding, 'identity'>
export const ENCODED: readonly Encoded[] = ['br', 'gzip']

/** Below this a compressed answer saves less than a packet, and costs the client a decoder. */
export const MIN_COMPRESS_BYTES = 1024

// Qualities by figures (bench/compress, recorded in bench/README.md: the public list of 47 and
// 235 KB). Stored: brotli q5 is within 2 % of q9 at a third of its time (8 ms for 235 KB, off the
// main thread); q11 is 13 % smaller but ~100× slower (760 ms; seconds for an unpaged list of
// thousands of works), and the first client after each write would wait for it. Per request:
// brotli q1 is 5–8 % larger than q4 at a quarter to a third of its time (0.27 against 1.22 ms
// for 47 KB), and within 4 % of gzip 6 or smaller at a third of its time. gzip 9 is slower than
// 6 and larger on this JSON.
const STORED = { brotliQuality: 5, gzipLevel: 6 }
const LIVE = { brotliQuality: 1, gzipLevel: 6 }

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

const brotliOptions = (quality: number, size: number) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
})

/**
 * `body` in `coding` for a stored answer: off the main thread (node:zlib's callback form runs on
 * Bun's thread pool), so a 200 KB list is encoded while other requests are answered.
 */
export async function encodeStored(body: Bytes, coding: Encoded): Promise<Bytes> {
  return coding === 'br'
    ? brotliAsync(body, brotliOptions(STORED.brotliQuality, body.byteLength))
    : gzipAsync(body, { level: STORED.gzipLevel })
}

/**
 * `body` in `coding` for one answer: on the main thread, which costs less than the thread pool's
 * hand-over (0.28 against 0.46 ms for 16 KB at q4) for the sizes that get here.
 */
export function encodeLive(body: Bytes, coding: Encoded): Bytes {
  return coding === 'br'
    ? brotliCompressSync(body, brotliOptions(LIVE.brotliQuality, body.byteLength))
    : gzipSync(body, { level: LIVE.gzipLevel })
}

const Q_VALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/** The q-value of each coding named in an Accept-Encoding value; malformed members are skipped. */
function acceptedCodings(header: string): Map<string, number> {
  const weights = new Map<string, number>()
  for (const member of header.split(',')) {
    const [name, ...params] = member.split(';')
    let coding = name!.trim().toLowerCase()
    if (!coding) continue
    if (coding === 'x-gzip') coding = 'gzip' // RFC 9110 §8.4.1.3
    let q = 1
    for (const param of params) {
      const [key, value] = param.split('=').map((s) => s.trim())
      if (key?.toLowerCase() !== 'q') continue
      q = value !== undefined && Q_VALUE.test(value) ? Number(value) : Number.NaN
    }
    if (!Number.isNaN(q)) weights.set(coding, Math.max(q, weights.get(coding) ?? 0))
  }
  return weights
}

function choose(header: string | null, offered: readonly Encoded[]): Coding {
  // No header: any coding is allowed, but many clients that omit it decode nothing.
  if (header === null) return 'identity'
  const weights = acceptedCodings(header)
  const any = weights.get('*')
  // Unnamed, identity is acceptable but least preferred; an unnamed coding only through `*`.
  const weight = (coding: Coding) =>
    weights.get(coding) ?? any ?? (coding === 'identity' ? Number.MIN_VALUE : 0)
  // Highest q wins; on a tie the earlier offer (brotli before gzip), then identity.
  let best: Coding = 'identity'
  let bestWeight = 0
  for (const coding of offered) {
    const w = weight(coding)
    if (w > bestWeight) {
      best = coding
      bestWeight = w
    }
  }
  // identity;q=0 with nothing else acceptable still gets identity: a body beats a 406.
  return weight('identity') > bestWeight ? 'identity' : best
}

// Clients send a handful of distinct values (one per browser), so the answer is remembered.
const chosen = new Map<string, Coding>()

/** The coding to answer in, among `offered` (preferred first), for this Accept-Encoding value. */
export function negotiate(
  acceptEncoding: string | null,
  offered: readonly Encoded[] = ENCODED,
): Coding {
  if (acceptEncoding === null) return 'identity'
  const key = offered === ENCODED ? acceptEncoding : `${offered.join()}|${acceptEncoding}`
  let coding = chosen.get(key)
  if (coding === undefined) {
    coding = choose(acceptEncoding, offered)
    if (chosen.size >= 256) chosen.clear()
    chosen.set(key, coding)
  }
  return coding
}

const COMPRESSIBLE = /^\s*(?:application\/(?:[\w.+-]+\+)?json|text\/html|text\/plain)\s*(?:;|$)/i

/** Whether answers of this Content-Type shrink when compressed (JSON, HTML, plain text). */
export function isCompressible(contentType: string | null): boolean {
  return contentType !== null && COMPRESSIBLE.test(contentType)
}

/** Adds Accept-Encoding to a Vary header, keeping what is there (tRPC varies on its own). */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get('vary')
  if (!vary) headers.set('Vary', 'Accept-Encoding')
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) {
    headers.set('Vary', `${vary}, Accept-Encoding`)
  }
}

/** The ETag of an encoded representation: one per coding, so a 304 never crosses encodings. */
export function etagFor(etag: string, coding: Coding): string {
  if (coding === 'identity') return etag
  const suffix = coding === 'br' ? '-br' : '-gz'
  return etag.endsWith('"') ? `${etag.slice(0, -1)}${suffix}"` : `${etag}${suffix}`
}

/** RFC 9110 §13.1.2: If-None-Match names `etag` (weak comparison) or is `*`. */
export function matchesNoneMatch(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const wanted = opaque(etag)
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => opaque(t) === wanted)
}

// Answers whose coding is already settled (stored answers), so the response path leaves them.
const settled = new WeakSet<Response>()

/** Notes that `res` is already in the coding its client asked for. */
export function markEncoded(res: Response): Response {
  settled.add(res)
  return res
}

// Statuses whose answers carry no content of their own, or a part of one.
const NO_CODING = new Set([204, 206, 304])

/**
 * The answer in the coding its client prefers when it is JSON, HTML or text over
 * MIN_COMPRESS_BYTES, held whole in memory. Untouched: HEAD, 204/206/304, answers already
 * encoded or stored, `no-transform`, ranges and streams (a chunked answer, such as tRPC's JSONL,
 * would have to be buffered whole).
 */
export function compressAnswer(req: Request, res: Response): Response | Promise<Response> {
  if (settled.has(res) || req.method === 'HEAD' || NO_CODING.has(res.status) || !res.body) {
    return res
  }
  const headers = res.headers
  if (
    !isCompressible(headers.get('content-type')) ||
    headers.has('content-encoding') ||
    headers.has('content-range') ||
    headers.has('transfer-encoding') ||
    /\bno-transform\b/i.test(headers.get('cache-control') ?? '')
  ) {
    return res
  }
  // Set before the size is known: an identity client's answer must not be stored for others.
  let answer = res
  try {
    varyOnEncoding(headers)
  } catch {
    answer = new Response(res.body, res) // immutable headers (a proxied Response)
    varyOnEncoding(answer.headers)
  }
  const coding = negotiate(req.headers.get('accept-encoding'))
  return coding === 'identity' ? answer : encodeAnswer(answer, coding)
}

async function encodeAnswer(res: Response, coding: Encoded): Promise<Response> {
  const body = new Uint8Array(await res.arrayBuffer())
  const encoded = body.byteLength < MIN_COMPRESS_BYTES ? body : encodeLive(body, coding)
  if (encoded.byteLength >= body.byteLength) return new Response(body, res)
  const headers = new Headers(res.headers)
  headers.set('Content-Encoding', coding)
  headers.delete('Content-Length')
  const etag = headers.get('etag')
  if (etag) headers.set('ETag', etagFor(etag, coding))
  return new Response(encoded, { status: res.status, statusText: res.statusText, headers })
}
