// The compression module on its own: which coding each Accept-Encoding gets, which answers the
// response path leaves alone, and the answer cache encoding each stored answer once per coding.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import {
  type Bytes,
  compressAnswer,
  type Encoded,
  encodeStored,
  etagFor,
  matchesNoneMatch,
  negotiate,
} from '../../src/http/compress.ts'
import { AnswerCache } from '../../src/http/response-cache.ts'
import { createStaticHandler } from '../../src/pages/static.ts'

const BIG = { items: Array.from({ length: 60 }, (_, i) => ({ id: i, title: `Work number ${i}` })) }
const bigJson = () => Response.json(BIG)
const req = (headers: Record<string, string> = {}, method = 'GET') =>
  new Request('http://x/', { method, headers })
const decode = (bytes: Uint8Array, coding: string | null) =>
  JSON.parse(
    new TextDecoder().decode(
      coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes,
    ),
  )

describe('negotiate (RFC 9110 §12.5.3)', () => {
  test.each([
    [null, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['compress, deflate', 'identity'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, br', 'br'],
    ['gzip;q=1.0, br;q=0.999', 'gzip'],
    ['br;q=0.2, gzip;q=0.8', 'gzip'],
    ['br ; q=0.8 , gzip ; q=0.2', 'br'],
    ['br;q=0', 'identity'],
    ['br;q=0.000, gzip;q=0', 'identity'],
    ['br;q=0.5', 'br'],
    ['br;q=0.5, identity', 'identity'],
    ['identity;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, gzip', 'gzip'],
    ['*;q=0', 'identity'],
    ['*, br;q=0, gzip;q=0', 'identity'],
    ['X-GZIP', 'gzip'],
    ['br;q=2, gzip', 'gzip'],
    ['br;q=abc, gzip;q=0.1', 'gzip'],
    ['br;level=5', 'br'],
    [',,, gzip ,', 'gzip'],
  ] as const)('%p → %p', (header, coding) => {
    expect(negotiate(header)).toBe(coding)
  })

  test('any header value gets an answer, never an exception', () => {
    const token = fc.constantFrom('br', 'gzip', 'x-gzip', 'identity', '*', 'deflate', 'zstd', 'BR')
    const member = fc.oneof(
      fc
        .tuple(token, fc.option(fc.string({ maxLength: 8 })))
        .map(([t, q]) => (q === null ? t : `${t};q=${q}`)),
      fc.string({ maxLength: 20 }),
    )
    fc.assert(
      fc.property(
        fc.array(member, { maxLength: 6 }),
        fc.constantFrom(',', ', ', ' ,'),
        (members, sep) => {
          const header = members.join(sep)
          expect(['br', 'gzip', 'identity']).toContain(negotiate(header))
          expect(typeof matchesNoneMatch(header, '"x"')).toBe('boolean')
        },
      ),
      { numRuns: 2000 },
    )
  })

  test('only the offered codings are chosen', () => {
    expect(negotiate('br, gzip', ['gzip'])).toBe('gzip')
    expect(negotiate('br', ['gzip'])).toBe('identity')
    expect(negotiate('gzip;q=0.1, br', [])).toBe('identity')
  })
})

describe('compressAnswer: what the response path encodes per request', () => {
  test('JSON over 1 KB: in the preferred coding, with Vary, no stale length and a coded ETag', async () => {
    const identity = await (await bigJson()).text()
    for (const coding of ['br', 'gzip'] as const) {
      const original = bigJson()
      original.headers.set('ETag', '"abc"')
      original.headers.set('Content-Length', String(identity.length))
      original.headers.set('Vary', 'trpc-accept, accept')
      const res = await compressAnswer(req({ 'accept-encoding': coding }), original)
      expect(res.headers.get('content-encoding')).toBe(coding)
      expect(res.headers.get('content-length')).toBeNull()
      expect(res.headers.get('vary')).toBe('trpc-accept, accept, Accept-Encoding')
      expect(res.headers.get('etag')).toBe(etagFor('"abc"', coding))
      expect(decode(new Uint8Array(await res.arrayBuffer()), coding)).toEqual(BIG)
    }
  })

  test('status and headers survive: a 404 error body over 1 KB is compressed too', async () => {
    const body = { status: 'error', message: 'x'.repeat(2000) }
    const res = await compressAnswer(
      req({ 'accept-encoding': 'gzip' }),
      Response.json(body, { status: 404, headers: { 'X-Kept': '1' } }),
    )
    expect([res.status, res.headers.get('x-kept'), res.headers.get('content-encoding')]).toEqual([
      404,
      '1',
      'gzip',
    ])
    expect(decode(new Uint8Array(await res.arrayBuffer()), 'gzip')).toEqual(body)
  })

  test('left as they are: HEAD, 206, 304, small, encoded, streamed, ranged, no-transform, media', async () => {
    const accept = { 'accept-encoding': 'br, gzip' }
    const cases: [string, Request, Response][] = [
      ['HEAD', req(accept, 'HEAD'), bigJson()],
      ['small', req(accept), Response.json({ ok: true })],
      ['206', req(accept), new Response(JSON.stringify(BIG), { status: 206 })],
      ['304', req(accept), new Response(null, { status: 304 })],
      [
        'encoded',
        req(accept),
        new Response(gzipSync(JSON.stringify(BIG)), {
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        }),
      ],
      [
        'chunked',
        req(accept),
        new Response(JSON.stringify(BIG), {
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        }),
      ],
      [
        'range',
        req(accept),
        new Response(JSON.stringify(BIG), {
          headers: { 'content-type': 'application/json', 'content-range': 'bytes 0-9/100' },
        }),
      ],
      [
        'no-transform',
        req(accept),
        new Response(JSON.stringify(BIG), {
          headers: { 'content-type': 'application/json', 'cache-control': 'no-transform' },
        }),
      ],
      [
        'video',
        req(accept),
        new Response(new Uint8Array(50_000), { headers: { 'content-type': 'video/mp4' } }),
      ],
      ['identity client', req({ 'accept-encoding': 'identity' }), bigJson()],
    ]
    for (const [name, request, original] of cases) {
      const encodingBefore = original.headers.get('content-encoding')
      const res = await compressAnswer(request, original)
      expect([name, res.headers.get('content-encoding')]).toEqual([name, encodingBefore])
    }
  })

  test('an identity answer that could have been compressed still says Vary', async () => {
    const res = await compressAnswer(req(), bigJson())
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(await res.json()).toEqual(BIG)
  })
})

describe('AnswerCache: compressed forms kept per entry', () => {
  function countingCache(version: () => number) {
    const calls: Encoded[] = []
    const cache = new AnswerCache(version, {
      encode: (body: Bytes, coding: Encoded) => {
        calls.push(coding)
        return encodeStored(body, coding)
      },
    })
    return { cache, calls }
  }

  test('each coding is encoded once per entry, however many clients ask, and in parallel', async () => {
    let version = 1
    let produced = 0
    const { cache, calls } = countingCache(() => version)
    const produce = async () => {
      produced++
      return bigJson()
    }
    const ask = (coding: string) =>
      cache.answer('k', req({ 'accept-encoding': coding }), produce, 'public, max-age=0')
    await Promise.all(Array.from({ length: 20 }, () => ask('br')))
    for (let i = 0; i < 50; i++) {
      for (const coding of ['br', 'gzip', 'gzip, deflate, br', 'identity']) {
        const res = await ask(coding)
        const sent = res.headers.get('content-encoding')
        expect(decode(new Uint8Array(await res.arrayBuffer()), sent)).toEqual(BIG)
      }
    }
    expect(calls.sort()).toEqual(['br', 'gzip'])
    expect(produced).toBe(1)
    // A write makes new bytes: encoded again, once each.
    version = 2
    for (const coding of ['br', 'gzip', 'br']) await ask(coding)
    expect(calls.sort()).toEqual(['br', 'br', 'gzip', 'gzip'])
    expect(produced).toBe(2)
  })

  test('ETags differ per encoding and a 304 answers only the matching one', async () => {
    const { cache } = countingCache(() => 1)
    const ask = (headers: Record<string, string>) =>
      cache.answer('k', req(headers), async () => bigJson())
    const tags = new Map<string, string>()
    for (const coding of ['identity', 'br', 'gzip']) {
      const res = await ask({ 'accept-encoding': coding })
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      tags.set(coding, res.headers.get('etag')!)
    }
    expect(new Set(tags.values()).size).toBe(3)
    for (const [coding, tag] of tags) {
      const same = await ask({ 'accept-encoding': coding, 'if-none-match': tag })
      expect([coding, same.status]).toEqual([coding, 304])
      expect(same.headers.get('vary')).toBe('Accept-Encoding')
      expect(same.headers.get('cache-control')).toBe('private, max-age=0, must-revalidate')
      for (const [other, otherTag] of tags) {
        if (other === coding) continue
        const crossed = await ask({ 'accept-encoding': coding, 'if-none-match': otherTag })
        expect([coding, other, crossed.status]).toEqual([coding, other, 200])
      }
    }
  })

  test('small or incompressible answers are never encoded and do not vary', async () => {
    const { cache, calls } = countingCache(() => 1)
    const small = await cache.answer('s', req({ 'accept-encoding': 'br' }), async () =>
      Response.json({ videos: [] }),
    )
    const image = await cache.answer(
      'i',
      req({ 'accept-encoding': 'br' }),
      async () =>
        new Response(new Uint8Array(10_000), { headers: { 'content-type': 'image/png' } }),
    )
    for (const res of [small, image]) {
      expect(res.headers.get('content-encoding')).toBeNull()
      expect(res.headers.get('vary')).toBeNull()
    }
    expect(calls).toEqual([])
  })

  test('a body that does not shrink is sent as is; a failed encoding is retried later', async () => {
    let fail = true
    const cache = new AnswerCache(() => 1, {
      encode: async (body, coding) => {
        if (fail) throw new Error('encoder down')
        return coding === 'br' ? brotliCompressSync(body) : body
      },
    })
    const ask = (coding: string) =>
      cache.answer('k', req({ 'accept-encoding': coding }), async () => bigJson())
    const failed = await ask('br')
    expect(failed.headers.get('content-encoding')).toBeNull()
    expect(await failed.json()).toEqual(BIG)
    fail = false
    expect((await ask('br')).headers.get('content-encoding')).toBe('br')
    const notSmaller = await ask('gzip')
    expect(notSmaller.headers.get('content-encoding')).toBeNull()
    expect(await notSmaller.json()).toEqual(BIG)
  })
})

describe('static files: build-time twins chosen with q-values honoured', () => {
  let dist: string
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'static-twins-'))
    const html = `<!doctype html><title>x</title>${'<p>studio</p>'.repeat(200)}`
    writeFileSync(join(dist, 'index.html'), html)
    writeFileSync(join(dist, 'index.html.br'), brotliCompressSync(html))
    writeFileSync(join(dist, 'index.html.gz'), gzipSync(html))
  })
  afterAll(() => rmSync(dist, { recursive: true, force: true }))

  test.each([
    ['br, gzip', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.9, br;q=0.1', 'gzip'],
    ['identity', null],
    ['br;q=0, gzip;q=0', null],
  ] as const)('%p → %p', async (accept, coding) => {
    const serve = createStaticHandler(dist)
    const res = await serve(new Request('http://x/', { headers: { 'accept-encoding': accept } }))
    expect(res.headers.get('content-encoding')).toBe(coding)
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
  })
})
