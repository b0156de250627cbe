// /metrics on real server processes: not served without METRICS_TOKEN, refused without the right
// bearer token, and with it Prometheus text whose numbers follow what the server did: requests
// by route pattern (never a raw path), bytes uploaded through tus and multipart, jobs by state,
// the queue's lag while a job waits, and how long processed jobs took.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { fixtures } from '../../testkit/media.ts'
import { makeClip } from '../../testkit/pipeline.ts'
import { type E2EServer, startServer } from '../../testkit/server.ts'
import { tusRaw } from '../../testkit/tus.ts'
import { uploadVideo } from '../../testkit/upload.ts'

const TOKEN = 'metrics-token-for-tests-0123456789'
let plain: E2EServer
let server: E2EServer
let token: string
let clips: string
beforeAll(async () => {
  ;[plain, server] = await Promise.all([
    startServer({ MEDIA_WORKERS: '0' }),
    startServer({ METRICS_TOKEN: TOKEN, MEDIA_WORKERS: '1', MEDIA_POLL_SECONDS: '1' }),
  ])
  token = (await server.apiLogin()).token
  clips = await mkdtemp(join(tmpdir(), 'metrics-clips-'))
}, 120_000)
afterAll(async () => {
  await Promise.all([plain?.stop(), server?.stop()])
  await rm(clips, { recursive: true, force: true })
}, 60_000)

const scrape = (on: E2EServer, authorization?: string) =>
  fetch(`${on.url}/metrics`, authorization ? { headers: { authorization } } : {})

async function metrics(): Promise<string> {
  const res = await scrape(server, `Bearer ${TOKEN}`)
  expect(res.status).toBe(200)
  return res.text()
}

/** The value of one series (`name{labels}` exactly as written), or undefined. */
function seriesValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

const authed = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...init.headers },
  })

describe('access', () => {
  test('without METRICS_TOKEN /metrics is not served: 404, whatever is sent', async () => {
    expect((await scrape(plain)).status).toBe(404)
    const res = await scrape(plain, `Bearer ${TOKEN}`)
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ status: 'error', message: 'Not found' })
  }, 30_000)

  test('with it: 401 without a token or with a wrong one, 200 Prometheus text with it', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      `Basic ${btoa(`x:${TOKEN}`)}`,
    ]) {
      const res = await scrape(server, authorization)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Bearer')
      expect(await res.text()).not.toContain('studio_')
    }
    const res = await scrape(server, `Bearer ${TOKEN}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
  }, 30_000)
})

describe('METRICS_TOKEN', () => {
  test('unset or empty: none; shorter than 16 characters: start-up stops saying so', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined()
    expect(loadConfig({ METRICS_TOKEN: ' ' }).metricsToken).toBeUndefined()
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN)
    expect(() => loadConfig({ METRICS_TOKEN: 'short-token' })).toThrow(
      new ConfigError('Invalid configuration: METRICS_TOKEN must be at least 16 characters'),
    )
  })
})

describe('what the numbers say', () => {
  test('requests are counted by route pattern, never by raw path', async () => {
    const id = '0b7f0f5e-8d3c-4d7e-9a51-2f9d3c1e7a11'
    const before = await metrics()
    const series = (route: string, status: number) =>
      `studio_http_request_duration_seconds_count{method="GET",route="${route}",status="${status}"}`
    const count = (text: string, route: string, status: number) =>
      seriesValue(text, series(route, status)) ?? 0
    expect((await authed(`/api/videos/${id}`)).status).toBe(404)
    expect((await fetch(`${server.url}/media/${'a'.repeat(32)}.mp4`)).status).toBe(404)
    expect((await authed('/trpc/auth.me')).status).toBe(200)
    expect((await fetch(`${server.url}/some/page/${id}`)).status).toBe(404)
    const after = await metrics()
    expect(count(after, '/api/videos/:id', 404)).toBe(count(before, '/api/videos/:id', 404) + 1)
    expect(count(after, '/media', 404)).toBe(count(before, '/media', 404) + 1)
    expect(count(after, '/trpc/auth.me', 200)).toBe(count(before, '/trpc/auth.me', 200) + 1)
    expect(count(after, 'static', 404)).toBe(count(before, 'static', 404) + 1)
    expect(after).toContain('# TYPE studio_http_request_duration_seconds histogram')
    expect(after).not.toContain(id)
  }, 30_000)

  test('bytes uploaded through tus and multipart are counted as they reach the disk', async () => {
    const f = await fixtures()
    const tusBefore = seriesValue(await metrics(), 'studio_uploaded_bytes_total{path="tus"}') ?? 0
    const jpg = await Bun.file(f.jpg).bytes()
    const tus = tusRaw(server.url, token)
    const created = await tus.create(jpg.length, { kind: 'thumbnail', filename: 'thumb.jpg' })
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!
    expect((await tus.patch(location, 0, jpg.subarray(0, 100))).status).toBe(204)
    expect((await tus.patch(location, 100, jpg.subarray(100))).status).toBe(204)
    const afterTus = await metrics()
    expect(seriesValue(afterTus, 'studio_uploaded_bytes_total{path="tus"}')).toBe(
      tusBefore + jpg.length,
    )

    const multipartBefore =
      seriesValue(afterTus, 'studio_uploaded_bytes_total{path="multipart"}') ?? 0
    await uploadVideo(server.url, token, 'Counted', f)
    const sizes = [f.mp4, f.jpg, f.png].map((p) => Bun.file(p).size)
    expect(seriesValue(await metrics(), 'studio_uploaded_bytes_total{path="multipart"}')).toBe(
      multipartBefore + sizes.reduce((a, b) => a + b, 0),
    )
  }, 60_000)

  test('jobs by state and the lag of a waiting job while the one worker is busy; durations once done', async () => {
    const f = await fixtures()
    const long = await makeClip(clips, 'long.mp4', { seconds: 6, width: 640, height: 360 })
    await uploadVideo(server.url, token, 'Long', { ...f, mp4: long })
    await uploadVideo(server.url, token, 'Waiting', f)
    // One worker: while the long one runs, the other waits, and its wait is the lag.
    let text = ''
    const deadline = Date.now() + 30_000
    for (;;) {
      text = await metrics()
      const active = seriesValue(text, 'studio_media_jobs{queue="media",state="active"}')
      const waiting = seriesValue(text, 'studio_media_jobs{queue="media",state="created"}') ?? 0
      const lag = seriesValue(text, 'studio_media_queue_lag_seconds{queue="media"}') ?? 0
      if (active === 1 && waiting >= 1 && lag > 0.2) break
      if (Date.now() > deadline)
        throw new Error(`no job seen waiting behind a running one:\n${text}`)
      await Bun.sleep(100)
    }
    // Then every job completes and nothing waits.
    const done = Date.now() + 90_000
    for (;;) {
      text = await metrics()
      const queued =
        (seriesValue(text, 'studio_media_jobs{queue="media",state="created"}') ?? 0) +
        (seriesValue(text, 'studio_media_jobs{queue="media",state="active"}') ?? 0) +
        (seriesValue(text, 'studio_media_jobs{queue="media",state="retry"}') ?? 0)
      if (queued === 0) break
      if (Date.now() > done) throw new Error(`jobs still queued:\n${text}`)
      await Bun.sleep(250)
    }
    // Three videos in all (one from the test before): three jobs completed, none failed.
    expect(seriesValue(text, 'studio_media_jobs{queue="media",state="completed"}')).toBe(3)
    expect(seriesValue(text, 'studio_media_jobs{queue="media",state="failed"}')).toBe(0)
    expect(seriesValue(text, 'studio_media_queue_lag_seconds{queue="media"}')).toBe(0)
    expect(seriesValue(text, 'studio_media_job_duration_seconds_count{outcome="completed"}')).toBe(
      3,
    )
    expect(
      seriesValue(text, 'studio_media_job_duration_seconds_sum{outcome="completed"}'),
    ).toBeGreaterThan(0)
    expect(text).toContain('# TYPE studio_media_job_duration_seconds histogram')
  }, 150_000)
})
