// Loudness at playback in Chromium
// (docs/decisions/071-loudness-levelled-at-playback-by-element-volume.md): two works mastered at −8
// and −20 LUFS, made by ffmpeg here and processed by the real worker, played from the work page, a
// landing tile, the embed, a review link and the dashboard's player. The loud one plays turned down
// to the site's reference, the quiet one as mixed; the Site page's reference changes that on the
// next load, and turned off it is 0 everywhere.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { makeLoudClip } from '../testkit/loudness.ts'
import { fixtures } from '../testkit/media.ts'
import { pollUntil } from '../testkit/poll.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { uploadVideo } from '../testkit/upload.ts'
import { openPage, openSignedInPage } from './support/browser.ts'
import { gridSettled } from './support/grid.ts'
import { holdBackReact } from './support/live.ts'

const TIMEOUT = 120_000
const LOUD = 'Loud Master'
const QUIET = 'Quiet Master'

type Work = { _id: string; slug: string; status: string; loudness: { integrated: number } | null }

let server: E2EServer
let browser: Browser
let dir: string
let session: { token: string; user: Record<string, string> }
const works: Record<string, Work> = {}

async function adminVideos(): Promise<Work[]> {
  const res = await fetch(`${server.url}/api/videos?page=1&limit=100`, {
    headers: { authorization: `Bearer ${session.token}` },
  })
  return ((await res.json()) as { data: { videos: Work[] } }).data.videos
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loudness-e2e-'))
  const f = await fixtures()
  const [loud, quiet] = await Promise.all([
    makeLoudClip(dir, 'loud.mp4', -8),
    makeLoudClip(dir, 'quiet.mp4', -20),
  ])
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  session = await server.apiLogin()
  await uploadVideo(server.url, session.token, LOUD, { ...f, mp4: loud })
  await uploadVideo(server.url, session.token, QUIET, { ...f, mp4: quiet })
  const list = await pollUntil(
    adminVideos,
    (list) => list.length === 2 && list.every((v) => v.status === 'ready' && v.loudness),
    { what: 'both works processed and measured', timeoutMs: 180_000 },
  )
  for (const v of list) works[v.slug === 'loud-master' ? LOUD : QUIET] = v
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

/** The gain the player of `title` applied, once it has one, and its volume. */
async function appliedGain(page: Page, title: string) {
  const player = page.locator(`video[aria-label="${title}"][data-loudness-gain-db]`)
  await player.waitFor({ state: 'attached' })
  return player.evaluate((v: HTMLVideoElement) => ({
    gain: Number(v.getAttribute('data-loudness-gain-db')),
    volume: v.volume,
  }))
}

/** What the gain should be: down to the reference, never up, tenths as shown. */
const expected = (title: string, reference: number | null) => {
  if (reference === null) return 0
  const gain = Math.round(Math.min(0, reference - works[title]!.loudness!.integrated) * 10) / 10
  return gain === 0 ? 0 : gain
}

async function playOnWorkPage(page: Page, title: string) {
  await page.goto(`/work/${works[title]!.slug}`)
  await page.getByRole('button', { name: `Play ${title}` }).click()
  return appliedGain(page, title)
}

describe('at the default reference (−14 LUFS)', () => {
  test(
    'the work page turns the −8 LUFS work down by about 6 dB and plays the −20 one as mixed',
    async () => {
      const { page } = await openPage(browser, { baseURL: server.url })
      const loud = await playOnWorkPage(page, LOUD)
      expect(loud.gain).toBe(expected(LOUD, -14))
      expect(Math.abs(loud.gain - -6)).toBeLessThanOrEqual(0.6)
      expect(loud.volume).toBeCloseTo(10 ** (loud.gain / 20), 2)
      const quiet = await playOnWorkPage(page, QUIET)
      expect(quiet).toEqual({ gain: 0, volume: 1 })
    },
    TIMEOUT,
  )

  test(
    'a landing tile, the embed and a review link level the same way',
    async () => {
      const { page } = await openPage(browser, {
        baseURL: server.url,
        // Headless Chromium may refuse a tile's fullscreen; the tile says so as a warning.
        allow: [/Fullscreen/],
      })
      await page.goto('/')
      await gridSettled(page)
      const play = page.getByRole('button', { name: `Play ${LOUD}` })
      await play.scrollIntoViewIfNeeded()
      await play.click()
      const tile = page.locator('video[data-loudness-gain-db]').first()
      await tile.waitFor({ state: 'attached' })
      expect(Number(await tile.getAttribute('data-loudness-gain-db'))).toBe(expected(LOUD, -14))

      // A tile pressed before React is live gets its stream from the page's first script; it is
      // levelled all the same once the tile takes it over (React's chunk held back 1.5 s).
      const early = await openPage(browser, { baseURL: server.url, allow: [/Fullscreen/] })
      await holdBackReact(early.page, 1500)
      await early.page.goto('/')
      const earlyPlay = early.page.getByRole('button', { name: `Play ${LOUD}` })
      await earlyPlay.scrollIntoViewIfNeeded()
      const earlyTile = await early.page
        .locator(`li:has(button[aria-label="Play ${LOUD}"]) video[data-tile-player]`)
        .elementHandle()
      await earlyPlay.click()
      await early.page.waitForFunction((element) => {
        const video = element as HTMLVideoElement | null
        return video !== null && !video.paused && video.currentTime > 0.3
      }, earlyTile)
      const earlyLevel = await earlyTile!.evaluate((element) => ({
        gain: Number(element.getAttribute('data-loudness-gain-db')),
        volume: (element as HTMLVideoElement).volume,
      }))
      expect(earlyLevel.gain).toBe(expected(LOUD, -14))
      expect(earlyLevel.volume).toBeCloseTo(10 ** (earlyLevel.gain / 20), 2)

      await page.goto(`/work/${works[LOUD]!.slug}/embed`)
      expect((await appliedGain(page, LOUD)).gain).toBe(expected(LOUD, -14))
      await page.goto(`/work/${works[QUIET]!.slug}/embed`)
      expect((await appliedGain(page, QUIET)).gain).toBe(0)

      const res = await fetch(`${server.url}/api/videos/${works[LOUD]!._id}/links`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${session.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({}),
      })
      expect(res.status).toBe(201)
      const { url } = ((await res.json()) as { data: { link: { url: string } } }).data.link
      await page.goto(new URL(url).pathname)
      await page.getByRole('button', { name: `Play ${LOUD}` }).click()
      expect((await appliedGain(page, LOUD)).gain).toBe(expected(LOUD, -14))
    },
    TIMEOUT,
  )

  test(
    "the Manage page says how each plays, and the dashboard's player levels too",
    async () => {
      const { page } = await openSignedInPage(browser, server.url, session, { width: 1280 })
      await page.goto('/dashboard/manage')
      const row = (title: string) => page.getByRole('row').filter({ hasText: title })
      const loudText = await row(LOUD).getByTestId('loudness').textContent()
      expect(loudText).toMatch(/−[78]\.\d LUFS · plays [56]\.\d dB quieter on the site/)
      expect(await row(QUIET).getByTestId('loudness').textContent()).toMatch(
        /−(19|20)\.\d LUFS · plays as mixed$/,
      )
      await row(LOUD)
        .getByRole('button', { name: `Play ${LOUD}` })
        .click()
      expect((await appliedGain(page, LOUD)).gain).toBe(expected(LOUD, -14))
    },
    TIMEOUT,
  )
})

describe('the reference set on the Site page', () => {
  async function setReference(page: Page, reference: number | null) {
    await page.goto('/dashboard/site')
    await page.getByRole('heading', { level: 1, name: 'Site' }).waitFor()
    const level = page.getByRole('checkbox', { name: /Level loud works/ })
    if (reference === null) {
      await level.uncheck()
    } else {
      await level.check()
      await page.getByLabel('Reference loudness (LUFS)').fill(String(reference))
    }
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('All changes saved').waitFor()
  }

  test(
    'a new reference changes the gain on the next page load; turned off, it is 0',
    async () => {
      const admin = await openSignedInPage(browser, server.url, session, { width: 1280 })
      const { page } = await openPage(browser, { baseURL: server.url })

      // Out of range: the schema's message, nothing saved.
      await admin.page.goto('/dashboard/site')
      await admin.page.getByLabel('Reference loudness (LUFS)').fill('-30')
      await admin.page.getByRole('button', { name: 'Save changes' }).click()
      await admin.page
        .getByText('The loudness reference must be between -23 and -9 LUFS, in whole or half dB')
        .waitFor()

      await setReference(admin.page, -20)
      const at20 = await playOnWorkPage(page, LOUD)
      expect(at20.gain).toBe(expected(LOUD, -20))
      expect(Math.abs(at20.gain - -12)).toBeLessThanOrEqual(0.6)
      expect((await playOnWorkPage(page, QUIET)).gain).toBe(expected(QUIET, -20))

      await setReference(admin.page, null)
      expect(await playOnWorkPage(page, LOUD)).toEqual({ gain: 0, volume: 1 })
      await page.goto(`/work/${works[LOUD]!.slug}/embed`)
      expect((await appliedGain(page, LOUD)).gain).toBe(0)
    },
    TIMEOUT,
  )
})
