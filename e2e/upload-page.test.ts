// The upload page explains itself (docs/decisions/021-the-upload-page-says-what-happens.md), in
// Chromium against the real built server, at 1280×800 and 375×667 in light and dark: every file
// field is a drop zone and a picker that states its types and limit before a file is chosen, sizes
// read in B/KB/MB/GB, one sticky progress area says how much went, how fast and how long is left, a
// cut connection reads as a paused upload that then finishes byte for byte, and an unfinished
// upload is offered again when the page is reopened and continues from where it stopped.
// Screenshots: upload-*.png.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, CDPSession, Locator, Page, Request } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type Fixtures, fixtures } from '../testkit/media.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { axeViolations, describeViolations } from './support/axe.ts'
import { openSignedInPage, type TrackedPage } from './support/browser.ts'
import { saveScreenshot, type Theme } from './support/screenshots.ts'
import { storeTheme } from './support/theme.ts'

const SIZES = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
] as const
const THEMES: Theme[] = ['light', 'dark']
const PAUSED = 'Connection lost — the upload is paused and will resume automatically'
/** Chrome logs the failed requests of a cut connection and refused files as console errors. */
const NETWORK_NOISE = [/ERR_|net::|Failed to load resource/]

let server: E2EServer
let browser: Browser
let media: Fixtures
let session: { token: string; user: Record<string, string> }
/** A real MP4 header followed by 24 MiB of random bytes: long enough to cut mid-way. */
let longVideo: string
/** A real PNG padded to exactly 40 KB. */
let logo40k: string

beforeAll(async () => {
  // No media worker: these tests are about uploads and pages, not streams, and a transcode
  // running beside them takes the CPU the browser needs.
  ;[server, browser, media] = await Promise.all([
    startServer({ MEDIA_WORKERS: '0' }),
    launchBrowser(),
    fixtures(),
  ])
  session = await server.apiLogin()
  longVideo = join(media.dir, 'long.mp4')
  writeFileSync(longVideo, Buffer.concat([readFileSync(media.mp4), randomBytes(24 * 1024 * 1024)]))
  logo40k = join(media.dir, 'logo-40k.png')
  const png = readFileSync(media.png)
  writeFileSync(logo40k, Buffer.concat([png, Buffer.alloc(40 * 1024 - png.length)]))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

beforeEach(async () => {
  const list = await api('GET', '/api/videos?page=1&limit=100')
  const ids = (list.data.videos as { _id: string }[]).map((v) => v._id)
  if (ids.length) await api('POST', '/api/videos/bulk-delete', { ids })
})

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await res.json()) as { status: string; data: Record<string, unknown> }
}

async function openUploadPage(
  size: { width: number; height: number },
  theme: Theme,
  allow: RegExp[] = [],
): Promise<TrackedPage> {
  const tracked = await openSignedInPage(browser, server.url, session, { ...size, allow })
  await storeTheme(tracked.context, theme)
  tracked.page.on('dialog', (d) => void d.accept())
  await tracked.page.goto('/dashboard/upload')
  await tracked.page.getByRole('heading', { name: 'Upload Video', level: 1 }).waitFor()
  return tracked
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true })

/** The text that the file input's aria-describedby points at (what a screen reader adds). */
const description = (page: Page, label: string) =>
  field(page, label).evaluate((input) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .join(' '),
  )

/** Presses Tab until the file field `label` has focus (at most a few times). */
async function tabTo(page: Page, label: string) {
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab')
    if (await field(page, label).evaluate((el) => el === document.activeElement)) return
  }
  throw new Error(`Tab never reached ${label}`)
}

async function expectNoAxeViolations(page: Page) {
  const violations = await axeViolations(page)
  expect(describeViolations(violations)).toBe('')
}

const sha256 = (bytes: ArrayBuffer | Buffer) =>
  createHash('sha256')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest('hex')

/** Upload throughput of the page's network (bytes per second; -1 lifts the limit), or offline. */
async function network(cdp: CDPSession, state: { upload?: number; offline?: boolean }) {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: state.offline ?? false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: state.upload ?? -1,
  })
}

/** The upload's offset as the server counts it (tus HEAD). */
async function serverOffset(uploadUrl: string) {
  const head = await fetch(new URL(uploadUrl, server.url), {
    method: 'HEAD',
    headers: { authorization: `Bearer ${session.token}`, 'tus-resumable': '1.0.0' },
  })
  return Number(head.headers.get('upload-offset'))
}

/** Waits until the server's offset of the page's stored video upload is past 0 and short of it all. */
async function serverHoldsPartOfVideo(page: Page) {
  const size = readFileSync(longVideo).length
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await Bun.sleep(20)) {
    const url = await page.evaluate(() => {
      for (const key of Object.keys(localStorage).filter((k) => k.startsWith('tus::'))) {
        const entry = JSON.parse(localStorage.getItem(key) ?? '{}')
        if (entry.metadata?.kind === 'video' && entry.uploadUrl) return entry.uploadUrl as string
      }
      return null
    })
    if (!url) continue
    const offset = await serverOffset(url)
    if (offset >= size) throw new Error('the whole video arrived before the tab could be closed')
    if (offset > 0) return
  }
  throw new Error('no part of the video reached the server within 30 s')
}

/** Whether the whole element is inside the viewport as it is scrolled now. */
const inViewport = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect()
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
  })

async function fillForm(page: Page, title: string, video = longVideo) {
  await page.getByLabel('Video Title').fill(title)
  await field(page, 'Video File').setInputFiles(video)
  await field(page, 'Thumbnail').setInputFiles(media.jpg)
  await field(page, 'Brand Logo').setInputFiles(media.png)
}

/** The stored files of the video that `videos.create` answered with, as SHA-256 by kind. */
async function storedHashes(createAnswer: string) {
  const out: Record<string, string> = {}
  for (const key of ['videoUrl', 'thumbnailUrl', 'brandLogoUrl']) {
    const url = new RegExp(`"${key}":"([^"]+)"`).exec(createAnswer)?.[1]
    if (!url) throw new Error(`no ${key} in ${createAnswer}`)
    const res = await fetch(new URL(url, server.url), {
      headers: { authorization: `Bearer ${session.token}` },
    })
    expect(res.status).toBe(200)
    out[key] = sha256(await res.arrayBuffer())
  }
  return out
}

const originalHashes = () => ({
  videoUrl: sha256(readFileSync(longVideo)),
  thumbnailUrl: sha256(readFileSync(media.jpg)),
  brandLogoUrl: sha256(readFileSync(media.png)),
})

describe('before a file is chosen', () => {
  for (const size of SIZES) {
    for (const theme of THEMES) {
      test(`types and limits, KB for a 40 KB logo, no axe violations (${size.width} px, ${theme})`, async () => {
        const { page } = await openUploadPage(size, theme)
        // Each field states what it takes, visibly and in its screen-reader description.
        const video = page.getByRole('group', { name: 'Video File' })
        await video.getByText('MP4, WebM or OGG · up to 2 GB', { exact: true }).waitFor()
        for (const label of ['Thumbnail', 'Brand Logo']) {
          await page
            .getByRole('group', { name: label })
            .getByText('JPEG, PNG or WebP · up to 10 MB', { exact: true })
            .waitFor()
        }
        expect(await description(page, 'Video File')).toContain('MP4, WebM or OGG · up to 2 GB')
        expect(await description(page, 'Brand Logo')).toContain('JPEG, PNG or WebP · up to 10 MB')
        // The native input's own text ("No file chosen") is never what a sighted user reads.
        expect(await page.getByText(/No file chosen|No …sen/).count()).toBe(0)
        await expectNoAxeViolations(page)
        await saveScreenshot(page, 'upload-idle', { theme, fullPage: true })

        await field(page, 'Brand Logo').setInputFiles(logo40k)
        const logo = page.getByRole('group', { name: 'Brand Logo' })
        await logo.getByText('logo-40k.png').waitFor()
        await logo.getByText('40 KB', { exact: true }).waitFor()
        await field(page, 'Video File').setInputFiles(longVideo)
        await video.getByText(/^24\.\d\d MB$/).waitFor()
        await field(page, 'Thumbnail').setInputFiles(media.jpg)
        await page.getByRole('img', { name: 'Thumbnail preview' }).waitFor()
        await page.getByRole('img', { name: 'Brand Logo preview' }).waitFor()
        await page.getByLabel('Video Title').fill('Files chosen')
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          size.width,
        )
        await expectNoAxeViolations(page)
        // As a user sees it: the files in view, the sticky bar below them.
        await video.getByText('long.mp4').scrollIntoViewIfNeeded()
        // Scrolled into view, a file's name and size are not under the sticky bar.
        const bar = await page.getByRole('region', { name: 'Upload status' }).boundingBox()
        const sizeBox = await video.getByText(/^24\.\d\d MB$/).boundingBox()
        expect(sizeBox!.y + sizeBox!.height).toBeLessThanOrEqual(bar!.y)
        await saveScreenshot(page, 'upload-files', { theme })
      }, 60_000)
    }
  }
})

test('a file dropped on a field is taken, with a drag-over state; the keyboard opens the picker', async () => {
  const { page } = await openUploadPage(SIZES[0], 'light')
  // Playwright turns on file-chooser interception when a listener is added, asynchronously:
  // add one now, so the keypresses below never race it.
  page.on('filechooser', () => undefined)
  const video = page.getByRole('group', { name: 'Video File' })
  // The drop target (it has no role of its own: the picker inside it is the control).
  const zone = video.locator('[data-drop-zone]')
  await video.getByText(/Drag a file here/).waitFor()
  // A real drop: a DataTransfer holding the file, dispatched as the browser would.
  const bytes = readFileSync(media.mp4).toString('base64')
  const transfer = await page.evaluateHandle((b64) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
    const dt = new DataTransfer()
    dt.items.add(new File([data], 'dropped.mp4', { type: 'video/mp4' }))
    return dt
  }, bytes)
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer })
  await zone.dispatchEvent('dragover', { dataTransfer: transfer })
  await video.getByText('Release to add this file').waitFor()
  await video
    .getByText('Release to add this file')
    .dispatchEvent('drop', { dataTransfer: transfer })
  await video.getByText('dropped.mp4').waitFor()
  await video.getByText('Release to add this file').waitFor({ state: 'detached' })
  await page.getByLabel('Video File preview').waitFor()

  // A dropped file of the wrong type gets the type's message.
  const wrong = await page.evaluateHandle(() => {
    const dt = new DataTransfer()
    dt.items.add(new File(['GIF89a'], 'anim.gif', { type: 'image/gif' }))
    return dt
  })
  const thumbZone = page.getByRole('group', { name: 'Thumbnail' }).locator('[data-drop-zone]')
  await thumbZone.dispatchEvent('dragenter', { dataTransfer: wrong })
  await thumbZone.dispatchEvent('drop', { dataTransfer: wrong })
  await page.getByText('Invalid image format. Allowed types: JPEG, PNG, WebP').waitFor()

  // Keyboard: Tab from the description reaches the file fields, each with a visible focus ring,
  // and Enter (or Space) opens the picker.
  await page.getByLabel('Description').focus()
  await page.keyboard.press('Tab')
  expect(await field(page, 'Video File').evaluate((el) => el === document.activeElement)).toBe(true)
  const ring = await video.getByText(/Drag a file here/).evaluate((el) => {
    const zoneEl = el.closest('[data-drop-zone]') as HTMLElement
    const style = getComputedStyle(zoneEl)
    return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) }
  })
  expect(ring.style).not.toBe('none')
  expect(ring.width).toBeGreaterThanOrEqual(2)
  // On to the thumbnail's field, past the video's Remove button.
  await tabTo(page, 'Thumbnail')
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.keyboard.press('Enter'),
  ])
  await chooser.setFiles(media.webp)
  await page.getByRole('group', { name: 'Thumbnail' }).getByText('thumb.webp').waitFor()
  await tabTo(page, 'Brand Logo')
  const [logoChooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.keyboard.press('Space'),
  ])
  await logoChooser.setFiles(media.png)
  await page.getByRole('group', { name: 'Brand Logo' }).getByText('logo.png').waitFor()
}, 60_000)

describe('while uploading', () => {
  const runs = [
    { size: SIZES[0], theme: 'light' as Theme, cutMs: 10_000 },
    { size: SIZES[1], theme: 'dark' as Theme, cutMs: 10_000 },
    { size: SIZES[0], theme: 'dark' as Theme, cutMs: 3000 },
    { size: SIZES[1], theme: 'light' as Theme, cutMs: 3000 },
  ]
  for (const { size, theme, cutMs } of runs) {
    test(`one sticky progress area; a ${cutMs / 1000} s cut reads as paused, then the files arrive byte for byte (${size.width} px, ${theme})`, async () => {
      const { page, context } = await openUploadPage(size, theme, NETWORK_NOISE)
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.enable')
      const title = `Sticky ${size.width} ${theme}`
      await fillForm(page, title)
      // The button is on screen before the upload starts, without scrolling.
      await page.evaluate(() => window.scrollTo(0, 0))
      expect(await inViewport(page.getByRole('button', { name: 'Upload Video' }))).toBe(true)

      await network(cdp, { upload: 2 * 1024 * 1024 })
      const created = page.waitForResponse((r) => r.url().includes('videos.create'), {
        timeout: 90_000,
      })
      await page.getByRole('button', { name: 'Upload Video' }).click()
      const button = page.getByRole('button', { name: /^Uploading\.\.\. ([1-9]\d?)%$/ })
      await button.waitFor({ timeout: 30_000 })

      // Bytes sent, speed and time left, in one area that stays on screen at either scroll end.
      const status = page.getByRole('region', { name: 'Upload status' })
      await status.getByText(/^[\d.]+ (KB|MB) of 24\.\d\d MB$/).waitFor()
      await status.getByText(/^[\d.]+ (KB|MB)\/s$/).waitFor({ timeout: 10_000 })
      await status.getByText(/left$/).waitFor({ timeout: 10_000 })
      await status.getByRole('progressbar', { name: 'Upload progress' }).waitFor()
      for (const y of [0, 100_000]) {
        await page.evaluate((top) => window.scrollTo(0, top), y)
        expect(await inViewport(status)).toBe(true)
        expect(await inViewport(button)).toBe(true)
      }
      await page.evaluate(() => window.scrollTo(0, 0))
      await saveScreenshot(page, 'upload-uploading', { theme })

      // Cut the connection: the page says the upload is paused and will resume.
      await network(cdp, { offline: true })
      await status.getByText(PAUSED).waitFor({ timeout: 15_000 })
      expect(await inViewport(status)).toBe(true)
      await saveScreenshot(page, 'upload-paused', { theme })
      // Busy, paused, the fields disabled: still no axe-core violation.
      await expectNoAxeViolations(page)
      await Bun.sleep(cutMs)
      expect(await status.getByText(PAUSED).isVisible()).toBe(true)
      await network(cdp, { upload: 8 * 1024 * 1024 })
      await status.getByText(PAUSED).waitFor({ state: 'detached', timeout: 30_000 })

      const answer = await (await created).text()
      await page.getByText('Video uploaded successfully!').waitFor({ timeout: 60_000 })
      await page.waitForURL('**/dashboard/manage')
      expect(await storedHashes(answer)).toEqual(originalHashes())
      // Nothing is left to resume.
      expect(
        await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tus::'))),
      ).toHaveLength(0)
    }, 150_000)
  }
})

test('a reopened page offers the unfinished upload; the same file continues from its offset', async () => {
  const first = await openUploadPage(SIZES[1], 'light', NETWORK_NOISE)
  const cdp = await first.context.newCDPSession(first.page)
  await cdp.send('Network.enable')
  await fillForm(first.page, 'Continued later')
  await network(cdp, { upload: 3 * 1024 * 1024 })
  await first.page.getByRole('button', { name: 'Upload Video' }).click()
  await first.page.getByRole('button', { name: /^Uploading\.\.\. \d+%$/ }).waitFor()
  // The tab is closed mid-upload: once the server holds part of the video by its own count (the
  // button's percentage is the browser's, which a busy machine can leave behind the server's).
  await serverHoldsPartOfVideo(first.page)
  await first.page.close()

  // Reopened in a new tab of the same browser profile.
  const page = await first.context.newPage()
  page.on('dialog', (d) => void d.accept())
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error' && !NETWORK_NOISE.some((re) => re.test(m.text())))
      errors.push(m.text())
  })
  const requests: Request[] = []
  page.on('request', (r) => {
    if (r.url().includes('/uploads/')) requests.push(r)
  })
  await page.goto('/dashboard/upload')
  const offer = page.getByRole('region', { name: 'Unfinished upload' })
  await offer.waitFor()
  await offer.getByText('long.mp4').waitFor()
  const line = await offer.getByRole('listitem').filter({ hasText: 'long.mp4' }).textContent()
  expect(line).toMatch(/Video File/)
  expect(line).toMatch(/[\d.]+ MB of 24\.\d\d MB \(\d+%\)/)
  const shownPercent = Number(/\((\d+)%\)/.exec(line ?? '')?.[1])
  expect(shownPercent).toBeGreaterThan(0)
  expect(shownPercent).toBeLessThan(100)
  await expectNoAxeViolations(page)

  // What the server holds for the video, as the stored fingerprint names it.
  const stored = await page.evaluate(() =>
    Object.keys(localStorage)
      .filter((k) => k.startsWith('tus::'))
      .map(
        (k) =>
          JSON.parse(localStorage.getItem(k) ?? '{}') as {
            uploadUrl: string
            metadata: Record<string, string>
          },
      ),
  )
  const videoUpload = stored.find((s) => s.metadata.kind === 'video')
  expect(videoUpload).toBeDefined()
  const offset = await serverOffset(videoUpload!.uploadUrl)
  const size = readFileSync(longVideo).length
  expect(offset).toBeGreaterThan(0)
  expect(offset).toBeLessThan(size)

  // Picking the same file says it continues, then it does: from the stored offset, not from 0.
  await page.getByLabel('Video Title').fill('Continued later')
  await field(page, 'Video File').setInputFiles(longVideo)
  await page
    .getByRole('group', { name: 'Video File' })
    .getByText(/^Continues from \d+%$/)
    .waitFor()
  await field(page, 'Thumbnail').setInputFiles(media.jpg)
  await field(page, 'Brand Logo').setInputFiles(media.png)
  const created = page.waitForResponse((r) => r.url().includes('videos.create'))
  await page.getByRole('button', { name: 'Upload Video' }).click()
  const answer = await (await created).text()
  await page.getByText('Video uploaded successfully!').waitFor({ timeout: 60_000 })
  const videoPath = new URL(videoUpload!.uploadUrl, server.url).pathname
  const patches = requests.filter(
    (r) => r.method() === 'PATCH' && new URL(r.url()).pathname === videoPath,
  )
  expect(patches.length).toBeGreaterThan(0)
  const offsets = await Promise.all(
    patches.map(async (r) => Number((await r.allHeaders())['upload-offset'])),
  )
  expect(Math.min(...offsets)).toBe(offset)
  const sent = await Promise.all(
    patches.map(async (r) => Number((await r.allHeaders())['content-length'] ?? 0)),
  )
  const total = sent.reduce((a, b) => a + b, 0)
  expect(total).toBe(size - offset)
  expect(total).toBeLessThan(size)
  expect(await storedHashes(answer)).toEqual(originalHashes())
  expect(errors).toEqual([])
}, 120_000)

test('the title and description typed so far are kept when the tab reloads', async () => {
  const { page } = await openUploadPage(SIZES[1], 'light')
  await page.getByLabel('Video Title').fill('Half-typed title')
  await page.getByLabel('Description').fill('Some words, not yet all')
  await page.reload()
  await page.getByRole('heading', { name: 'Upload Video', level: 1 }).waitFor()
  expect(await page.getByLabel('Video Title').inputValue()).toBe('Half-typed title')
  expect(await page.getByLabel('Description').inputValue()).toBe('Some words, not yet all')
}, 30_000)
