// A caption upload as the first admin answer a freshly started server builds. That answer holds
// signed media prefixes, whose key comes from the database: loaded lazily inside the caption's
// transaction, it waited on a second connection, which the embedded database (one backend)
// serves only once the transaction ends, so the request never answered and the whole site froze.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { captionFiles, captionsForm } from '../../testkit/captions.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { fixtures, form, send } from '../../testkit/videos.ts'

let t: TestApp
const files = captionFiles()

beforeAll(async () => {
  t = await startTestApp()
}, 120_000)
afterAll(async () => {
  await t.stop()
  rmSync(files.dir, { recursive: true, force: true })
})

/** `work`'s answer, or a failure naming what did not answer within `ms`. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

test('after a restart, POST /api/videos/:id/captions as the first admin request answers and /healthz stays 200', async () => {
  const f = await fixtures()
  let token = await t.login()
  const created = await send(
    t,
    'POST',
    '/api/videos/upload',
    token,
    form({ title: 'First After Start' }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
  )
  expect(created.status).toBe(201)
  const id = created.json.data.video._id as string

  await t.restart()
  // Signing in builds no video answer.
  token = await t.login()
  const tiny = files.write('tiny.vtt', 'WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n')
  const added = await within(
    8000,
    'POST /api/videos/:id/captions',
    send(
      t,
      'POST',
      `/api/videos/${id}/captions`,
      token,
      captionsForm({ language: 'en', label: 'English' }, tiny),
    ),
  )
  expect(added.status).toBe(201)
  expect(added.json.data.language).toBe('en')
  // The track's file is served; the admin's video answer carries it.
  expect((await t.fetch(added.json.data.url)).status).toBe(200)
  const health = await within(8000, '/healthz', t.fetch('/healthz'))
  expect(health.status).toBe(200)
  const answer = await within(
    8000,
    'GET /api/videos/:id',
    t.call('GET', `/api/videos/${id}`, { token }),
  )
  expect(answer.json.data.video.captions).toEqual([added.json.data])
}, 60_000)
