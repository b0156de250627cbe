// Limits that protect the server (issue: load/fault proof): a stalled upload is dropped and can
// resume; JSON bodies are capped; tRPC batches are bounded.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { fixtures } from '../../testkit/media.ts'
import { type E2EServer, startServer } from '../../testkit/server.ts'
import { tusRaw } from '../../testkit/tus.ts'

let server: E2EServer
let token: string
beforeAll(async () => {
  server = await startServer({ IDLE_TIMEOUT: '2' })
  token = (await server.apiLogin()).token
}, 120_000)
afterAll(() => server?.stop(), 60_000)

test('an upload that stops sending is dropped after the idle timeout and resumes later', async () => {
  const source = new Uint8Array(4 * 1024 * 1024)
  source.set(await Bun.file((await fixtures()).mp4).bytes())
  const created = await tusRaw(server.url, token).create(source.length, { kind: 'video' })
  const path = created.headers.get('location')!
  let sent = false
  const stalled = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true
        controller.enqueue(source.slice(0, 1024 * 1024))
        return
      }
      await new Promise(() => {}) // the client goes silent
    },
  })
  const started = performance.now()
  const outcome = await tusRaw(server.url, token)
    .patch(path, 0, stalled)
    .then((r) => `status ${r.status}`)
    .catch(() => 'dropped')
  const seconds = (performance.now() - started) / 1000
  expect(outcome).toBe('dropped')
  expect(seconds).toBeLessThan(15)
  const head = await tusRaw(server.url, token).head(path)
  const offset = Number(head.headers.get('upload-offset'))
  expect(offset).toBeGreaterThan(0)
  const rest = await tusRaw(server.url, token).patch(path, offset, source.subarray(offset))
  expect(rest.status).toBe(204)
}, 60_000)

test('JSON bodies over 64 KiB are refused with 413 on every non-upload route', async () => {
  const big = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(70 * 1024) })
  for (const path of [
    '/api/auth/login',
    '/api/admins',
    '/api/videos/bulk-delete',
    '/api/videos/check-title',
  ]) {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: big,
    })
    expect([path, res.status]).toEqual([path, 413])
  }
  const trpc = await fetch(`${server.url}/trpc/auth.login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(300 * 1024) }),
  })
  expect(trpc.status).toBe(413)
})

test('a tRPC batch of 11 calls is refused with 400; 10 are answered', async () => {
  const call = (n: number) =>
    fetch(`${server.url}/trpc/${Array(n).fill('videos.stats').join(',')}?batch=1&input=%7B%7D`, {
      headers: { authorization: `Bearer ${token}` },
    })
  expect((await call(11)).status).toBe(400)
  expect((await call(10)).status).toBe(200)
})

test('a session may send 4 uploads at once; the 5th gets a clear 429 and may retry later', async () => {
  const head = await Bun.file((await fixtures()).mp4).bytes()
  const size = 2 * 1024 * 1024
  const paths: string[] = []
  for (let i = 0; i < 5; i++) {
    const created = await tusRaw(server.url, token).create(size, { kind: 'video' })
    paths.push(created.headers.get('location')!)
  }
  const stalledBody = () => {
    let sent = false
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!sent) {
          sent = true
          controller.enqueue(head)
          return
        }
        await new Promise(() => {})
      },
    })
  }
  const inFlight = paths.slice(0, 4).map((p) =>
    tusRaw(server.url, token)
      .patch(p, 0, stalledBody())
      .catch(() => null),
  )
  await Bun.sleep(500)
  const fifth = await tusRaw(server.url, token).patch(paths[4]!, 0, head)
  expect(fifth.status).toBe(429)
  expect(await fifth.text()).toBe('Too many uploads at once. Please wait for one to finish.')
  // Another session of the same admin is not held up.
  const other = (await server.apiLogin()).token
  const created = await tusRaw(server.url, other).create(head.length, { kind: 'video' })
  const free = await tusRaw(server.url, other).patch(created.headers.get('location')!, 0, head)
  expect(free.status).toBe(204)
  await Promise.all(inFlight) // dropped by the idle timeout
  // The server frees a slot once its handler has stored what arrived: a retry soon succeeds.
  let retry = 429
  for (let i = 0; i < 50 && retry === 429; i++) {
    retry = (await tusRaw(server.url, token).patch(paths[4]!, 0, head)).status
    if (retry === 429) await Bun.sleep(100)
  }
  expect(retry).toBe(204)
}, 60_000)
