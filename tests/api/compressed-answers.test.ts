// Compressed answers (docs/decisions/020-compressed-dynamic-answers.md), as clients see them:
// through the real fetch handler and over a real TCP server with a Node-style client that decodes
// by itself. JSON answers over ~1 KB come as brotli or gzip by Accept-Encoding (q-values honoured)
// with `Vary: Accept-Encoding` and an ETag per encoding; media (Range) and tus traffic pass
// untouched whatever the client accepts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type IncomingHttpHeaders, request } from 'node:http'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { type Fixtures, fixtures } from '../../testkit/media.ts'
import { prepareOutputs, readyServerWorks, readyWorks } from '../../testkit/ready.ts'
import { startServer } from '../../testkit/server.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { bytesOf, form, send, tusVia } from '../../testkit/videos.ts'

// Long enough that the public list (three videos) is well over the 1 KB threshold.
const LONG = 'Score, sound design and the final mix for a brand film. '.repeat(25).trim()
const BOTH = { 'accept-encoding': 'br, gzip' }

function decode(raw: Uint8Array, encoding: string | null | undefined): unknown {
  const bytes =
    encoding === 'br'
      ? brotliDecompressSync(raw)
      : encoding === 'gzip'
        ? gunzipSync(raw)
        : encoding == null
          ? raw
          : (() => {
              throw new Error(`unexpected Content-Encoding ${encoding}`)
            })()
  return JSON.parse(new TextDecoder().decode(bytes))
}

const varyOf = (value: string | null | undefined) =>
  (value ?? '')
    .toLowerCase()
    .split(',')
    .map((v) => v.trim())

// Which coding each Accept-Encoding should get (RFC 9110 §12.5.3): the highest q wins, brotli on
// a tie; q=0 excludes; no header, an empty one or only unknown codings get the identity.
const NEGOTIATED: [string | null, string | null][] = [
  [null, null],
  ['', null],
  ['identity', null],
  ['deflate', null],
  ['br', 'br'],
  ['gzip', 'gzip'],
  ['gzip, deflate, br, zstd', 'br'],
  ['br;q=0.5, gzip', 'gzip'],
  ['BR;Q=0.9, GZIP;Q=0.1', 'br'],
  ['br;q=0, gzip;q=0', null],
  ['br;q=0, gzip', 'gzip'],
  ['*', 'br'],
  ['*;q=0, identity', null],
  ['*, br;q=0', 'gzip'],
  ['x-gzip', 'gzip'],
]

describe('through the fetch handler', () => {
  let t: TestApp
  let f: Fixtures
  let token: string
  let videoUrl: string
  let thumbnailUrl: string
  let firstId: string

  beforeAll(async () => {
    t = await startTestApp()
    f = await fixtures()
    await prepareOutputs(f.mp4)
    token = await t.login()
    for (const title of ['Northern Lights', 'Harbour Session', 'Night Drive']) {
      const made = await send(
        t,
        'POST',
        '/api/videos/upload',
        token,
        form({ title, description: LONG }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
      )
      expect(made.status).toBe(201)
      firstId ??= made.json.data.video._id
      thumbnailUrl = made.json.data.video.thumbnailUrl
    }
    // Visitors see works once their streams exist; the media read here is a work's MP4.
    await readyWorks(t)
    videoUrl = (await t.call('GET', '/api/public/videos')).json.data.videos[0].videoUrl
  }, 120_000)
  afterAll(() => t?.stop(), 60_000)

  const get = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
    const res = await t.fetch(path, { method, headers })
    const raw = new Uint8Array(await res.arrayBuffer())
    return { status: res.status, headers: res.headers, raw }
  }
  const auth = () => ({ authorization: `Bearer ${token}` })

  test('public list: each Accept-Encoding gets its coding, and every one decodes to the same JSON', async () => {
    const plain = await get('/api/public/videos')
    expect(plain.status).toBe(200)
    expect(plain.raw.byteLength).toBeGreaterThan(4096)
    const json = decode(plain.raw, null)
    expect((json as { data: { videos: unknown[] } }).data.videos).toHaveLength(3)
    for (const [accept, coding] of NEGOTIATED) {
      const res = await get(
        '/api/public/videos',
        accept === null ? {} : { 'accept-encoding': accept },
      )
      const encoding = res.headers.get('content-encoding')
      expect([accept, res.status, encoding]).toEqual([accept, 200, coding])
      expect(varyOf(res.headers.get('vary'))).toContain('accept-encoding')
      expect(decode(res.raw, encoding)).toEqual(json)
      if (coding) expect(res.raw.byteLength).toBeLessThan(plain.raw.byteLength / 2)
      expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate')
    }
  })

  test('an ETag per encoding: a 304 only for the representation the client holds', async () => {
    const etags: Record<string, string> = {}
    for (const coding of ['identity', 'br', 'gzip']) {
      const res = await get('/api/public/videos', { 'accept-encoding': coding })
      etags[coding] = res.headers.get('etag')!
    }
    expect(new Set(Object.values(etags)).size).toBe(3)
    for (const [coding, etag] of Object.entries(etags)) {
      const same = await get('/api/public/videos', {
        'accept-encoding': coding,
        'if-none-match': etag,
      })
      expect([coding, same.status, same.raw.byteLength]).toEqual([coding, 304, 0])
      expect(same.headers.get('etag')).toBe(etag)
      expect(same.headers.get('content-encoding')).toBeNull()
      expect(varyOf(same.headers.get('vary'))).toContain('accept-encoding')
      expect(same.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate')
    }
    // A gzip client revalidating with the brotli ETag gets a gzip body, not a 304.
    const other = await get('/api/public/videos', {
      'accept-encoding': 'gzip',
      'if-none-match': etags.br!,
    })
    expect([other.status, other.headers.get('content-encoding')]).toEqual([200, 'gzip'])
    expect(other.headers.get('etag')).toBe(etags.gzip!)
    // A list of tags, or a weak form of the right one, matches (RFC 9110 §13.1.2).
    const listed = await get('/api/public/videos', {
      'accept-encoding': 'br',
      'if-none-match': `"nothing", ${etags.gzip}, W/${etags.br}`,
    })
    expect(listed.status).toBe(304)
  })

  test('cached tRPC reads (public and authed) are compressed with per-encoding ETags', async () => {
    const input = encodeURIComponent(JSON.stringify({ page: 1, limit: 10 }))
    for (const [path, headers] of [
      ['/trpc/videos.publicList', {}],
      [`/trpc/videos.list?input=${input}`, auth()],
    ] as const) {
      const plain = await get(path, headers)
      const br = await get(path, { ...headers, ...BOTH })
      const gz = await get(path, { ...headers, 'accept-encoding': 'gzip' })
      expect([br.headers.get('content-encoding'), gz.headers.get('content-encoding')]).toEqual([
        'br',
        'gzip',
      ])
      expect(decode(br.raw, 'br')).toEqual(decode(plain.raw, null))
      expect(decode(gz.raw, 'gzip')).toEqual(decode(plain.raw, null))
      expect(varyOf(br.headers.get('vary'))).toContain('accept-encoding')
      expect(br.headers.get('etag')).not.toBe(plain.headers.get('etag'))
      expect(br.headers.get('etag')).not.toBe(gz.headers.get('etag'))
      const revalidated = await get(path, {
        ...headers,
        ...BOTH,
        'if-none-match': br.headers.get('etag')!,
      })
      expect(revalidated.status).toBe(304)
    }
  })

  test('uncached JSON over 1 KB is compressed on the fly: admin list, REST and tRPC writes', async () => {
    const list = '/api/videos?page=1&limit=100'
    const plain = await get(list, auth())
    const br = await get(list, { ...auth(), ...BOTH })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(decode(br.raw, 'br')).toEqual(decode(plain.raw, null))
    expect(br.headers.get('cache-control')).toBe('no-store')
    expect(varyOf(br.headers.get('vary'))).toContain('accept-encoding')

    const patched = await t.fetch(`/api/videos/${firstId}`, {
      method: 'PATCH',
      headers: { ...auth(), 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ description: `${LONG} Patched.` }),
    })
    expect([patched.status, patched.headers.get('content-encoding')]).toEqual([200, 'gzip'])
    const body = decode(new Uint8Array(await patched.arrayBuffer()), 'gzip') as {
      data: { video: { description: string } }
    }
    expect(body.data.video.description).toBe(`${LONG} Patched.`)

    const mutation = await t.fetch('/trpc/videos.update', {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', ...BOTH },
      body: JSON.stringify({ id: firstId, description: LONG }),
    })
    expect([mutation.status, mutation.headers.get('content-encoding')]).toEqual([200, 'br'])
    const result = decode(new Uint8Array(await mutation.arrayBuffer()), 'br') as {
      result: { data: { video: { description: string } } }
    }
    expect(result.result.data.video.description).toBe(LONG)
  })

  test('answers under 1 KB and HEAD answers stay as they are', async () => {
    const me = await get('/api/auth/me', { ...auth(), ...BOTH })
    expect(me.status).toBe(200)
    expect(me.raw.byteLength).toBeLessThan(1024)
    expect(me.headers.get('content-encoding')).toBeNull()
    expect(decode(me.raw, null)).toMatchObject({ status: 'success' })
    for (const path of ['/api/public/videos', '/trpc/videos.publicList', '/api/videos']) {
      const head = await get(path, { ...auth(), ...BOTH }, 'HEAD')
      expect([path, head.headers.get('content-encoding')]).toEqual([path, null])
    }
  })

  test('a streamed tRPC batch is neither compressed nor stored for other clients', async () => {
    const batch = `/trpc/videos.publicList?batch=1&input=${encodeURIComponent('{}')}`
    const streamed = await get(batch, { ...BOTH, 'trpc-accept': 'application/jsonl' })
    expect(streamed.status).toBe(200)
    expect(streamed.headers.get('content-encoding')).toBeNull()
    expect(new TextDecoder().decode(streamed.raw).split('\n').length).toBeGreaterThan(2)
    // The next plain client still gets the plain JSON answer, not the stream's lines.
    const plain = await get(batch, BOTH)
    const json = decode(plain.raw, plain.headers.get('content-encoding')) as [
      { result: { data: { videos: unknown[] } } },
    ]
    expect(json[0].result.data.videos).toHaveLength(3)
    // tRPC's own Vary stays beside ours.
    expect(varyOf(plain.headers.get('vary'))).toEqual(
      expect.arrayContaining(['trpc-accept', 'accept', 'accept-encoding']),
    )
  })

  test('/media: whole files and Range answers are byte-exact and never compressed', async () => {
    for (const url of [videoUrl, thumbnailUrl]) {
      const file = await bytesOf(join(t.dataDir, 'media', url.slice('/media/'.length)))
      const whole = await get(url, BOTH)
      expect([whole.status, whole.headers.get('content-encoding')]).toEqual([200, null])
      expect(whole.raw).toEqual(file)
      for (const [range, start, end] of [
        ['bytes=0-99', 0, 99],
        ['bytes=100-', 100, file.length - 1],
        ['bytes=-50', file.length - 50, file.length - 1],
      ] as const) {
        const part = await get(url, { ...BOTH, range })
        expect([range, part.status, part.headers.get('content-encoding')]).toEqual([
          range,
          206,
          null,
        ])
        expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${file.length}`)
        expect(part.raw).toEqual(file.subarray(start, end + 1))
      }
      const head = await get(url, BOTH, 'HEAD')
      expect([head.status, head.headers.get('content-encoding')]).toEqual([200, null])
      expect(head.headers.get('content-length')).toBe(String(file.length))
    }
  })

  test('tus creation, PATCH and HEAD pass untouched with Accept-Encoding: br, gzip', async () => {
    const tus = tusVia(t, token)
    const bytes = await bytesOf(f.jpg)
    const created = await t.fetch('/uploads/', {
      method: 'POST',
      headers: {
        ...auth(),
        ...BOTH,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(bytes.length),
        'Upload-Metadata': `kind ${btoa('thumbnail')}`,
      },
    })
    expect([created.status, created.headers.get('content-encoding')]).toEqual([201, null])
    const path = created.headers.get('location')!
    const tusHeaders = { ...auth(), ...BOTH, 'Tus-Resumable': '1.0.0' }
    const before = await t.fetch(path, { method: 'HEAD', headers: tusHeaders })
    expect([before.status, before.headers.get('upload-offset')]).toEqual([200, '0'])
    expect(before.headers.get('content-encoding')).toBeNull()
    const patched = await t.fetch(path, {
      method: 'PATCH',
      headers: {
        ...tusHeaders,
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
      },
      body: bytes,
    })
    expect([patched.status, patched.headers.get('content-encoding')]).toEqual([204, null])
    expect(patched.headers.get('upload-offset')).toBe(String(bytes.length))
    const after = await tus.head(path)
    expect(after.headers.get('upload-offset')).toBe(String(bytes.length))
  })
})

/** A Node-style client: sends exactly the headers given and hands back the bytes as they came. */
function nodeRequest(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: Uint8Array,
): Promise<{ status: number; headers: IncomingHttpHeaders; raw: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('over TCP (Bun.serve) with a decoding Node client', () => {
  let server: Awaited<ReturnType<typeof startServer>>
  let token: string
  let f: Fixtures
  let videoUrl: string

  beforeAll(async () => {
    f = await fixtures()
    await prepareOutputs(f.mp4)
    server = await startServer()
    token = (await server.apiLogin()).token
    for (const title of ['Coastline', 'Studio B Live', 'Foley Reel']) {
      const body = new FormData()
      body.set('title', title)
      body.set('description', LONG)
      body.set('video', Bun.file(f.mp4), 'clip.mp4')
      body.set('thumbnail', Bun.file(f.jpg), 'thumb.jpg')
      body.set('brandLogo', Bun.file(f.png), 'logo.png')
      const res = await fetch(`${server.url}/api/videos/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body,
      })
      expect(res.status).toBe(201)
    }
    await readyServerWorks(server)
    const list = await (await fetch(`${server.url}/api/public/videos`)).json()
    videoUrl = (list as { data: { videos: { videoUrl: string }[] } }).data.videos[0]!.videoUrl
  }, 120_000)
  afterAll(() => server?.stop(), 60_000)

  test('br and gzip on the wire decode to the identity JSON; Content-Length is the encoded size', async () => {
    const url = `${server.url}/api/public/videos`
    const plain = await nodeRequest(url)
    expect(plain.headers['content-encoding']).toBeUndefined()
    const json = decode(plain.raw, null)
    for (const [accept, coding] of NEGOTIATED) {
      const res = await nodeRequest(url, accept === null ? {} : { 'accept-encoding': accept })
      expect([accept, res.status, res.headers['content-encoding'] ?? null]).toEqual([
        accept,
        200,
        coding,
      ])
      expect(res.headers['content-length']).toBe(String(res.raw.byteLength))
      expect(varyOf(res.headers.vary)).toContain('accept-encoding')
      expect(decode(res.raw, res.headers['content-encoding'])).toEqual(json)
    }
    // A client that decodes for itself (fetch asks for br/gzip/zstd) reads the same JSON.
    expect(await (await fetch(url)).json()).toEqual(json)
  })

  test('a 304 per encoding over the wire', async () => {
    const url = `${server.url}/api/public/videos`
    const br = await nodeRequest(url, { 'accept-encoding': 'br' })
    const gz = await nodeRequest(url, { 'accept-encoding': 'gzip' })
    const brTag = String(br.headers.etag)
    expect(brTag).not.toBe(String(gz.headers.etag))
    const same = await nodeRequest(url, { 'accept-encoding': 'br', 'if-none-match': brTag })
    expect([same.status, same.raw.byteLength]).toEqual([304, 0])
    const other = await nodeRequest(url, { 'accept-encoding': 'gzip', 'if-none-match': brTag })
    expect([other.status, other.headers['content-encoding']]).toEqual([200, 'gzip'])
    expect(decode(other.raw, 'gzip')).toEqual(decode(gz.raw, 'gzip'))
  })

  test('uncached admin JSON over the wire is compressed on the fly and decodes', async () => {
    const url = `${server.url}/api/videos?page=1&limit=100`
    const headers = { authorization: `Bearer ${token}` }
    const plain = await nodeRequest(url, headers)
    const gz = await nodeRequest(url, { ...headers, 'accept-encoding': 'gzip;q=1, br;q=0.2' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(decode(gz.raw, 'gzip')).toEqual(decode(plain.raw, null))
  })

  test('/media Range over the wire: byte-exact 206, never compressed', async () => {
    const url = `${server.url}${videoUrl}`
    const file = await bytesOf(join(server.dataDir, 'media', videoUrl.slice('/media/'.length)))
    const whole = await nodeRequest(url, BOTH)
    expect([whole.status, whole.headers['content-encoding']]).toEqual([200, undefined])
    expect(new Uint8Array(whole.raw)).toEqual(file)
    const part = await nodeRequest(url, { ...BOTH, range: 'bytes=10-1033' })
    expect([part.status, part.headers['content-encoding']]).toEqual([206, undefined])
    expect(part.headers['content-range']).toBe(`bytes 10-1033/${file.length}`)
    expect(new Uint8Array(part.raw)).toEqual(file.subarray(10, 1034))
  })

  test('tus over the wire: create, PATCH and HEAD untouched by Accept-Encoding', async () => {
    const bytes = await bytesOf(f.png)
    const tusHeaders = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', ...BOTH }
    const created = await nodeRequest(
      `${server.url}/uploads/`,
      {
        ...tusHeaders,
        'upload-length': String(bytes.length),
        'upload-metadata': `kind ${btoa('brandLogo')}`,
      },
      'POST',
    )
    expect([created.status, created.headers['content-encoding']]).toEqual([201, undefined])
    const location = new URL(String(created.headers.location), server.url).toString()
    const patched = await nodeRequest(
      location,
      {
        ...tusHeaders,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
      'PATCH',
      bytes,
    )
    expect([patched.status, patched.headers['content-encoding']]).toEqual([204, undefined])
    const head = await nodeRequest(location, tusHeaders, 'HEAD')
    expect([head.status, head.headers['upload-offset'], head.headers['content-encoding']]).toEqual([
      200,
      String(bytes.length),
      undefined,
    ])
  })
})
