// Whole answers kept as bytes while their source has not changed. Video reads are frequent and
// change only when an admin saves, so a cached answer skips the procedure call and the JSON
// encoding. `version()` is the source's change counter; an ETag lets clients revalidate (304).
// Answers over ~1 KB are also kept in brotli and gzip, each encoded once per entry on first
// demand, with an ETag per encoding, so compression costs nothing per request.
// Callers decide what may be cached and check access before asking (see src/api/routes.ts).
import {
  type Bytes,
  type Encoded,
  encodeStored,
  etagFor,
  isCompressible,
  MIN_COMPRESS_BYTES,
  markEncoded,
  matchesNoneMatch,
  negotiate,
  varyOnEncoding,
} from './compress.ts'

/** One representation of an entry: its bytes and the headers of a 200 and of a 304. */
type Variant = { body: Bytes; headers: Headers; notModified: Headers; etag: string }

type Entry = {
  version: number
  identity: Variant
  /** Whether the answer is worth compressing; then every representation says Vary. */
  varies: boolean
  /** Encodings under way or done, and those done (read without waiting on the hot path). */
  encoding: Partial<Record<Encoded, Promise<Variant>>>
  ready: Partial<Record<Encoded, Variant>>
}

export type AnswerCacheOptions = {
  /** Applied once to a stored answer (e.g. security headers), not on every hit. */
  finish?: (res: Response) => Response
  /** Told of every answer served from a stored one (whose headers `finish` has done). */
  served?: (res: Response) => Response
  maxEntries?: number
  /** Encodes a stored body; replaceable so tests can count the work. */
  encode?: (body: Bytes, coding: Encoded) => Promise<Bytes>
}

export class AnswerCache {
  private entries = new Map<string, Entry>()
  private filling = new Map<string, { version: number; entry: Promise<Entry | undefined> }>()
  private readonly finish: (res: Response) => Response
  private readonly served: (res: Response) => Response
  private readonly maxEntries: number
  private readonly encode: (body: Bytes, coding: Encoded) => Promise<Bytes>

  constructor(
    private readonly version: () => number,
    options: AnswerCacheOptions = {},
  ) {
    this.finish = options.finish ?? ((res) => res)
    this.served = options.served ?? ((res) => res)
    this.maxEntries = options.maxEntries ?? 200
    this.encode = options.encode ?? encodeStored
  }

  async answer(
    key: string,
    req: Request,
    produce: () => Promise<Response>,
    cacheControl = 'private, max-age=0, must-revalidate',
  ): Promise<Response> {
    let entry = this.entries.get(key)
    if (entry?.version !== this.version()) {
      const filled = await this.fill(key, produce, cacheControl)
      if (filled instanceof Response) return filled
      entry = filled
    }
    const coding = entry.varies ? negotiate(req.headers.get('accept-encoding')) : 'identity'
    const chosen =
      coding === 'identity'
        ? entry.identity
        : (entry.ready[coding] ?? (await this.encoded(entry, coding)))
    if (matchesNoneMatch(req.headers.get('if-none-match'), chosen.etag)) {
      return markEncoded(new Response(null, { status: 304, headers: chosen.notModified }))
    }
    return markEncoded(this.served(new Response(chosen.body, { headers: chosen.headers })))
  }

  /**
   * A new entry for `key` from `produce`, or the refusal it answered (not kept). Requests that
   * miss while one is being made wait for it: after a write, a busy list is produced and
   * encoded once, not once per request in flight.
   */
  private async fill(
    key: string,
    produce: () => Promise<Response>,
    cacheControl: string,
  ): Promise<Entry | Response> {
    const current = this.version()
    const inFlight = this.filling.get(key)
    if (inFlight?.version === current) {
      const entry = await inFlight.entry
      if (entry) return entry
    }
    const made = this.make(current, produce, cacheControl)
    const shared = {
      version: current,
      entry: made.then(
        (r) => (r instanceof Response ? undefined : r),
        () => undefined,
      ),
    }
    this.filling.set(key, shared)
    try {
      const entry = await made
      if (entry instanceof Response) return entry
      // Keys come from request URLs: bounded so no client can grow the map at will.
      if (this.entries.size >= this.maxEntries) this.entries.clear()
      this.entries.set(key, entry)
      return entry
    } finally {
      if (this.filling.get(key) === shared) this.filling.delete(key)
    }
  }

  private async make(
    version: number,
    produce: () => Promise<Response>,
    cacheControl: string,
  ): Promise<Entry | Response> {
    const res = this.finish(await produce())
    if (res.status !== 200) return res
    const body = new Uint8Array(await res.arrayBuffer())
    // A Headers object, not pairs: Bun copies one into each Response far faster (bench/api:
    // ~54k against ~40k answers a second on this machine's 2 cores).
    const headers = new Headers(res.headers)
    headers.set('Cache-Control', cacheControl)
    // Streamed answers arrive whole here; what is sent is one body of known length.
    headers.delete('Transfer-Encoding')
    headers.delete('Content-Length')
    const varies =
      body.byteLength >= MIN_COMPRESS_BYTES && isCompressible(res.headers.get('content-type'))
    if (varies) varyOnEncoding(headers)
    const identity = variant(body, headers, `"${Bun.hash(body).toString(36)}"`)
    // Stored under the version read before producing: a write meanwhile makes it stale at once.
    return { version, identity, varies, encoding: {}, ready: {} }
  }

  /** The entry in `coding`, encoded on the first request that asks for it (shared by those in flight). */
  private encoded(entry: Entry, coding: Encoded): Promise<Variant> {
    let pending = entry.encoding[coding]
    if (pending) return pending
    const { body, headers, etag } = entry.identity
    pending = this.encode(body, coding).then(
      (encoded) => {
        // A body that does not shrink is answered as is, to every client.
        let made = entry.identity
        if (encoded.byteLength < body.byteLength) {
          const encodedHeaders = new Headers(headers)
          encodedHeaders.set('Content-Encoding', coding)
          made = variant(encoded, encodedHeaders, etagFor(etag, coding))
        }
        entry.ready[coding] = made
        return made
      },
      () => {
        // A failed encoding is not kept: this request gets identity, the next one tries again.
        delete entry.encoding[coding]
        return entry.identity
      },
    )
    entry.encoding[coding] = pending
    return pending
  }
}

function variant(body: Bytes, headers: Headers, etag: string): Variant {
  headers.set('ETag', etag)
  // RFC 9110 §15.4.5: a 304 carries what a 200 would of Cache-Control, ETag and Vary.
  const notModified = new Headers({ ETag: etag })
  for (const name of ['cache-control', 'vary']) {
    const value = headers.get(name)
    if (value) notModified.set(name, value)
  }
  return { body, headers, notModified, etag }
}
