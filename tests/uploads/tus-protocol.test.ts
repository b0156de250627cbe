// The tus 1.0.0 protocol (https://tus.io/protocols/resumable-upload), section by section, against
// the real server over TCP: every MUST and SHOULD of the core protocol and of each extension the
// endpoint advertises. Each test names the section it checks.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { limits } from '../../src/contract/limits.ts'
import { msg } from '../../src/contract/messages.ts'
import { fixtures } from '../../testkit/media.ts'
import { type E2EServer, startServer } from '../../testkit/server.ts'
import { patchAndDrop, patchAndStall } from '../../testkit/tus.ts'

let server: E2EServer
let token: string
let png: Uint8Array<ArrayBuffer>
let mp4: Uint8Array<ArrayBuffer>

beforeAll(async () => {
  server = await startServer()
  token = (await server.apiLogin()).token
  const f = await fixtures()
  png = new Uint8Array(await Bun.file(f.png).arrayBuffer())
  const clip = await Bun.file(f.mp4).bytes()
  mp4 = new Uint8Array(2 * 1024 * 1024)
  mp4.set(clip)
  mp4.set(crypto.getRandomValues(new Uint8Array(65536)), clip.length)
}, 120_000)
afterAll(() => server?.stop(), 60_000)

const OCTETS = 'application/offset+octet-stream'
const b64 = (text: string) => Buffer.from(text).toString('base64')
const meta = (entries: Record<string, string>) =>
  Object.entries(entries)
    .map(([key, value]) => `${key} ${b64(value)}`)
    .join(',')

type Send = { headers?: Record<string, string>; body?: BodyInit; token?: string | null }

/** One request as a tus client sends it: Tus-Resumable 1.0.0 and the admin's token unless told. */
function send(method: string, path: string, { headers = {}, body, token: t = token }: Send = {}) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: {
      'Tus-Resumable': '1.0.0',
      ...(t ? { Authorization: `Bearer ${t}` } : {}),
      ...headers,
    },
    body,
  })
}

async function create(length: number | null, metadata = meta({ kind: 'thumbnail' })) {
  const res = await send('POST', '/uploads/', {
    headers: {
      ...(length === null ? { 'Upload-Defer-Length': '1' } : { 'Upload-Length': String(length) }),
      'Upload-Metadata': metadata,
    },
  })
  expect(res.status).toBe(201)
  return res.headers.get('location')!
}

const patch = (
  path: string,
  offset: number,
  body: BodyInit,
  headers: Record<string, string> = {},
) =>
  send('PATCH', path, {
    headers: { 'Upload-Offset': String(offset), 'Content-Type': OCTETS, ...headers },
    body,
  })

const offsetOf = async (path: string) =>
  Number((await send('HEAD', path)).headers.get('upload-offset'))

const uploadFiles = () => readdir(join(server.dataDir, 'uploads'))

/** Moves an upload's creation 25 h into the past, as if a day had gone by. */
async function age(path: string) {
  const record = join(server.dataDir, 'uploads', `${path.split('/').pop()}.json`)
  const info = await Bun.file(record).json()
  info.creation_date = new Date(Date.now() - 25 * 3600 * 1000).toISOString()
  await Bun.write(record, JSON.stringify(info))
}

describe('tus 1.0.0 core protocol', () => {
  test('Headers › Tus-Resumable: every answer carries 1.0.0, refusals and errors too', async () => {
    const path = await create(png.length)
    const big = await create(mp4.length, meta({ kind: 'video' }))
    const answers: Record<string, Response> = {
      'OPTIONS 204': await send('OPTIONS', '/uploads/', { token: null }),
      'POST 201': await send('POST', '/uploads/', {
        headers: { 'Upload-Length': '10', 'Upload-Metadata': meta({ kind: 'thumbnail' }) },
      }),
      'HEAD 200': await send('HEAD', path),
      'PATCH 204': await patch(path, 0, png.slice(0, 10)),
      'POST 400': await send('POST', '/uploads/', { headers: { 'Upload-Length': 'x' } }),
      'HEAD 401': await send('HEAD', path, { token: null }),
      'PATCH 401': await patch(path, 10, png.slice(10, 20), { Authorization: 'Bearer nope' }),
      'HEAD 404': await send('HEAD', `/uploads/${'0'.repeat(32)}`),
      'HEAD 404 deeper path': await send('HEAD', `${path}/more`),
      'PATCH 409': await patch(path, 0, png.slice(0, 10)),
      'HEAD 412': await send('HEAD', path, { headers: { 'Tus-Resumable': '0.2.2' } }),
      'PATCH 413': await patch(path, 10, new Uint8Array(png.length)),
      'PATCH 415': await patch(path, 10, png.slice(10, 20), { 'Content-Type': 'text/plain' }),
      'PATCH 415 finished': await patch(big, 0, new Uint8Array(mp4.length)),
      'DELETE 204': await send('DELETE', path),
      'DELETE 404': await send('DELETE', path),
    }
    for (const [name, res] of Object.entries(answers)) {
      expect([name, res.status, res.headers.get('tus-resumable')]).toEqual([
        name,
        Number(name.split(' ')[1]),
        '1.0.0',
      ])
    }
  })

  test('Headers › Tus-Resumable: the 429 of a session with 4 uploads at once carries it too', async () => {
    const paths = [] as string[]
    for (let i = 0; i < 5; i++) paths.push(await create(mp4.length, meta({ kind: 'video' })))
    const stalled = await Promise.all(
      paths.slice(0, 4).map((p) => patchAndStall(server.url, p, token, 0, mp4, 64 * 1024)),
    )
    await Bun.sleep(300)
    const fifth = await patch(paths[4]!, 0, mp4.slice(0, 1024))
    expect(fifth.status).toBe(429)
    expect(fifth.headers.get('tus-resumable')).toBe('1.0.0')
    await Promise.all(stalled.map((s) => s.drop()))
  })

  test('Headers › Tus-Resumable: an unsupported or missing version gets 412 with Tus-Version and is not processed', async () => {
    const before = await uploadFiles()
    const path = await create(png.length)
    const after = await uploadFiles()
    for (const version of ['0.2.2', '1.0', '2.0.0', '']) {
      const headers = { 'Tus-Resumable': version }
      const refused = [
        await send('POST', '/uploads/', {
          headers: {
            ...headers,
            'Upload-Length': '10',
            'Upload-Metadata': meta({ kind: 'video' }),
          },
        }),
        await send('HEAD', path, { headers }),
        await patch(path, 0, png, headers),
        await send('DELETE', path, { headers }),
      ]
      for (const res of refused) {
        expect([version, res.status, res.headers.get('tus-version')]).toEqual([
          version,
          412,
          '1.0.0',
        ])
      }
    }
    // Nothing was created, written or removed.
    expect((await uploadFiles()).length).toBe(after.length)
    expect(after.length).toBe(before.length + 2)
    expect(await offsetOf(path)).toBe(0)
  })

  test('Headers › Upload-Offset and Upload-Length: anything but a non-negative integer gets 400', async () => {
    const path = await create(png.length)
    for (const bad of ['-1', 'abc', '1.5', '']) {
      const created = await send('POST', '/uploads/', {
        headers: { 'Upload-Length': bad, 'Upload-Metadata': meta({ kind: 'thumbnail' }) },
      })
      expect([bad, created.status]).toEqual([bad, 400])
      expect([bad, (await patch(path, 0, png, { 'Upload-Offset': bad })).status]).toEqual([
        bad,
        400,
      ])
    }
    expect(await offsetOf(path)).toBe(0)
  })

  test('Headers › X-HTTP-Method-Override: a POST carrying PATCH, HEAD or DELETE is that request', async () => {
    const path = await create(png.length)
    const override = (method: string, headers: Record<string, string> = {}, body?: BodyInit) =>
      send('POST', path, { headers: { 'X-HTTP-Method-Override': method, ...headers }, body })

    const patched = await override(
      'PATCH',
      { 'Upload-Offset': '0', 'Content-Type': OCTETS },
      png.slice(0, 100),
    )
    expect(patched.status).toBe(204)
    expect(patched.headers.get('upload-offset')).toBe('100')

    const head = await override('HEAD')
    expect(head.status).toBe(200)
    expect(head.headers.get('upload-offset')).toBe('100')
    expect(head.headers.get('upload-length')).toBe(String(png.length))

    // The overridden method's session rule: a HEAD or DELETE needs the signed-in creator.
    const anonymous = await send('POST', path, {
      headers: { 'X-HTTP-Method-Override': 'DELETE' },
      token: null,
    })
    expect(anonymous.status).toBe(401)
    expect((await send('HEAD', path)).status).toBe(200)

    const deleted = await override('DELETE')
    expect(deleted.status).toBe(204)
    expect((await send('HEAD', path)).status).toBe(404)

    const unknown = await send('POST', '/uploads/', {
      headers: { 'X-HTTP-Method-Override': 'GET' },
    })
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toContain('X-HTTP-Method-Override must be one of')
  })

  test('Headers › X-HTTP-Method-Override: whatever the actual method, the header is the method', async () => {
    // A GET overridden to OPTIONS is a preflight: no credentials, the same answer as OPTIONS.
    const options = await fetch(`${server.url}/uploads/`, { method: 'OPTIONS' })
    const overridden = await fetch(`${server.url}/uploads/`, {
      headers: { 'X-HTTP-Method-Override': 'OPTIONS' },
    })
    expect(overridden.status).toBe(204)
    const tusHeaders = (res: Response) =>
      ['tus-version', 'tus-extension', 'tus-max-size', 'tus-checksum-algorithm'].map((name) =>
        res.headers.get(name),
      )
    expect(tusHeaders(overridden)).toEqual(tusHeaders(options))
    expect(tusHeaders(overridden)[0]).toBe('1.0.0')

    // A GET overridden to HEAD is that upload's HEAD, for its creator only.
    const path = await create(png.length)
    expect((await patch(path, 0, png.slice(0, 50))).status).toBe(204)
    const head = await send('GET', path, { headers: { 'X-HTTP-Method-Override': 'HEAD' } })
    expect([head.status, head.headers.get('upload-offset')]).toEqual([200, '50'])
    const headAnonymous = await send('GET', path, {
      headers: { 'X-HTTP-Method-Override': 'HEAD' },
      token: null,
    })
    expect(headAnonymous.status).toBe(401)

    // A PUT overridden to PATCH sends its bytes as one.
    const put = await send('PUT', path, {
      headers: {
        'X-HTTP-Method-Override': 'PATCH',
        'Upload-Offset': '50',
        'Content-Type': OCTETS,
      },
      body: png.slice(50, 120),
    })
    expect([put.status, put.headers.get('upload-offset')]).toEqual([204, '120'])

    // An OPTIONS overridden to DELETE is a termination, and needs a signed-in admin like one.
    const anonymous = await fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: { 'Tus-Resumable': '1.0.0', 'X-HTTP-Method-Override': 'DELETE' },
    })
    expect(anonymous.status).toBe(401)
    expect(await offsetOf(path)).toBe(120)
    const terminated = await send('OPTIONS', path, {
      headers: { 'X-HTTP-Method-Override': 'DELETE' },
    })
    expect(terminated.status).toBe(204)
    expect((await send('HEAD', path)).status).toBe(404)

    // A DELETE overridden to something tus has no use for is refused, and deletes nothing.
    const kept = await create(png.length)
    const refused = await send('DELETE', kept, { headers: { 'X-HTTP-Method-Override': 'GET' } })
    expect(refused.status).toBe(400)
    expect((await send('HEAD', kept)).status).toBe(200)
  })

  test('Headers › X-HTTP-Method-Override: a value that is no tus method is 400 on a GET as on any method; a GET without it stays 404', async () => {
    const path = await create(png.length)
    for (const [method, value] of [
      ['GET', 'GET'],
      ['GET', 'PUT'],
      ['GET', 'patch'],
      ['POST', 'GET'],
    ]) {
      const res = await send(method!, path, { headers: { 'X-HTTP-Method-Override': value! } })
      expect([method, value, res.status]).toEqual([method, value, 400])
      expect(await res.text()).toContain('X-HTTP-Method-Override must be one of')
      expect(res.headers.get('tus-resumable')).toBe('1.0.0')
    }
    // The same on the endpoint itself, and before the sign-in rule (as every other refusal of it).
    const anonymous = await send('GET', '/uploads/', {
      headers: { 'X-HTTP-Method-Override': 'GET' },
      token: null,
    })
    expect(anonymous.status).toBe(400)
    // A tus method naming the method that carries it is that method.
    const head = await send('HEAD', path, { headers: { 'X-HTTP-Method-Override': 'HEAD' } })
    expect([head.status, head.headers.get('upload-offset')]).toEqual([200, '0'])
    // A plain GET is no tus request: 404.
    expect((await send('GET', path)).status).toBe(404)
    expect(await offsetOf(path)).toBe(0)
  })

  test('Requests › HEAD: Upload-Offset always (0, partial, complete), Upload-Length when known, Cache-Control: no-store', async () => {
    const path = await create(png.length)
    const offsets: string[] = []
    for (const sent of [0, 100, png.length]) {
      if (sent > 0) {
        const from = await offsetOf(path)
        expect((await patch(path, from, png.slice(from, sent))).status).toBe(204)
      }
      const head = await send('HEAD', path)
      expect(head.status).toBe(200)
      expect(head.headers.get('upload-length')).toBe(String(png.length))
      expect(head.headers.get('cache-control')).toBe('no-store')
      offsets.push(head.headers.get('upload-offset')!)
    }
    expect(offsets).toEqual(['0', '100', String(png.length)])
  })

  test('Requests › HEAD: an upload that is not there gets 404 without Upload-Offset', async () => {
    for (const path of [
      `/uploads/${'a'.repeat(32)}`,
      '/uploads/not-an-id',
      '/uploads/%2E%2E%2Fetc',
    ]) {
      const head = await send('HEAD', path)
      expect([path, head.status, head.headers.has('upload-offset')]).toEqual([path, 404, false])
    }
  })

  test('Requests › PATCH: 204 with the new offset, the old one plus the bytes received', async () => {
    const path = await create(png.length)
    const first = await patch(path, 0, png.slice(0, 50))
    expect(first.status).toBe(204)
    expect(first.headers.get('upload-offset')).toBe('50')
    const rest = await patch(path, 50, png.slice(50))
    expect(rest.status).toBe(204)
    expect(rest.headers.get('upload-offset')).toBe(String(png.length))
  })

  test('Requests › PATCH: without Content-Type application/offset+octet-stream it gets 415 and nothing is stored', async () => {
    const path = await create(png.length)
    for (const type of [null, 'application/octet-stream', 'text/plain', 'multipart/form-data']) {
      const headers: Record<string, string> = { 'Upload-Offset': '0' }
      if (type) headers['Content-Type'] = type
      const res = await send('PATCH', path, { headers, body: png })
      expect([type, res.status]).toEqual([type, 415])
    }
    expect(await offsetOf(path)).toBe(0)
  })

  test('Requests › PATCH: an Upload-Offset other than the current one gets 409 and changes nothing', async () => {
    const path = await create(png.length)
    expect((await patch(path, 0, png.slice(0, 64))).status).toBe(204)
    for (const wrong of [0, 32, 65, 10_000]) {
      expect((await patch(path, wrong, png.slice(0, 16))).status).toBe(409)
    }
    expect(await offsetOf(path)).toBe(64)
  })

  test('Requests › PATCH: an upload that does not exist gets 404', async () => {
    expect((await patch(`/uploads/${'b'.repeat(32)}`, 0, png)).status).toBe(404)
    const path = await create(png.length)
    await send('DELETE', path)
    expect((await patch(path, 0, png)).status).toBe(404)
  })

  test('Requests › PATCH: a connection cut mid-body keeps what arrived', async () => {
    const path = await create(mp4.length, meta({ kind: 'video' }))
    const file = join(server.dataDir, 'uploads', path.split('/').pop()!)
    await patchAndDrop(server.url, path, token, 0, mp4, 1024 * 1024, file)
    const offset = await offsetOf(path)
    expect(offset).toBeGreaterThan(0)
    expect(offset).toBeLessThanOrEqual(1024 * 1024)
    expect((await patch(path, offset, mp4.slice(offset))).status).toBe(204)
  })

  test('Requests › OPTIONS: 204 with Tus-Version, Tus-Extension and Tus-Max-Size; its Tus-Resumable is ignored', async () => {
    for (const headers of [{}, { 'Tus-Resumable': '0.2.2' }] as Record<string, string>[]) {
      const res = await fetch(`${server.url}/uploads/`, { method: 'OPTIONS', headers })
      expect(res.status).toBe(204)
      expect(res.headers.get('tus-version')).toBe('1.0.0')
      expect(res.headers.get('tus-extension')?.split(',').sort()).toEqual([
        'checksum',
        'creation',
        'creation-defer-length',
        'creation-with-upload',
        'expiration',
        'termination',
      ])
      // The largest of the per-kind limits: the video's.
      expect(res.headers.get('tus-max-size')).toBe(String(limits.videoBytes))
    }
  })
})

describe('tus 1.0.0 extensions', () => {
  test('Creation: a POST with Upload-Length gets 201 and a Location; the upload starts at offset 0', async () => {
    const res = await send('POST', '/uploads/', {
      headers: {
        'Upload-Length': String(png.length),
        'Upload-Metadata': meta({ kind: 'thumbnail' }),
      },
    })
    expect(res.status).toBe(201)
    const location = res.headers.get('location')!
    expect(location).toMatch(/^\/uploads\/[0-9a-f]{32}$/)
    expect(await offsetOf(location)).toBe(0)
  })

  test('Creation: HEAD returns Upload-Metadata byte for byte as sent, a client key named owner included', async () => {
    const sent = [
      `zeta ${b64('last letter')}`,
      `kind ${b64('thumbnail')}`,
      'flag',
      `owner ${b64('someone else')}`,
      `1 ${b64('a numeric key')}`,
      `filename ${b64('Café logo.png')}`,
      `filetype ${b64('image/png')}`,
    ].join(',')
    const path = await create(png.length, sent)
    expect((await send('HEAD', path)).headers.get('upload-metadata')).toBe(sent)
    // The client's owner key names nobody: the upload is still its creator's to finish.
    expect((await patch(path, 0, png)).status).toBe(204)
    expect((await send('HEAD', path)).headers.get('upload-metadata')).toBe(sent)
  })

  test('Creation: neither Upload-Length nor Upload-Defer-Length, or Upload-Defer-Length other than 1, gets 400', async () => {
    const before = await uploadFiles()
    const kind = { 'Upload-Metadata': meta({ kind: 'thumbnail' }) }
    for (const headers of [
      kind,
      { ...kind, 'Upload-Defer-Length': '0' },
      { ...kind, 'Upload-Defer-Length': 'yes' },
      { ...kind, 'Upload-Defer-Length': '1', 'Upload-Length': '10' },
    ]) {
      expect((await send('POST', '/uploads/', { headers })).status).toBe(400)
    }
    expect(await uploadFiles()).toEqual(before)
  })

  test('Creation: invalid Upload-Metadata, or a missing or unknown kind, gets 400', async () => {
    const before = await uploadFiles()
    for (const metadata of [
      'kind !!!',
      `kind ${b64('video')},kind ${b64('thumbnail')}`,
      `filename ${b64('a.png')}`,
      `kind ${b64('poster')}`,
    ]) {
      const res = await send('POST', '/uploads/', {
        headers: { 'Upload-Length': '10', 'Upload-Metadata': metadata },
      })
      expect([metadata, res.status]).toEqual([metadata, 400])
    }
    expect(await uploadFiles()).toEqual(before)
  })

  test('Creation: a length over Tus-Max-Size or over the kind’s limit gets 413 with the size message', async () => {
    const before = await uploadFiles()
    for (const [kind, length, message] of [
      ['video', limits.videoBytes + 1, msg.videoSize],
      ['thumbnail', limits.thumbnailBytes + 1, msg.thumbnailSize],
      ['brandLogo', limits.brandLogoBytes + 1, msg.brandLogoSize],
    ] as const) {
      const res = await send('POST', '/uploads/', {
        headers: { 'Upload-Length': String(length), 'Upload-Metadata': meta({ kind }) },
      })
      expect([kind, res.status, await res.text()]).toEqual([kind, 413, message])
    }
    expect(await uploadFiles()).toEqual(before)
  })

  test('Creation With Upload: the POST body is stored and Upload-Offset says how much', async () => {
    const res = await send('POST', '/uploads/', {
      headers: {
        'Upload-Length': String(png.length),
        'Upload-Metadata': meta({ kind: 'thumbnail' }),
        'Content-Type': OCTETS,
      },
      body: png.slice(0, 40),
    })
    expect(res.status).toBe(201)
    expect(res.headers.get('upload-offset')).toBe('40')
    const path = res.headers.get('location')!
    expect(await offsetOf(path)).toBe(40)
    expect((await patch(path, 40, png.slice(40))).status).toBe(204)
  })

  test('Creation Defer Length: HEAD says Upload-Defer-Length: 1 until a PATCH declares Upload-Length', async () => {
    const path = await create(null, meta({ kind: 'thumbnail' }))
    const deferred = await send('HEAD', path)
    expect(deferred.headers.get('upload-defer-length')).toBe('1')
    expect(deferred.headers.has('upload-length')).toBe(false)
    expect((await patch(path, 0, png.slice(0, 100))).status).toBe(204)
    const last = await patch(path, 100, png.slice(100), { 'Upload-Length': String(png.length) })
    expect(last.status).toBe(204)
    expect(last.headers.get('upload-offset')).toBe(String(png.length))
    const done = await send('HEAD', path)
    expect(done.headers.get('upload-length')).toBe(String(png.length))
    expect(done.headers.has('upload-defer-length')).toBe(false)
  })

  test('Creation Defer Length: the kind’s limit holds as bytes arrive and when the length is declared (413, the kind’s message)', async () => {
    const limit = limits.thumbnailBytes
    // Declared past the limit.
    const declared = await create(null)
    expect((await patch(declared, 0, png.slice(0, 10))).status).toBe(204)
    const tooLong = await patch(declared, 10, new Uint8Array(0), {
      'Upload-Length': String(limit + 1),
    })
    expect([tooLong.status, await tooLong.text()]).toEqual([413, msg.thumbnailSize])
    expect((await send('HEAD', declared)).headers.get('upload-defer-length')).toBe('1')

    // Bytes past the limit, with a Content-Length: refused before any is stored.
    const framed = await create(null)
    const filler = new Uint8Array(limit)
    filler.set(png)
    expect((await patch(framed, 0, filler)).status).toBe(204)
    const over = await patch(framed, limit, new Uint8Array(1))
    expect([over.status, await over.text()]).toEqual([413, msg.thumbnailSize])
    expect(await offsetOf(framed)).toBe(limit)

    // Bytes past the limit without a Content-Length: counted as they come, none of them kept.
    const chunked = await create(null)
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at <= limit; at += 1024 * 1024) {
          controller.enqueue(new Uint8Array(Math.min(1024 * 1024, limit + 1 - at)))
        }
        controller.close()
      },
    })
    const counted = await patch(chunked, 0, stream)
    expect([counted.status, await counted.text()]).toEqual([413, msg.thumbnailSize])
    expect(await offsetOf(chunked)).toBe(0)
  })

  test('Creation Defer Length: a declared length cannot change, nor be less than the offset (400)', async () => {
    const path = await create(null)
    expect((await patch(path, 0, png.slice(0, 100))).status).toBe(204)
    expect((await patch(path, 100, new Uint8Array(0), { 'Upload-Length': '50' })).status).toBe(400)
    const declare = await patch(path, 100, new Uint8Array(0), {
      'Upload-Length': String(png.length),
    })
    expect(declare.status).toBe(204)
    const again = await patch(path, 100, new Uint8Array(0), {
      'Upload-Length': String(png.length + 1),
    })
    expect(again.status).toBe(400)
    expect((await send('HEAD', path)).headers.get('upload-length')).toBe(String(png.length))
  })

  test('Expiration: Upload-Expires (RFC 7231) on the creation and on every PATCH answer, the last one included', async () => {
    const created = await send('POST', '/uploads/', {
      headers: {
        'Upload-Length': String(png.length),
        'Upload-Metadata': meta({ kind: 'thumbnail' }),
      },
    })
    const expires = created.headers.get('upload-expires')!
    // RFC 7231 IMF-fixdate, 24 h after the creation.
    expect(expires).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
    expect(Math.abs(Date.parse(expires) - Date.now() - 24 * 3600 * 1000)).toBeLessThan(60_000)
    const path = created.headers.get('location')!
    const first = await patch(path, 0, png.slice(0, 10))
    const last = await patch(path, 10, png.slice(10))
    expect(last.status).toBe(204)
    expect([first.headers.get('upload-expires'), last.headers.get('upload-expires')]).toEqual([
      expires,
      expires,
    ])
  })

  test('Expiration: an expired upload answers 410 to HEAD and PATCH', async () => {
    const path = await create(png.length)
    expect((await patch(path, 0, png.slice(0, 10))).status).toBe(204)
    await age(path)
    const head = await send('HEAD', path)
    expect([head.status, head.headers.has('upload-offset')]).toEqual([410, false])
    const late = await patch(path, 10, png.slice(10))
    expect(late.status).toBe(410)
    expect(await late.text()).toMatch(/expired/i)
  })

  test('Checksum: sha1 offered; a match is kept, a mismatch gets 460 and an unknown algorithm 400, neither keeping anything', async () => {
    const options = await fetch(`${server.url}/uploads/`, { method: 'OPTIONS' })
    const algorithms = options.headers.get('tus-checksum-algorithm')!.split(',')
    expect(algorithms).toContain('sha1')
    for (const name of algorithms) expect(name).toMatch(/^[\x21-\x40\x5b-\x7e]+$/)

    const path = await create(png.length)
    const sum = (algorithm: string, bytes: Uint8Array) =>
      `${algorithm} ${new Bun.CryptoHasher(algorithm as 'sha1').update(bytes).digest('base64')}`
    const head = png.slice(0, 100)
    const mismatch = await patch(path, 0, head, { 'Upload-Checksum': sum('sha1', png) })
    expect(mismatch.status).toBe(460)
    expect(await offsetOf(path)).toBe(0)
    const unknown = await patch(path, 0, head, { 'Upload-Checksum': 'crc32 AAAAAA==' })
    expect(unknown.status).toBe(400)
    expect(await offsetOf(path)).toBe(0)
    const match = await patch(path, 0, head, { 'Upload-Checksum': sum('sha1', head) })
    expect(match.status).toBe(204)
    expect(match.headers.get('upload-offset')).toBe('100')
  })

  test('Termination: DELETE answers 204 and the upload then answers 404, finished or not', async () => {
    const unfinished = await create(png.length)
    const finished = await create(png.length)
    expect((await patch(finished, 0, png)).status).toBe(204)
    for (const path of [unfinished, finished]) {
      expect((await send('DELETE', path)).status).toBe(204)
      expect((await send('HEAD', path)).status).toBe(404)
      expect((await patch(path, 0, png)).status).toBe(404)
    }
    const id = (path: string) => path.split('/').pop()!
    const left = await uploadFiles()
    expect(
      left.some((name) => name.startsWith(id(unfinished)) || name.startsWith(id(finished))),
    ).toBe(false)
  })
})
