// Captions end to end in Chromium against the real built server and worker
// (docs/decisions/075-captions-in-players-from-the-stream-or-track-elements-never-both.md,
// docs/dashboard.md, docs/public-site.md#captions): an admin adds an SRT file on the upload page,
// the real worker processes the work, and every player offers it. With hls.js the track comes from
// the stream's SUBTITLES group (one text track, no <track> of the player's own); with the stream
// refused, the MP4 plays with the player's <track>; the embed and a review link carry it too. In
// each, choosing the track fills `textTracks` with the file's cues. The edit dialog adds and
// removes tracks, and a malformed file is refused with the line at fault, shown at its field. The
// upload page and the edit dialog with their captions sections have no axe violations.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type Fixtures, fixtures } from '../testkit/media.ts'
import { pollUntil } from '../testkit/poll.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { axeViolations, describeViolations } from './support/axe.ts'
import { openPage, openSignedInPage } from './support/browser.ts'
import { gridSettled } from './support/grid.ts'
import { saveScreenshot } from './support/screenshots.ts'

const TIMEOUT = 120_000
const TITLE = 'Captioned Reel'
const CUES = ['Hello from the studio', 'A second line of dialogue']
const SRT = `1\r\n00:00:00,200 --> 00:00:01,500\r\n${CUES[0]}\r\n\r\n2\r\n00:00:01,500 --> 00:00:03,000\r\n${CUES[1]}\r\n`
const FRENCH = 'WEBVTT\n\n00:00:00.200 --> 00:00:02.000\nBonjour du studio\n'
// The third line's timing ends before it starts.
const MALFORMED = 'WEBVTT\n\n00:00:02.000 --> 00:00:01.000\nBackwards\n'
/** Chromium logs refused requests (the 400 of a malformed file, a refused stream) as errors. */
const REFUSALS = [/status of 4\d\d/, /Failed to load resource/]

type Track = { language: string; label: string; url: string }
type Work = { _id: string; slug: string; status: string; captions: Track[] }

let server: E2EServer
let browser: Browser
let media: Fixtures
let dir: string
let clip: string
let session: { token: string; user: Record<string, string> }
const files = { srt: '', french: '', malformed: '' }
let work: Work

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return ((await res.json()) as { data: T }).data
}

const videos = async () =>
  (await api<{ videos: Work[] }>('GET', '/api/videos?page=1&limit=100')).videos

/** A 4 s clip with sound: long enough for two cues inside it. */
async function makeClip(path: string) {
  const proc = Bun.spawn(
    [
      'ffmpeg',
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=25:duration=4',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=4',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
      path,
    ],
    { stdout: 'ignore', stderr: 'pipe' },
  )
  if ((await proc.exited) !== 0) throw new Error(await new Response(proc.stderr).text())
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'captions-e2e-'))
  clip = join(dir, 'reel.mp4')
  files.srt = join(dir, 'english.srt')
  files.french = join(dir, 'french.vtt')
  files.malformed = join(dir, 'broken.vtt')
  writeFileSync(files.srt, SRT)
  writeFileSync(files.french, FRENCH)
  writeFileSync(files.malformed, MALFORMED)
  ;[server, browser, media] = await Promise.all([
    startServer(),
    launchBrowser(),
    fixtures(),
    makeClip(clip),
  ]).then(([s, b, f]) => [s, b, f] as const)
  session = await server.apiLogin()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

async function expectNoAxeViolations(page: Page) {
  expect(describeViolations(await axeViolations(page))).toBe('')
}

/** The text of what `aria-describedby` of `field` points at, as a screen reader adds it. */
const describedBy = (field: Locator) =>
  field.evaluate((input) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .join(' '),
  )

type Shown = {
  /** Every subtitle or caption text track of the element: label, language and mode. */
  tracks: { label: string; language: string; mode: string }[]
  /** The player's own <track> elements (the MP4's), as opposed to hls.js's. */
  own: number
  cues: string[]
}

/**
 * Turns on the `label` track of the page's playing <video> (the one with a source: idle tiles
 * have none), as choosing it in the CC menu does, and waits until it holds cues; answers what the
 * element offers then.
 */
async function chooseTrack(page: Page, label: string): Promise<Shown> {
  const playing = page.locator('video[src]:not([data-preview])')
  await playing.first().waitFor({ state: 'attached', timeout: 30_000 })
  expect(await playing.count()).toBe(1)
  await page.waitForFunction(
    (name) =>
      [
        ...(document.querySelector<HTMLVideoElement>('video[src]:not([data-preview])')
          ?.textTracks ?? []),
      ].some((t) => t.label === name),
    label,
    { timeout: 30_000 },
  )
  await playing.evaluate((el: HTMLVideoElement, name) => {
    for (const track of el.textTracks) if (track.label === name) track.mode = 'showing'
  }, label)
  await page.waitForFunction(
    (name) => {
      const el = document.querySelector<HTMLVideoElement>('video[src]:not([data-preview])')
      const track = [...(el?.textTracks ?? [])].find((t) => t.label === name)
      return (track?.cues?.length ?? 0) >= 2
    },
    label,
    { timeout: 30_000 },
  )
  return playing.evaluate((el: HTMLVideoElement, name) => {
    const text = [...el.textTracks].filter((t) => t.kind === 'subtitles' || t.kind === 'captions')
    const chosen = text.find((t) => t.label === name)
    return {
      tracks: text.map((t) => ({ label: t.label, language: t.language, mode: t.mode })),
      own: el.querySelectorAll('track[data-caption]').length,
      cues: [...(chosen?.cues ?? [])].map((cue) => (cue as VTTCue).text),
    }
  }, label)
}

describe('an SRT file added on the upload page', () => {
  test(
    'goes up with the work, is converted, and the work answers with the track',
    async () => {
      const { page } = await openSignedInPage(browser, server.url, session, {
        width: 1280,
        height: 900,
      })
      await page.goto('/dashboard/upload')
      await page.getByRole('heading', { name: 'Upload Video', level: 1 }).waitFor()
      const section = page.getByRole('region', { name: /Captions/ })
      await section.getByText('No captions yet').waitFor()
      await page.getByLabel('Video Title').fill(TITLE)
      await page.getByLabel('Video File', { exact: true }).setInputFiles(clip)
      await page.getByLabel('Thumbnail', { exact: true }).setInputFiles(media.jpg)
      await page.getByLabel('Brand Logo', { exact: true }).setInputFiles(media.png)

      // From the keyboard: the button adds a row and its file picker takes focus.
      await section.getByRole('button', { name: 'Add captions' }).focus()
      await page.keyboard.press('Enter')
      const row = section.getByRole('group', { name: 'Track 1' })
      const file = row.getByLabel('Caption file', { exact: true })
      await expect(file.evaluate((el) => el === document.activeElement)).resolves.toBe(true)
      expect(await describedBy(file)).toContain('WebVTT or SRT · up to 1 MB')
      await file.setInputFiles(files.srt)
      await row.getByText('english.srt').waitFor()
      // The language's name becomes the label when none was typed.
      await row.getByLabel('Language', { exact: true }).fill('en')
      await row.getByLabel('Language', { exact: true }).press('Tab')
      expect(await row.getByLabel('Label', { exact: true }).inputValue()).toBe('English')
      await expectNoAxeViolations(page)
      await saveScreenshot(page, 'captions-upload', { theme: 'light', fullPage: true })

      await page.getByRole('button', { name: 'Upload Video' }).click()
      await page.waitForURL('**/dashboard/manage', { timeout: 60_000 })

      work = (await pollUntil(
        async () => (await videos()).find((v) => v.slug === 'captioned-reel'),
        (found) => found?.status === 'ready',
        { what: 'the captioned work processed', timeoutMs: 90_000 },
      ))!
      expect(work.captions.map(({ language, label }) => ({ language, label }))).toEqual([
        { language: 'en', label: 'English' },
      ])
      // Stored as WebVTT, whatever came in.
      const vtt = await fetch(new URL(work.captions[0]!.url, server.url), {
        headers: { authorization: `Bearer ${session.token}` },
      })
      expect(vtt.status).toBe(200)
      expect(vtt.headers.get('content-type')).toStartWith('text/vtt')
      const text = await vtt.text()
      expect(text).toStartWith('WEBVTT')
      for (const cue of CUES) expect(text).toContain(cue)
    },
    TIMEOUT,
  )

  test(
    "the work page's stream (hls.js) offers it once, from the SUBTITLES group, with its cues",
    async () => {
      const { page } = await openPage(browser, { baseURL: server.url })
      await page.goto(`/work/${work.slug}`)
      await page.getByRole('button', { name: `Play ${TITLE}` }).click()
      const shown = await chooseTrack(page, 'English')
      expect(shown.tracks).toEqual([{ label: 'English', language: 'en', mode: 'showing' }])
      expect(shown.own).toBe(0)
      expect(shown.cues).toEqual(CUES)
    },
    TIMEOUT,
  )

  test(
    "a landing tile's player, with the native controls' CC menu to choose it from",
    async () => {
      const { page } = await openPage(browser, {
        baseURL: server.url,
        // Headless Chromium may refuse a tile's fullscreen; the tile says so as a warning.
        allow: [/Fullscreen/],
      })
      await page.goto('/')
      await gridSettled(page)
      const play = page.getByRole('button', { name: `Play ${TITLE}` })
      await play.scrollIntoViewIfNeeded()
      await play.click()
      const shown = await chooseTrack(page, 'English')
      expect(shown.tracks).toHaveLength(1)
      expect(shown.own).toBe(0)
      expect(shown.cues).toEqual(CUES)
      // Native controls are on while it plays; their captions menu is what shows the track.
      expect(await page.locator('video[controls]').count()).toBe(1)
    },
    TIMEOUT,
  )

  test(
    "the phone modal's native controls offer it too",
    async () => {
      const { page } = await openPage(browser, { baseURL: server.url, width: 375, height: 667 })
      await page.goto('/')
      await gridSettled(page)
      const play = page.getByRole('button', { name: `Play ${TITLE}` })
      await play.scrollIntoViewIfNeeded()
      await play.click()
      await page.getByRole('dialog', { name: TITLE }).waitFor()
      const shown = await chooseTrack(page, 'English')
      expect(shown.tracks).toHaveLength(1)
      expect(shown.cues).toEqual(CUES)
      expect(await page.locator('dialog video[controls]').count()).toBe(1)
    },
    TIMEOUT,
  )

  test(
    "the dashboard's player offers it",
    async () => {
      const { page } = await openSignedInPage(browser, server.url, session, { width: 1280 })
      await page.goto('/dashboard/manage')
      await page
        .getByRole('row')
        .filter({ hasText: TITLE })
        .getByRole('button', { name: `Play ${TITLE}` })
        .click()
      const shown = await chooseTrack(page, 'English')
      expect(shown.tracks).toHaveLength(1)
      expect(shown.cues).toEqual(CUES)
    },
    TIMEOUT,
  )

  test(
    'with the stream refused, the MP4 plays with the player’s own <track>',
    async () => {
      const { page } = await openPage(browser, { baseURL: server.url, allow: REFUSALS })
      await page.route('**/master.m3u8', (route) =>
        route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' }),
      )
      await page.goto(`/work/${work.slug}`)
      await page.getByRole('button', { name: `Play ${TITLE}` }).click()
      const shown = await chooseTrack(page, 'English')
      expect(shown.own).toBe(1)
      expect(shown.tracks).toEqual([{ label: 'English', language: 'en', mode: 'showing' }])
      expect(shown.cues).toEqual(CUES)
      const src = await page.locator('video').first().getAttribute('src')
      expect(src).toMatch(/\.mp4$/)
    },
    TIMEOUT,
  )

  test(
    'the embed and a review link carry it too',
    async () => {
      const { page } = await openPage(browser, { baseURL: server.url })
      await page.goto(`/work/${work.slug}/embed`)
      const embedded = await chooseTrack(page, 'English')
      expect(embedded.tracks).toEqual([{ label: 'English', language: 'en', mode: 'showing' }])
      expect(embedded.cues).toEqual(CUES)

      const made = await api<{ link: { url: string } }>('POST', `/api/videos/${work._id}/links`, {})
      const path = new URL(made.link.url).pathname
      await page.goto(path)
      await page.getByRole('button', { name: `Play ${TITLE}` }).click()
      const reviewed = await chooseTrack(page, 'English')
      expect(reviewed.cues).toEqual(CUES)
    },
    TIMEOUT,
  )
})

describe('the edit dialog', () => {
  async function openEdit(page: Page) {
    await page.goto('/dashboard/manage')
    await page.getByRole('button', { name: `Edit ${TITLE}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Video' })
    const section = dialog.getByRole('region', { name: 'Captions' })
    await section.getByRole('list', { name: 'Caption tracks' }).waitFor()
    return { dialog, section }
  }

  test(
    'adds a track, refuses a malformed file with its line at the field, and removes a track',
    async () => {
      const { page } = await openSignedInPage(browser, server.url, session, {
        width: 1280,
        height: 900,
        allow: REFUSALS,
      })
      const { dialog, section } = await openEdit(page)
      const list = section.getByRole('list', { name: 'Caption tracks' })
      await list.getByText('English').waitFor()
      expect(await list.getByRole('listitem').count()).toBe(1)
      await expectNoAxeViolations(page)

      // A malformed file: the server's message names the line, at the file field.
      const add = section.getByRole('form', { name: 'Add a track' })
      const file = add.getByLabel('Caption file', { exact: true })
      await file.setInputFiles(files.malformed)
      await add.getByLabel('Language', { exact: true }).fill('de')
      await add.getByLabel('Label', { exact: true }).fill('Deutsch')
      await add.getByRole('button', { name: 'Add track' }).click()
      const alert = add.getByRole('alert').filter({ hasText: /^Line 3: / })
      await alert.waitFor()
      expect(await describedBy(file)).toContain((await alert.textContent()) ?? '-')
      expect(await list.getByRole('listitem').count()).toBe(1)
      await expectNoAxeViolations(page)
      await add.scrollIntoViewIfNeeded()
      await saveScreenshot(page, 'captions-edit-refused', { theme: 'light' })

      // A good one joins the list and the work's answer.
      await add.getByRole('button', { name: 'Remove caption file' }).click()
      await file.setInputFiles(files.french)
      await add.getByLabel('Language', { exact: true }).fill('fr')
      await add.getByLabel('Label', { exact: true }).fill('Français')
      await add.getByRole('button', { name: 'Add track' }).click()
      await list.getByText('Français').waitFor()
      await expect(add.getByLabel('Language', { exact: true }).inputValue()).resolves.toBe('')
      let answer = (await videos()).find((v) => v._id === work._id)!
      expect(answer.captions.map((t) => t.language).sort()).toEqual(['en', 'fr'])

      // Remove asks once in place; Keep leaves it, Remove captions takes it away.
      await list.getByRole('button', { name: 'Remove English captions' }).click()
      await list.getByRole('button', { name: 'Keep' }).click()
      await list.getByRole('button', { name: 'Remove English captions' }).click()
      await list.getByRole('button', { name: 'Remove captions' }).click()
      await list.getByText('English').waitFor({ state: 'detached' })
      expect(await list.getByRole('listitem').count()).toBe(1)
      answer = (await videos()).find((v) => v._id === work._id)!
      expect(answer.captions.map((t) => t.language)).toEqual(['fr'])
      await expectNoAxeViolations(page)
      await dialog.getByRole('button', { name: 'Cancel' }).click()
    },
    TIMEOUT,
  )

  test(
    'says "No captions yet" once the last track is gone',
    async () => {
      const { page } = await openSignedInPage(browser, server.url, session)
      await page.goto('/dashboard/manage')
      await page.getByRole('button', { name: `Edit ${TITLE}` }).click()
      const section = page
        .getByRole('dialog', { name: 'Edit Video' })
        .getByRole('region', { name: 'Captions' })
      // The test before left the French track alone.
      const list = section.getByRole('list', { name: 'Caption tracks' })
      await list.getByRole('button', { name: 'Remove Français captions' }).click()
      await list.getByRole('button', { name: 'Remove captions' }).click()
      await section.getByText('No captions yet').waitFor()
      // Focus went to the section's heading, the buttons it was on being gone.
      expect(
        await section
          .getByRole('heading', { name: 'Captions' })
          .evaluate((el) => el === document.activeElement),
      ).toBe(true)
      await expectNoAxeViolations(page)
    },
    TIMEOUT,
  )
})

describe('a malformed file on the upload page', () => {
  test(
    "is refused with the server's line at its track's file field; a fixed file sends only itself",
    async () => {
      const { page } = await openSignedInPage(browser, server.url, session, {
        width: 1280,
        height: 900,
        allow: REFUSALS,
      })
      // Which kinds of file the page starts a tus upload of, in order.
      const started: string[] = []
      page.on('request', (request) => {
        if (
          request.method() !== 'POST' ||
          !new URL(request.url()).pathname.startsWith('/uploads')
        ) {
          return
        }
        const metadata = request.headers()['upload-metadata'] ?? ''
        const kind = /(?:^|,)kind ([^,]+)/.exec(metadata)?.[1]
        started.push(kind ? Buffer.from(kind, 'base64').toString() : '?')
      })
      await page.goto('/dashboard/upload')
      await page.getByLabel('Video Title').fill('Broken Captions')
      await page.getByLabel('Video File', { exact: true }).setInputFiles(media.mp4)
      await page.getByLabel('Thumbnail', { exact: true }).setInputFiles(media.jpg)
      await page.getByLabel('Brand Logo', { exact: true }).setInputFiles(media.png)
      const section = page.getByRole('region', { name: /Captions/ })
      await section.getByRole('button', { name: 'Add captions' }).click()
      const row = section.getByRole('group', { name: 'Track 1' })
      const file = row.getByLabel('Caption file', { exact: true })
      await file.setInputFiles(files.malformed)
      await row.getByLabel('Language', { exact: true }).fill('en')
      await row.getByLabel('Label', { exact: true }).fill('English')
      await page.getByRole('button', { name: 'Upload Video' }).click()
      const alert = row.getByRole('alert').filter({ hasText: /^Line 3: / })
      await alert.waitFor({ timeout: 30_000 })
      expect(await describedBy(file)).toContain((await alert.textContent()) ?? '-')
      expect(page.url()).toEndWith('/dashboard/upload')
      expect((await videos()).some((v) => v.slug === 'broken-captions')).toBe(false)
      await expectNoAxeViolations(page)
      expect(started.sort()).toEqual(['brandLogo', 'captions', 'thumbnail', 'video'])

      // The fixed file goes up alone; the work is made from the files sent before.
      started.length = 0
      await row.getByRole('button', { name: 'Remove caption file' }).click()
      await file.setInputFiles(files.srt)
      await page.getByRole('button', { name: 'Upload Video' }).click()
      await page.waitForURL('**/dashboard/manage', { timeout: 60_000 })
      expect(started).toEqual(['captions'])
      const made = (await videos()).find((v) => v.slug === 'broken-captions')
      expect(made?.captions.map((t) => t.label)).toEqual(['English'])
    },
    TIMEOUT,
  )
})
