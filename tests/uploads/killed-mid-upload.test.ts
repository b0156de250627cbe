// Against the real server process: a SIGKILL mid-upload loses nothing that tus acknowledged, and
// a streamed multipart upload of hundreds of MB leaves the server's memory flat.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { fixtures } from '../../testkit/media.ts'
import { multipartStream } from '../../testkit/multipart-stream.ts'
import { startServer } from '../../testkit/server.ts'
import { tusRaw, tusUpload } from '../../testkit/tus.ts'

let server: Awaited<ReturnType<typeof startServer>>
let token: string

beforeAll(async () => {
  server = await startServer()
  token = (await server.apiLogin()).token
}, 120_000)
afterAll(() => server.stop())

const sha = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

/** Streams `bytes` as one PATCH, slowly enough that a kill lands in the middle. */
function slowPatch(path: string, offset: number, bytes: Uint8Array) {
  let at = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at >= bytes.length) return controller.close()
      await Bun.sleep(5)
      const end = Math.min(bytes.length, at + 64 * 1024)
      controller.enqueue(bytes.slice(at, end))
      at = end
    },
  })
  return tusRaw(server.url, token)
    .patch(path, offset, body)
    .then((r) => r.status)
    .catch(() => 'dropped' as const)
}

test('SIGKILL mid-upload, restart on the same DATA_DIR, resume: SHA-256 equals the source', async () => {
  const clip = await Bun.file((await fixtures()).mp4).bytes()
  const source = new Uint8Array(24 * 1024 * 1024)
  crypto.getRandomValues(source.subarray(0, 65536))
  source.set(clip)
  const raw = tusRaw(server.url, token)
  const created = await raw.create(source.length, { kind: 'video' })
  expect(created.status).toBe(201)
  const path = created.headers.get('location')!
  let offset = 0
  for (const killAfterMs of [400, 700]) {
    const patch = slowPatch(path, offset, source.subarray(offset))
    await Bun.sleep(killAfterMs)
    await server.kill()
    expect(await patch).toBe('dropped')
    await server.start()
    const head = await tusRaw(server.url, token).head(path)
    expect(head.status).toBe(200)
    const resumeAt = Number(head.headers.get('upload-offset'))
    expect(resumeAt).toBeGreaterThan(offset)
    expect(resumeAt).toBeLessThan(source.length)
    offset = resumeAt
  }
  // tus-js-client finishes from the server's offset, as the dashboard would after a reconnect.
  const done = await tusUpload(Buffer.from(source), {
    endpoint: `${server.url}/uploads/`,
    uploadUrl: `${server.url}${path}`,
    token,
    kind: 'video',
    chunkSize: 4 * 1024 * 1024,
  })
  expect(done.aborted).toBe(false)
  const id = path.split('/').pop()!
  const stored = await Bun.file(join(server.dataDir, 'uploads', id)).bytes()
  expect(sha(stored)).toBe(sha(source))
}, 120_000)

// The body comes at 40 MB/s, faster than an admin's uplink. At loopback speed Bun 1.4.5 (which
// applies TCP backpressure, oven-sh/bun#36006) measured +127 MB here, mostly garbage not yet
// collected; Bun 1.3.14 buffered the whole body. Buffering it in the handler would add all
// 300 MB.
test('a streamed multipart upload of 300 MB keeps server memory flat', async () => {
  const fixturePaths = await fixtures()
  const head = await Bun.file(fixturePaths.mp4).bytes()
  const size = 300 * 1024 * 1024
  const { body, contentType, length } = multipartStream(
    [
      { name: 'title', value: 'Large streamed upload' },
      { name: 'description', value: 'memory check' },
      { name: 'video', filename: 'big.mp4', head, size },
      {
        name: 'thumbnail',
        filename: 't.jpg',
        head: await Bun.file((await fixtures()).jpg).bytes(),
        size: 2000,
      },
      {
        name: 'brandLogo',
        filename: 'l.png',
        head: await Bun.file((await fixtures()).png).bytes(),
        size: 2000,
      },
    ],
    40 * 1024 * 1024,
  )
  // A small upload first, so start-up costs (JIT, the embedded database's buffers) are not
  // counted as growth.
  const warm = await fetch(`${server.url}/api/videos/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: (() => {
      const form = new FormData()
      form.append('title', 'Warm-up')
      form.append('video', new Blob([head]), 'v.mp4')
      form.append('thumbnail', Bun.file(fixturePaths.jpg), 't.jpg')
      form.append('brandLogo', Bun.file(fixturePaths.png), 'l.png')
      return form
    })(),
  })
  expect(warm.status).toBe(201)
  const before = await server.rss()
  let peak = before
  const sampler = setInterval(async () => {
    peak = Math.max(peak, await server.rss().catch(() => 0))
  }, 25)
  const res = await fetch(`${server.url}/api/videos/upload`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': contentType,
      'content-length': String(length),
    },
    body,
  })
  clearInterval(sampler)
  const json = (await res.json()) as { data: { video: { videoUrl: string } } }
  expect(res.status).toBe(201)
  const stored = await fetch(`${server.url}${json.data.video.videoUrl}`, { method: 'HEAD' })
  expect(Number(stored.headers.get('content-length'))).toBe(size)
  // Buffering would add ~300 MB; a generous bound (the machine may be busy) that still catches it.
  console.log(
    `server RSS growth during a 300 MB multipart upload: ${((peak - before) / 1e6).toFixed(1)} MB`,
  )
  expect(peak - before).toBeLessThan(160 * 1024 * 1024)
}, 120_000)
