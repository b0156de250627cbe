// A bucket that stops answering (its gateway paused by SIGSTOP, on an S3 engine this test starts
// for itself) never holds a request: a media request answers 503 with Retry-After once the
// bucket has kept silent past its limit (docs/limits.md), a body that stalls half-way ends, a
// write and a tus PATCH give up, and everything works again once the gateway resumes.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { S3Config } from '../../src/config.ts'
import { dropBucket, type PausableEngine, startPausableEngine } from '../../testkit/s3.ts'
import { describeSkipIf } from '../../testkit/skip.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

const MiB = 1024 * 1024
const engine = startPausableEngine()
const skip = 'reason' in engine ? engine.reason : undefined
const name = `${'5a'.repeat(16)}.jpg`
const big = `${'6b'.repeat(16)}.png`
// The limits docs/limits.md gives (src/storage/s3-client.ts): an answer within 10 s, a body that
// moves no byte for 30 s fails. A request may wait its limit and a little more (a loaded
// machine), never much longer.
const BUCKET_LIMITS = { answerMs: 10_000, idleMs: 30_000 }
const SLACK_MS = 5_000

describeSkipIf(skip)('a paused bucket', () => {
  let gateway: PausableEngine
  let bucket: S3Config
  let t: TestApp
  let token: string

  const timed = async <T>(run: () => Promise<T>) => {
    const started = performance.now()
    const value = await run()
    return { value, ms: performance.now() - started }
  }
  const bytes = (n: number, seed: number) => new Uint8Array(n).map((_, i) => (i * 31 + seed) % 251)

  beforeAll(async () => {
    gateway = engine as PausableEngine
    bucket = await gateway.makeBucket()
    t = await startTestApp({
      S3_BUCKET: bucket.bucket,
      S3_ENDPOINT: bucket.endpoint ?? '',
      S3_REGION: bucket.region,
      S3_FORCE_PATH_STYLE: 'true',
    })
    token = await t.login()
    await t.storage.write(`images/${name}`, new Response(bytes(1000, 1)).body!, {
      type: 'image/jpeg',
    })
    await t.storage.write(`images/${big}`, new Response(bytes(48 * MiB, 2)).body!, {
      type: 'image/png',
    })
  }, 120_000)

  afterAll(async () => {
    gateway?.resume()
    await t?.stop()
    if (bucket) await dropBucket(bucket)
    await gateway?.stop()
  }, 120_000)

  test('a media request answers 503 with Retry-After, and plays again once the bucket is back', async () => {
    const before = await t.fetch(`/media/${name}`)
    expect(before.status).toBe(200)
    await before.arrayBuffer()
    gateway.pause()
    try {
      const { value: res, ms } = await timed(() => t.fetch(`/media/${name}`))
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('5')
      expect((await res.json()).message).toBe(
        'The media storage is not answering. Please try again shortly.',
      )
      expect(ms).toBeLessThan(BUCKET_LIMITS.answerMs + SLACK_MS)
      // The health check names the storage as down, and answers too.
      const health = await t.fetch('/healthz')
      expect(health.status).toBe(503)
      expect(JSON.stringify(await health.json())).toContain('storage')
    } finally {
      gateway.resume()
    }
    const after = await t.fetch(`/media/${name}`)
    expect(after.status).toBe(200)
    expect(new Uint8Array(await after.arrayBuffer())).toEqual(bytes(1000, 1))
  }, 60_000)

  test('a body that stalls half-way ends instead of waiting', async () => {
    const res = await t.fetch(`/media/${big}`)
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let got = 0
    while (got < MiB) got += (await reader.read()).value?.length ?? 0
    gateway.pause()
    try {
      const { value: outcome, ms } = await timed(async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read()
            if (done) return 'ended'
            got += value.length
          }
        } catch {
          return 'failed'
        }
      })
      // Whatever was already on its way may arrive; the rest never comes, and the read ends.
      expect(outcome).toBe('failed')
      expect(got).toBeLessThan(48 * MiB)
      expect(ms).toBeLessThan(BUCKET_LIMITS.idleMs + SLACK_MS)
    } finally {
      gateway.resume()
    }
  }, 90_000)

  test('a write gives up with a timeout, and a tus PATCH answers 503', async () => {
    // The upload exists before the pause; its bytes come during it.
    const meta = `kind ${btoa('video')},filename ${btoa('v.mp4')}`
    const tus = (path: string, method: string, headers: Record<string, string>, body?: BodyInit) =>
      t.fetch(path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', ...headers },
        body,
      })
    const created = await tus('/uploads/', 'POST', {
      'upload-length': String(32 * MiB),
      'upload-metadata': meta,
    })
    expect(created.status).toBe(201)
    const upload = new URL(created.headers.get('location')!, 'http://localhost').pathname
    gateway.pause()
    try {
      const write = await timed(() =>
        t.storage
          .write(`images/${'7c'.repeat(16)}.png`, new Response(bytes(20 * MiB, 3)).body!, {
            type: 'image/png',
          })
          .then(
            () => undefined,
            (error: unknown) => error,
          ),
      )
      expect((write.value as Error | undefined)?.name).toBe('StorageTimeoutError')
      expect(write.ms).toBeLessThan(BUCKET_LIMITS.idleMs + BUCKET_LIMITS.answerMs + SLACK_MS)

      const patched = await timed(() =>
        tus(
          upload,
          'PATCH',
          { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          bytes(9 * MiB, 4),
        ),
      )
      expect(patched.value.status).toBe(503)
      await patched.value.arrayBuffer()
      expect(patched.ms).toBeLessThan(BUCKET_LIMITS.idleMs + BUCKET_LIMITS.answerMs + SLACK_MS)
    } finally {
      gateway.resume()
    }
    // Resumed, the upload takes more bytes from where the bucket has them.
    const head = await tus(upload, 'HEAD', {})
    expect(head.status).toBe(200)
    const offset = Number(head.headers.get('upload-offset'))
    const more = await tus(
      upload,
      'PATCH',
      { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      bytes(9 * MiB, 5),
    )
    expect(more.status).toBe(204)
    expect(Number(more.headers.get('upload-offset'))).toBe(offset + 9 * MiB)
  }, 150_000)
})
