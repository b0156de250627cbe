// The video screens of the dashboard in Chromium against the real built server: upload over tus
// (progress, validation, resuming), Manage (edit, delete, bulk delete, pagination, player),
// the overview count, and the small-screen layout.
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type Fixtures, fixtures } from '../testkit/media.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { openSignedInPage } from './support/browser.ts'

let server: E2EServer
let browser: Browser
let media: Fixtures
let session: { token: string; user: Record<string, string> }

beforeAll(async () => {
  // No media worker: these tests are about uploads and pages, not streams, and a transcode
  // running beside them takes the CPU the browser needs.
  ;[server, browser, media] = await Promise.all([
    startServer({ MEDIA_WORKERS: '0' }),
    launchBrowser(),
    fixtures(),
  ])
  session = await server.apiLogin()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

beforeEach(async () => {
  await deleteAllVideos()
})

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await res.json()) as { status: string; data: Record<string, unknown> }
}

async function deleteAllVideos() {
  const { data } = await api('GET', '/api/videos?page=1&limit=100')
  const ids = (data.videos as { _id: string }[]).map((v) => v._id)
  if (ids.length) await api('POST', '/api/videos/bulk-delete', { ids })
}

/** Creates videos through the REST multipart upload, oldest first. */
async function seedVideos(titles: string[]) {
  const out: { _id: string; title: string; thumbnailUrl: string }[] = []
  for (const title of titles) {
    const form = new FormData()
    form.set('title', title)
    form.set('description', `About ${title}`)
    form.set('video', Bun.file(media.mp4), 'clip.mp4')
    form.set('thumbnail', Bun.file(media.jpg), 'thumb.jpg')
    form.set('brandLogo', Bun.file(media.png), 'logo.png')
    const res = await fetch(`${server.url}/api/videos/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}` },
      body: form,
    })
    const json = (await res.json()) as { data: { video: (typeof out)[number] } }
    if (!res.ok) throw new Error(`seed failed: ${res.status} ${JSON.stringify(json)}`)
    out.push(json.data.video)
  }
  return out
}

/** A page already signed in as the owner (auth-storage set before the app starts). */
const signedIn = (opts: { width?: number; height?: number; allow?: RegExp[] } = {}) =>
  openSignedInPage(browser, server.url, session, opts)

const row = (page: Page, title: string) => page.getByRole('row').filter({ hasText: title })

test('the overview shows the total count; an empty Manage shows the empty state', async () => {
  await seedVideos(['Overview one', 'Overview two'])
  const { page } = await signedIn()
  await page.goto('/dashboard')
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor()
  const card = page.getByRole('region', { name: 'Summary' })
  await card.getByText('2', { exact: true }).waitFor()
  await deleteAllVideos()
  await page.goto('/dashboard/manage')
  await page.getByRole('heading', { name: 'No Videos Yet' }).waitFor()
  await page
    .getByText('Get started by uploading your first video. Your uploaded videos will appear here.')
    .waitFor()
  await page.getByRole('link', { name: 'Upload Video' }).last().click()
  await page.waitForURL('**/dashboard/upload')
}, 60_000)

test('every upload validation message, and the live title check', async () => {
  await seedVideos(['Existing Title'])
  const { page } = await signedIn()
  await page.goto('/dashboard/upload')
  const submit = page.getByRole('button', { name: 'Upload Video' })
  await submit.click()
  for (const message of [
    'Title is required',
    'Video file is required',
    'Thumbnail is required',
    'Brand Logo is required',
  ]) {
    await page.getByText(message, { exact: true }).waitFor()
  }

  // Wrong types.
  await page.getByLabel('Video File', { exact: true }).setInputFiles(media.png)
  await page.getByText('Invalid video format. Allowed types: MP4, WebM, OGG').waitFor()
  await page.getByLabel('Thumbnail', { exact: true }).setInputFiles({
    name: 'anim.gif',
    mimeType: 'image/gif',
    buffer: Buffer.from('GIF89a'),
  })
  await page.getByText('Invalid image format. Allowed types: JPEG, PNG, WebP').waitFor()
  expect(await submit.isDisabled()).toBe(true)

  // Too large: a sparse 2 GiB + 1 byte file costs no disk, and buffers just over 10 MB.
  const big = join(media.dir, 'huge.mp4')
  const fd = Bun.file(big)
  await Bun.write(fd, '')
  const { truncateSync } = await import('node:fs')
  truncateSync(big, 2 * 1024 ** 3 + 1)
  await page.getByLabel('Video File', { exact: true }).setInputFiles(big)
  await page.getByText('Video size must be less than 2GB').waitFor()
  await page.getByLabel('Thumbnail', { exact: true }).setInputFiles({
    name: 'big.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
  })
  await page.getByText('Thumbnail size must be less than 10MB').waitFor()
  await page.getByLabel('Brand Logo', { exact: true }).setInputFiles({
    name: 'big.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(10_000_001),
  })
  await page.getByText('Brand logo size must be less than 10MB').waitFor()

  // Good files show previews with name and size; removing the video says it is required.
  await page.getByLabel('Video File', { exact: true }).setInputFiles(media.mp4)
  await page.getByText('clip.mp4').waitFor()
  await page
    .getByText(/^\d+\.\d\d MB$/)
    .first()
    .waitFor()
  await page.getByRole('button', { name: 'Remove video file' }).click()
  await page.getByText('Video is required', { exact: true }).waitFor()

  // Live title check, debounced.
  await page.getByLabel('Video Title').fill('existing title')
  await page.getByText('Title already exists').waitFor()
  await page.getByLabel('Video Title').fill('A fresh title')
  await page.getByText('Title already exists').waitFor({ state: 'detached' })
}, 60_000)

test('an upload goes up over tus with progress to 100 % and appears in Manage', async () => {
  const { page } = await signedIn()
  await page.goto('/dashboard/upload')
  await page.getByLabel('Video Title').fill('  Fresh upload  ')
  await page.getByLabel('Description').fill('Made in a test')
  await page.getByLabel('Video File', { exact: true }).setInputFiles(media.mp4)
  await page.getByLabel('Thumbnail', { exact: true }).setInputFiles(media.jpg)
  await page.getByLabel('Brand Logo', { exact: true }).setInputFiles(media.png)
  await page.getByRole('img', { name: 'Thumbnail preview' }).waitFor()
  await page.getByRole('img', { name: 'Brand Logo preview' }).waitFor()

  // Record every progress value the bar shows.
  await page.evaluate(() => {
    const seen: number[] = []
    ;(window as unknown as { progress: number[] }).progress = seen
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]')
      if (bar) seen.push(Number(bar.getAttribute('aria-valuenow')))
    }).observe(document.body, { subtree: true, childList: true, attributes: true })
  })
  const tusPosts: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/uploads/') && r.method() === 'POST') tusPosts.push(r.url())
  })
  await page.getByRole('button', { name: 'Upload Video' }).click()
  await page.getByText('Video uploaded successfully!').waitFor()
  await page.waitForURL('**/dashboard/manage')
  const seen = await page.evaluate(() => (window as unknown as { progress: number[] }).progress)
  expect(Math.max(...seen)).toBe(100)
  expect(tusPosts).toHaveLength(3)
  await row(page, 'Fresh upload').waitFor()
}, 60_000)

test('an interrupted upload resumes from where it stopped, also after a reload', async () => {
  // A real MP4 header followed by padding: big enough to interrupt mid-way.
  const bigPath = join(media.dir, 'long.mp4')
  writeFileSync(bigPath, Buffer.concat([readFileSync(media.mp4), Buffer.alloc(24 * 1024 * 1024)]))
  const { page, context } = await signedIn({ allow: [/ERR_|net::/] })
  page.on('dialog', (d) => void d.accept())
  const cdp = await context.newCDPSession(page)
  const throttle = (bytesPerSecond: number) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    })
  await cdp.send('Network.enable')
  await page.goto('/dashboard/upload')
  const fill = async () => {
    await page.getByLabel('Video Title').fill('Resumed upload')
    await page.getByLabel('Video File', { exact: true }).setInputFiles(bigPath)
    await page.getByLabel('Thumbnail', { exact: true }).setInputFiles(media.jpg)
    await page.getByLabel('Brand Logo', { exact: true }).setInputFiles(media.png)
  }
  await fill()
  await throttle(3 * 1024 * 1024)
  await page.getByRole('button', { name: 'Upload Video' }).click()
  await page
    .getByRole('button', { name: /Uploading\.\.\. ([2-9]\d)%/ })
    .waitFor({ timeout: 20_000 })

  // Interrupt: reload the page mid-upload. The fingerprint stays in localStorage.
  await page.reload()
  const fingerprints = await page.evaluate(() =>
    Object.keys(localStorage).filter((k) => k.startsWith('tus::')),
  )
  expect(fingerprints.length).toBeGreaterThan(0)
  await throttle(-1)

  const heads: number[] = []
  page.on('response', (r) => {
    if (r.request().method() === 'HEAD' && r.url().includes('/uploads/')) {
      heads.push(Number(r.headers()['upload-offset'] ?? 0))
    }
  })
  await fill()
  await page.getByRole('button', { name: 'Upload Video' }).click()
  await page.getByText('Video uploaded successfully!').waitFor({ timeout: 30_000 })
  expect(Math.max(...heads)).toBeGreaterThan(1024 * 1024)
  await row(page, 'Resumed upload').waitFor()
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tus::'))),
  ).toHaveLength(0)
}, 90_000)

test('edit: metadata only, no changes, then a new thumbnail', async () => {
  await seedVideos(['Edit me'])
  const { page } = await signedIn()
  const updates: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('videos.update')) updates.push(r.postData() ?? '')
  })
  await page.goto('/dashboard/manage')
  await row(page, 'Edit me').waitFor()
  await page.getByRole('button', { name: 'Edit Edit me' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit Video' })
  await dialog.waitFor()
  // The sidebar and header hide while editing.
  expect(await page.getByRole('navigation', { name: 'Dashboard' }).count()).toBe(0)
  expect(await page.getByRole('button', { name: /User menu/ }).count()).toBe(0)
  const title = dialog.getByLabel('Video Title')
  expect(await title.inputValue()).toBe('Edit me')
  const save = dialog.getByRole('button', { name: 'Update Video' })
  expect(await save.isDisabled()).toBe(true)

  // Only whitespace changed: trimmed, it is the same.
  await title.fill('Edit me ')
  await save.click()
  await page.getByText('No changes detected').waitFor()
  expect(updates).toHaveLength(0)

  await title.fill('Ed')
  await save.click()
  await dialog.getByText('Title must be at least 3 characters').waitFor()
  await title.fill('Edited title')
  await dialog.getByLabel('Description').fill('  New words  ')
  await save.click()
  await page.getByText('Video updated successfully').waitFor()
  await dialog.waitFor({ state: 'detached' })
  await row(page, 'Edited title').waitFor()
  expect(updates).toHaveLength(1)
  expect(updates[0]).toContain('"title":"Edited title"')
  expect(updates[0]).toContain('"description":"New words"')
  expect(updates[0]).not.toContain('uploads')
  await page.getByRole('navigation', { name: 'Dashboard' }).waitFor()

  // A new thumbnail goes up over tus and only that file is sent.
  const before = await row(page, 'Edited title').locator('img').getAttribute('src')
  await page.getByRole('button', { name: 'Edit Edited title' }).click()
  await dialog.getByLabel('Thumbnail', { exact: true }).setInputFiles(media.webp)
  await dialog.getByRole('button', { name: 'Update Video' }).click()
  await page.getByText('Video updated successfully').first().waitFor()
  await dialog.waitFor({ state: 'detached' })
  const last = updates.at(-1) ?? ''
  expect(last).toContain('"thumbnail"')
  expect(last).not.toContain('"video":"')
  const thumbSrc = () => row(page, 'Edited title').locator('img').getAttribute('src')
  for (let i = 0; i < 50 && (await thumbSrc()) === before; i++) await Bun.sleep(100)
  expect(await thumbSrc()).not.toBe(before)
}, 60_000)

test('single delete and bulk delete, with counts', async () => {
  await seedVideos(['Keep A', 'Gone B', 'Gone C', 'Gone D'])
  const { page } = await signedIn()
  await page.goto('/dashboard/manage')
  const stats = page.getByRole('region', { name: 'Video statistics' })
  await stats.getByText('4', { exact: true }).waitFor()

  await page.getByRole('button', { name: 'Delete Gone B' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete Video' })
  await confirm.getByText('Are you sure you want to delete "Gone B"?', { exact: false }).waitFor()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await confirm.waitFor({ state: 'detached' })
  await row(page, 'Gone B').waitFor({ state: 'detached' })
  await stats.getByText('3', { exact: true }).waitFor()

  await page.getByRole('checkbox', { name: 'Select Gone C' }).check()
  await page.getByRole('checkbox', { name: 'Select Gone D' }).check()
  await page.getByRole('button', { name: 'Delete Selected (2)' }).click()
  const bulk = page.getByRole('alertdialog', { name: 'Delete Selected Videos (2)' })
  await bulk.getByText(/delete 2 selected videos/).waitFor()
  // Escape and Cancel close it; focus goes back to the opener.
  await page.keyboard.press('Escape')
  await bulk.waitFor({ state: 'detached' })
  expect(
    await page.evaluate(() => document.activeElement?.textContent?.includes('Delete Selected')),
  ).toBe(true)
  await page.getByRole('button', { name: 'Delete Selected (2)' }).click()
  await bulk.getByRole('button', { name: 'Delete' }).click()
  await page.getByText('Selected videos deleted successfully').waitFor()
  await row(page, 'Gone C').waitFor({ state: 'detached' })
  await row(page, 'Gone D').waitFor({ state: 'detached' })
  await row(page, 'Keep A').waitFor()
  await stats.getByText('1', { exact: true }).first().waitFor()

  // Select All / Deselect All.
  await page.getByRole('button', { name: 'Select All' }).click()
  expect(await page.getByRole('checkbox', { name: 'Select Keep A' }).isChecked()).toBe(true)
  await page.getByRole('button', { name: 'Deselect All' }).click()
  expect(await page.getByRole('checkbox', { name: 'Select Keep A' }).isChecked()).toBe(false)
  expect(await page.getByRole('button', { name: /Delete Selected/ }).count()).toBe(0)
}, 60_000)

test('pagination across pages, and the player modal', async () => {
  const titles = Array.from({ length: 12 }, (_, i) => `Reel ${String(i + 1).padStart(2, '0')}`)
  await seedVideos(titles)
  const { page } = await signedIn()
  await page.goto('/dashboard/manage')
  const pager = page.getByRole('navigation', { name: 'Pagination' })
  await pager.getByText('Page 1 of 2').waitFor()
  expect(await pager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true)
  expect(await page.getByRole('row').count()).toBe(11)
  // Newest first: Reel 12 … Reel 03 on page 1.
  await row(page, 'Reel 12').waitFor()
  await pager.getByRole('button', { name: 'Page 2' }).click()
  await pager.getByText('Page 2 of 2').waitFor()
  await row(page, 'Reel 01').waitFor()
  expect(await page.getByRole('row').count()).toBe(3)
  expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true)
  await row(page, 'Reel 01').getByText('12', { exact: true }).waitFor()
  // The page is kept in video-store across a reload.
  await page.reload()
  await pager.getByText('Page 2 of 2').waitFor()
  await pager.getByRole('button', { name: 'Previous' }).click()
  await pager.getByText('Page 1 of 2').waitFor()

  const play = page.getByRole('button', { name: 'Play Reel 12' })
  await play.click()
  const player = page.getByRole('dialog', { name: 'Reel 12' })
  await player.waitFor()
  const video = player.locator('video')
  expect(await video.getAttribute('controlslist')).toBe('nodownload')
  expect(await video.getAttribute('poster')).toContain('/media/')
  expect(await video.evaluate((v: HTMLVideoElement) => v.autoplay && v.controls)).toBe(true)
  await page.keyboard.press('Escape')
  await player.waitFor({ state: 'detached' })
  expect(await play.evaluate((el) => el === document.activeElement)).toBe(true)
}, 90_000)

test('small screens: Manage uses cards and Previous/Next only, without sideways scrolling', async () => {
  await seedVideos(Array.from({ length: 11 }, (_, i) => `Phone ${i + 1}`))
  const { page } = await signedIn({ width: 375, height: 740 })
  await page.goto('/dashboard/manage')
  await page.getByRole('heading', { name: 'Videos', exact: true }).waitFor()
  expect(await page.getByRole('table').count()).toBe(0)
  await page.getByRole('listitem').filter({ hasText: 'Phone 11' }).waitFor()
  const pager = page.getByRole('navigation', { name: 'Pagination' })
  expect(await pager.getByText('Page 1 of 2').isVisible()).toBe(false)
  await pager.getByRole('button', { name: 'Next' }).click()
  await page.getByRole('listitem').filter({ hasText: 'Phone 1' }).first().waitFor()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await page.screenshot({ path: join(media.dir, 'manage-375.png'), fullPage: true })
}, 60_000)
