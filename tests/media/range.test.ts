import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseRange, serveFile } from '../../src/media/range.ts'

describe('parseRange', () => {
  const size = 1000
  test.each([
    ['bytes=0-9', { start: 0, end: 9 }],
    ['bytes=500-', { start: 500, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    ['Bytes = 1 - 2', { start: 1, end: 2 }],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=1000-1001', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=5-2', undefined],
    ['bytes=0-1,5-6', undefined],
    ['bytes=-', undefined],
    ['items=0-1', undefined],
    ['bytes=a-b', undefined],
    [null, undefined],
  ] as const)('%p', (header, expected) => {
    expect(parseRange(header, size)).toEqual(expected)
  })
})

describe('serveFile over HTTP', () => {
  let dir: string
  let path: string
  let bytes: Uint8Array<ArrayBuffer>
  let server: ReturnType<typeof Bun.serve>
  const get = (headers: HeadersInit = {}, method = 'GET', file = path) =>
    fetch(`${server.url}x?p=${encodeURIComponent(file)}`, { headers, method })

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'range-'))
    path = join(dir, 'clip.mp4')
    bytes = crypto.getRandomValues(new Uint8Array(50_000))
    await Bun.write(path, bytes)
    server = Bun.serve({
      port: 0,
      fetch: (req) => serveFile(req, new URL(req.url).searchParams.get('p')!, 'video/mp4'),
    })
  })
  afterAll(async () => {
    server.stop(true)
    await rm(dir, { recursive: true, force: true })
  })

  const body = async (res: Response) => new Uint8Array(await res.arrayBuffer())

  test('whole file: 200 with type, nosniff and a year of immutable caching', async () => {
    const res = await get()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('video/mp4')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('accept-ranges')).toBe('bytes')
    expect(await body(res)).toEqual(bytes)
  })

  test('first bytes', async () => {
    const res = await get({ range: 'bytes=0-99' })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-range')).toBe('bytes 0-99/50000')
    expect(res.headers.get('content-length')).toBe('100')
    expect(await body(res)).toEqual(bytes.subarray(0, 100))
  })

  test('a middle slice', async () => {
    const res = await get({ range: 'bytes=20000-29999' })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-range')).toBe('bytes 20000-29999/50000')
    expect(await body(res)).toEqual(bytes.subarray(20000, 30000))
  })

  test('a suffix range', async () => {
    const res = await get({ range: 'bytes=-500' })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-range')).toBe('bytes 49500-49999/50000')
    expect(await body(res)).toEqual(bytes.subarray(49500))
  })

  test('past the end: 416 with the size', async () => {
    const res = await get({ range: 'bytes=50000-' })
    expect(res.status).toBe(416)
    expect(res.headers.get('content-range')).toBe('bytes */50000')
    expect((await body(res)).length).toBe(0)
  })

  test('HEAD gives the lengths without a body', async () => {
    const whole = await get({}, 'HEAD')
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-length')).toBe('50000')
    const part = await get({ range: 'bytes=10-19' }, 'HEAD')
    expect(part.status).toBe(206)
    expect(part.headers.get('content-length')).toBe('10')
    expect(part.headers.get('content-range')).toBe('bytes 10-19/50000')
  })

  test('several ranges or a stale If-Range: the whole file', async () => {
    const multi = await get({ range: 'bytes=0-1,5-6' })
    expect(multi.status).toBe(200)
    expect((await body(multi)).length).toBe(50000)
    const stale = await get({ range: 'bytes=0-1', 'if-range': '"other"' })
    expect(stale.status).toBe(200)
    expect(await body(stale)).toEqual(bytes)
  })

  test('a matching If-Range or If-None-Match', async () => {
    const etag = (await get({}, 'HEAD')).headers.get('etag')!
    const ranged = await get({ range: 'bytes=0-1', 'if-range': etag })
    expect(ranged.status).toBe(206)
    expect((await get({ 'if-none-match': etag })).status).toBe(304)
  })

  test('a missing file: 404', async () => {
    expect((await get({}, 'GET', join(dir, 'gone.mp4'))).status).toBe(404)
  })
})
