// What a visitor's page does when the works it was loaded with change
// (docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md), in Chromium at 1280 and 375
// px against the real server: a work still processing is not on the page at all and the page names
// no master; a ready work whose streams a reprocess replaced before the click plays its current
// streams; one hidden or deleted before the click says, visibly and to screen readers, that it
// cannot play. The tile (fullscreen), the phone's modal, the work's own page and the embed alike.
// Works are made ready by testkit/ready.ts (one real ffmpeg run, stored per work by the pipeline's
// own write) and changed on the server's own database and storage.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Browser, Page } from 'playwright-core'
import { videos } from '../db/schema.ts'
import { CANNOT_PLAY } from '../src/contract/public-page.ts'
import { markProcessing } from '../src/videos/rows.ts'
import { launchBrowser } from '../testkit/browser.ts'
import { onServer, prepareOutputs, readyServerWorks } from '../testkit/ready.ts'
import { makeSampleMedia, type SampleVideo, seedVideos } from '../testkit/sample-videos.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { openPage } from './support/browser.ts'
import { gridSettled } from './support/grid.ts'

const TEST_TIMEOUT = 90_000

type Work = { id: string; title: string; slug: string; master: string }

let server: E2EServer
let browser: Browser
let dir: string
let samples: SampleVideo[]
let token: string
const works = new Map<string, Work>()

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
] as const
const titleOf = (change: string, width: number) => `${change} ${width}`

async function upload(title: string): Promise<Work> {
  await seedVideos(server.url, token, [{ ...samples[0]!, title }])
  const list = await fetch(`${server.url}/api/videos?page=1&limit=100`, {
    headers: { authorization: `Bearer ${token}` },
  })
  type Answer = { _id: string; title: string; slug: string }
  const all = ((await list.json()) as { data: { videos: Answer[] } }).data.videos
  const made = all.find((v) => v.title === title)!
  const [row] = await onServer(server, (db) =>
    db.select({ videoKey: videos.videoKey }).from(videos).where(eq(videos.id, made._id)),
  )
  const work = { id: made._id, title, slug: made.slug, master: `/media/${row!.videoKey}` }
  works.set(title, work)
  return work
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stale-sources-e2e-'))
  // No worker: every state here is one this test puts the work in.
  ;[server, samples, browser] = await Promise.all([
    startServer({ MEDIA_WORKERS: '0' }),
    makeSampleMedia(dir, 1),
    launchBrowser(),
  ])
  token = (await server.apiLogin()).token
  await prepareOutputs(samples[0]!.video)
  await ready('Shown Meanwhile')
  // Uploaded last, so it leads the curated order: the first tile, were it shown.
  const processing = await upload('Still Processing')
  const job = { videoId: processing.id, sourceKey: processing.master.slice('/media/'.length) }
  expect(await onServer(server, (db) => markProcessing(db, job))).toBe(true)
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

/**
 * A work made ready now, so it leads the curated order (a tile on the page's first screenful of
 * works); each test changes works of its own.
 */
async function ready(title: string): Promise<Work> {
  const made = await upload(title)
  await readyServerWorks(server, [made.id])
  return made
}

/** A reprocess, as the worker ends one: new streams stored, the previous folder removed. */
const reprocess = (w: Work) => readyServerWorks(server, [w.id])
const hide = async (w: Work) => {
  const res = await fetch(`${server.url}/api/videos/${w.id}/published`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ published: false }),
  })
  expect(res.status).toBe(200)
}
const remove = async (w: Work) => {
  const res = await fetch(`${server.url}/api/videos/${w.id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  })
  expect(res.status).toBe(200)
}
async function currentHls(w: Work): Promise<string> {
  const res = await fetch(`${server.url}/api/public/videos`)
  const list = ((await res.json()) as { data: { videos: { _id: string; hlsUrl: string }[] } }).data
  return list.videos.find((v) => v._id === w.id)!.hlsUrl
}
const folderOf = (url: string) => /\/media\/([0-9a-f]{32})\//.exec(url)![1]!

/** Every path the page requests from now on. */
function recordPaths(page: Page): string[] {
  const paths: string[] = []
  page.on('request', (request) => paths.push(new URL(request.url()).pathname))
  return paths
}

// Chromium logs each 404 answer; the players log the failure they give up on.
const ALLOW = [/Failed to load resource/, /Could not play/]

async function open(width: number, height: number) {
  return openPage(browser, { width, height, baseURL: server.url, allow: ALLOW })
}

/** The source of the element playing (fullscreen on a desktop, the modal's on a phone), once it plays. */
async function playingFrom(page: Page): Promise<string> {
  await page.waitForFunction(
    () => {
      const v =
        document.fullscreenElement?.querySelector('video') ??
        document.querySelector<HTMLVideoElement>('dialog[open] video')
      return !!v && !v.paused && v.currentTime > 0.5
    },
    undefined,
    { timeout: 30_000 },
  )
  return page.evaluate(
    () =>
      (
        document.fullscreenElement?.querySelector('video') ??
        document.querySelector<HTMLVideoElement>('dialog[open] video')
      )?.currentSrc ?? '',
  )
}

/**
 * The landing page, live: React took over and asked for the list again on mount, as a page a
 * visitor has had open for a while has. What changes after this, the page does not know.
 */
async function openLanding(page: Page): Promise<void> {
  const refreshed = page.waitForResponse((res) => res.url().includes('/api/public/videos?limit='))
  await page.goto('/')
  await gridSettled(page)
  // React comes on the first intent (web/src/public/on-intent.ts).
  await page.mouse.move(5, 5)
  await page.mouse.move(15, 15)
  await refreshed
  await page.waitForLoadState('networkidle')
}

async function closePlayer(page: Page, width: number) {
  if (width < 768) {
    await page.keyboard.press('Escape')
    await page.locator('dialog[open]').waitFor({ state: 'detached' })
  } else {
    await page.evaluate(() => document.exitFullscreen())
    await page.waitForFunction(() => !document.fullscreenElement)
  }
}

describe.each(WIDTHS)('$name ($width px)', ({ width, height }) => {
  test(
    'a work still processing is not on the page, and the page names no master; the ready ones play their streams',
    async () => {
      const waiting = works.get('Still Processing')!
      const shown = works.get('Shown Meanwhile')!
      const { page } = await open(width, height)
      const paths = recordPaths(page)
      const response = await page.goto('/')
      const html = (await response?.text()) ?? ''
      await gridSettled(page)
      expect(await page.getByRole('button', { name: `Play ${waiting.title}` }).count()).toBe(0)
      for (const text of [html, await page.content()]) {
        expect(text).toContain(shown.id)
        expect(text).not.toContain(waiting.id)
        for (const w of works.values()) expect(text).not.toContain(w.master)
      }
      expect((await fetch(`${server.url}/work/${waiting.slug}`)).status).toBe(404)

      // A ready work plays its streams meanwhile; no master is ever asked for.
      const button = page.getByRole('button', { name: `Play ${shown.title}` })
      await button.scrollIntoViewIfNeeded()
      await button.click()
      expect(await playingFrom(page)).toMatch(/^blob:/)
      await closePlayer(page, width)
      for (const w of works.values()) expect(paths).not.toContain(w.master)
    },
    TEST_TIMEOUT,
  )

  test(
    'a tile whose streams a reprocess replaced before the click plays the current streams',
    async () => {
      const w = await ready(titleOf('Replaced', width))
      const { page } = await open(width, height)
      const paths = recordPaths(page)
      await openLanding(page)
      const before = folderOf(await currentHls(w))
      await reprocess(w)
      const after = folderOf(await currentHls(w))
      expect(after).not.toBe(before)
      const button = page.getByRole('button', { name: `Play ${w.title}` })
      await button.scrollIntoViewIfNeeded()
      await button.click()
      expect(await playingFrom(page)).toMatch(/^blob:/)
      expect(paths.some((p) => p.startsWith(`/media/${after}/`) && p.endsWith('.m4s'))).toBe(true)
      expect(await page.getByRole('alert').filter({ hasText: CANNOT_PLAY }).count()).toBe(0)
      await closePlayer(page, width)
      expect(paths).not.toContain(w.master)
    },
    TEST_TIMEOUT,
  )

  for (const change of ['Hidden', 'Deleted'] as const) {
    test(
      `a tile whose work was ${change.toLowerCase()} before the click says it cannot play`,
      async () => {
        const w = await ready(titleOf(change, width))
        const { page } = await open(width, height)
        await openLanding(page)
        await (change === 'Hidden' ? hide(w) : remove(w))
        const button = page.getByRole('button', { name: `Play ${w.title}` })
        await button.scrollIntoViewIfNeeded()
        await button.click()
        const alert = page.getByRole('alert').filter({ hasText: CANNOT_PLAY })
        await alert.waitFor({ timeout: 30_000 })
        expect(await alert.isVisible()).toBe(true)
        if (width < 768) {
          // The modal stays open, saying so, until the visitor closes it.
          expect(await page.locator('dialog[open]').count()).toBe(1)
          await closePlayer(page, width)
        } else {
          // Back on the page, the tile says so; the click left no player behind.
          expect(await page.evaluate(() => document.fullscreenElement)).toBeNull()
          expect(await button.isVisible()).toBe(true)
        }
      },
      TEST_TIMEOUT,
    )
  }

  test(
    "a work's page plays the current streams after a reprocess, and says it cannot play a deleted work",
    async () => {
      const replaced = await ready(titleOf('Page Replaced', width))
      const deleted = await ready(titleOf('Page Deleted', width))
      const { page } = await open(width, height)
      const paths = recordPaths(page)
      await page.goto(`/work/${replaced.slug}`)
      await page.getByRole('heading', { level: 1, name: replaced.title }).waitFor()
      await reprocess(replaced)
      const after = folderOf(await currentHls(replaced))
      await page.getByRole('button', { name: `Play ${replaced.title}` }).click()
      await page.waitForFunction(
        (title) => {
          const v = document.querySelector<HTMLVideoElement>(`video[aria-label="${title}"]`)
          return !!v && !v.paused && v.currentTime > 0.5
        },
        replaced.title,
        { timeout: 30_000 },
      )
      expect(paths.some((p) => p.startsWith(`/media/${after}/`))).toBe(true)

      await page.goto(`/work/${deleted.slug}`)
      await page.getByRole('heading', { level: 1, name: deleted.title }).waitFor()
      await remove(deleted)
      await page.getByRole('button', { name: `Play ${deleted.title}` }).click()
      const alert = page.getByRole('alert').filter({ hasText: CANNOT_PLAY })
      await alert.waitFor({ timeout: 30_000 })
      expect(await alert.isVisible()).toBe(true)
    },
    TEST_TIMEOUT,
  )

  test(
    'the embed plays the current MP4 after a reprocess, and says it cannot play a deleted work',
    async () => {
      const replaced = await ready(titleOf('Embed Replaced', width))
      const deleted = await ready(titleOf('Embed Deleted', width))
      const { page } = await open(width, height)
      // The embed's HTML arrives before the change, its media after it.
      let release: () => void = () => {}
      let gate = new Promise<void>((resolve) => {
        release = resolve
      })
      await page.route('**/media/**', async (route) => {
        await gate
        await route.continue()
      })
      const play = () =>
        page.evaluate(() =>
          document
            .querySelector('video')
            ?.play()
            .catch(() => {}),
        )

      await page.goto(`/work/${replaced.slug}/embed`, { waitUntil: 'domcontentloaded' })
      await reprocess(replaced)
      const mp4 = (await currentHls(replaced)).replace('master.m3u8', 'video.mp4')
      release()
      // Its first request for the MP4 fails; it asks for itself again and takes the new MP4.
      await page.waitForFunction(
        (path) => new URL(document.querySelector('video')!.currentSrc).pathname === path,
        mp4,
        { timeout: 30_000 },
      )
      await play()
      await page.waitForFunction(
        () => {
          const v = document.querySelector('video')
          return !!v && !v.paused && v.currentTime > 0.5
        },
        undefined,
        { timeout: 30_000 },
      )

      gate = new Promise<void>((resolve) => {
        release = resolve
      })
      await page.goto(`/work/${deleted.slug}/embed`, { waitUntil: 'domcontentloaded' })
      await remove(deleted)
      release()
      await play()
      const alert = page.getByRole('alert').filter({ hasText: CANNOT_PLAY })
      await alert.waitFor({ timeout: 30_000 })
      expect(await alert.isVisible()).toBe(true)
    },
    TEST_TIMEOUT,
  )
})
