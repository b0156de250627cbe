// A new upload plays while it processes (docs/media.md): the admin opens a three-minute work from
// Manage before the server's worker has finished it; the player starts its growing stream from the
// beginning, says which rungs exist and how much is ready, and a jump past that waits for the
// encoder instead of failing. Once the final streams exist the player carries on with them from
// the moment it waited for. No console error anywhere (the page fixture fails the test on any).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Locator } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type Fixtures, fixtures } from '../testkit/media.ts'
import { makeClip } from '../testkit/pipeline.ts'
import { pollUntil } from '../testkit/poll.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { uploadVideo } from '../testkit/upload.ts'
import { openSignedInPage } from './support/browser.ts'

const TITLE = 'Long Take'
/** Where the jump goes: well past what the encoder has made when the player starts. */
const JUMP_TO = 170

let server: E2EServer
let browser: Browser
let f: Fixtures
let dir: string
let clip: string
let session: Awaited<ReturnType<E2EServer['apiLogin']>>

type Answer = { status: string; growing: { seconds: number; rungs: string[] } | null }

const videoOf = async (id: string): Promise<Answer> => {
  const res = await fetch(`${server.url}/api/videos/${id}`, {
    headers: { authorization: `Bearer ${session.token}` },
  })
  return ((await res.json()) as { data: { video: Answer } }).data.video
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'growing-stream-e2e-'))
  ;[server, f, browser] = await Promise.all([
    // As deployed: the growing stream stays a while for the player still on it.
    startServer({ MEDIA_GROWING_KEEP_SECONDS: '30' }),
    fixtures(),
    launchBrowser(),
  ])
  // Three minutes at a small size: long enough to be watched before its processing ends.
  clip = await makeClip(dir, 'long-take.mp4', { seconds: 180, width: 640, height: 360 })
  session = await server.apiLogin()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

/** The player's position, once its element has a frame to show. */
const position = (video: Locator) =>
  video.evaluate((v: HTMLVideoElement) => (v.readyState >= 2 ? v.currentTime : -1))

test('a processing upload plays from its growing stream, waits past what is made, then plays on from the final one', async () => {
  const { page } = await openSignedInPage(browser, server.url, session)
  const uploaded = await uploadVideo(server.url, session.token, TITLE, { ...f, mp4: clip })
  const uploadedAt = performance.now()
  await page.goto('/dashboard/manage')

  // The Manage row says which rungs play already, beside its processing meter.
  const row = page.getByRole('row').filter({ hasText: TITLE })
  await row.getByText(/^Playable now · 360p/).waitFor({ timeout: 60_000 })
  await row.getByRole('progressbar', { name: `Processing ${TITLE}` }).waitFor()

  await page.getByRole('button', { name: `Play ${TITLE}` }).click()
  const player = page.getByRole('dialog', { name: TITLE })
  const video = player.locator('video')
  // The first frame, and time moving on from it.
  await page.waitForFunction(
    (el) => (el as HTMLVideoElement).readyState >= 2 && (el as HTMLVideoElement).currentTime > 0,
    await video.elementHandle(),
    { timeout: 30_000 },
  )
  const first = await position(video)
  // The page opened, the row showed its rungs and the admin clicked at once: an upper bound.
  console.log(
    `[growing] first frame ${((performance.now() - uploadedAt) / 1000).toFixed(1)} s after the upload's answer`,
  )
  expect((await videoOf(uploaded._id)).status).toBe('processing')
  // From the beginning, not the encoder's edge.
  expect(first).toBeLessThan(5)
  await page.waitForFunction(
    ([el, from]) => (el as HTMLVideoElement).currentTime > (from as number) + 1,
    [await video.elementHandle(), first] as const,
    { timeout: 15_000 },
  )

  await player.getByText(/^Playable now · 360p/).waitFor()
  await player.getByText(/^Still processing: \d+:\d\d of 3:00 is ready to play\.$/).waitFor()
  const made = (await videoOf(uploaded._id)).growing?.seconds ?? 0
  expect(made).toBeLessThan(JUMP_TO)

  // A jump past what is made waits, in words, and shows no error.
  await player.getByRole('slider', { name: 'Jump to' }).fill(String(JUMP_TO))
  await player.getByText('Waiting for the encoder to reach 2:50…').waitFor()
  expect(await page.getByRole('alert').count()).toBe(0)
  expect(await video.evaluate((v: HTMLVideoElement) => v.error)).toBeNull()

  // The encoder, or the final streams, get there: the player plays from that moment.
  await pollUntil(
    () => videoOf(uploaded._id),
    (v) => v.status === 'ready',
    { what: 'the work processed', timeoutMs: 240_000, everyMs: 1000, show: (v) => v.status },
  )
  await page.waitForFunction(
    ([el, at]) => {
      const v = el as HTMLVideoElement
      return v.currentTime > (at as number) + 0.5 && !v.paused
    },
    [await video.elementHandle(), JUMP_TO] as const,
    { timeout: 60_000 },
  )
  await player.getByText('Waiting for the encoder to reach 2:50…').waitFor({ state: 'detached' })
  // The final streams took over: nothing of the growing stream is shown any more.
  await player.getByText(/^Still processing/).waitFor({ state: 'detached', timeout: 10_000 })
  expect(await video.evaluate((v: HTMLVideoElement) => v.error)).toBeNull()
}, 420_000)
