import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseRange, serveObject } from '../../src/media/range.ts'
import { diskStorage } from '../../src/storage/disk.ts'
import type { Storage } from '../../src/storage/types.ts'
import { memoryOf, sampleRss } from '../../testkit/process-memory.ts'

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

// The same answers whether the engine has a local file (sent by Bun) or only streams its bytes:
// the disk engine with its local path withheld is the streamed path an object store takes. One
// difference is Bun's: it drops a Content-Length set on a streamed body and sends it chunked, so
// a streamed 206 carries Content-Range and exactly its bytes, but no Content-Length (HEAD does).
const engines: [string, (storage: Storage) => Storage, boolean][] = [
  ['a local file', (storage) => storage, true],
  ['streamed bytes', (storage) => ({ ...storage, localPath: () => undefined }), false],
]

describe.each(engines)('serveObject over HTTP, from %s', (_, engine, sized) => {
  let dir: string
  const key = `masters/${'c'.repeat(32)}.mp4`
  let bytes: Uint8Array<ArrayBuffer>
  let server: ReturnType<typeof Bun.serve>
  const get = (headers: HeadersInit = {}, method = 'GET', file = key) =>
    fetch(`${server.url}x?k=${encodeURIComponent(file)}`, { headers, method })

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'range-'))
    const storage = engine(diskStorage(join(dir, 'media'), join(dir, 'tmp')))
    bytes = crypto.getRandomValues(new Uint8Array(50_000))
    await storage.write(key, new Response(bytes).body!, { type: 'video/mp4' })
    server = Bun.serve({
      port: 0,
      fetch: (req) =>
        serveObject(req, storage, new URL(req.url).searchParams.get('k')!, 'video/mp4'),
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
    expect(res.headers.get('content-length')).toBe(sized ? '100' : null)
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
    expect((await get({}, 'GET', `masters/${'d'.repeat(32)}.mp4`)).status).toBe(404)
  })
})

describe('a large object streamed without a local file', () => {
  let dir: string
  let server: Bun.Subprocess<'ignore', 'pipe', 'inherit'>
  let url: string
  const key = `streams/${'e'.repeat(32)}/video.mp4`
  const size = 256 * 1024 * 1024

  // The server runs in a process of its own, so its memory is measured apart from the client's
  // (Bun's fetch reads a body ahead of the reader) and from what earlier test files left.
  const serverScript = (root: string) => `
    import { serveObject } from '${join(import.meta.dir, '../../src/media/range.ts')}'
    import { diskStorage } from '${join(import.meta.dir, '../../src/storage/disk.ts')}'
    const disk = diskStorage('${join(root, 'media')}', '${join(root, 'tmp')}')
    const storage = { ...disk, localPath: () => undefined }
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1',
      fetch: (req) => serveObject(req, storage, '${key}', 'video/mp4') })
    console.log(server.url.href)
  `

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'range-large-'))
    const disk = diskStorage(join(dir, 'media'), join(dir, 'tmp'))
    const source = join(dir, 'large.mp4')
    const writer = Bun.file(source).writer()
    const chunk = crypto.getRandomValues(new Uint8Array(1024 * 1024))
    for (let i = 0; i < size / chunk.length; i++) writer.write(chunk)
    await writer.end()
    await disk.write(key, { path: source }, { type: 'video/mp4' })
    await Bun.write(join(dir, 'server.ts'), serverScript(dir))
    server = Bun.spawn([process.execPath, join(dir, 'server.ts')], {
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'inherit',
    })
    const reader = server.stdout.getReader()
    const { value } = await reader.read()
    reader.releaseLock()
    url = new TextDecoder().decode(value).trim()
  }, 60_000)
  afterAll(async () => {
    server?.kill()
    await server?.exited
    await rm(dir, { recursive: true, force: true })
  })

  test('the server keeps a flat memory while it sends a whole 256 MiB object', async () => {
    // A first small read warms the server up: what it keeps for good is not growth.
    await (await fetch(url, { headers: { range: 'bytes=0-1048575' } })).arrayBuffer()
    const before = await memoryOf(server.pid)
    const sampler = sampleRss(server.pid, 20)
    const res = await fetch(url)
    expect(res.status).toBe(200)
    let received = 0
    for await (const part of res.body!) received += part.length
    const peak = Math.max(before, await sampler.stop())
    expect(received).toBe(size)
    console.log(
      `[range] server RSS growth while sending 256 MiB: ${((peak - before) / 2 ** 20).toFixed(0)} MiB`,
    )
    // A few chunks in flight, not the object (a buffering server holds all 256 MiB).
    expect(peak - before).toBeLessThan(96 * 1024 * 1024)
  }, 60_000)
})
