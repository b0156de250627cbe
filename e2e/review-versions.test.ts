// The review page's version switcher in Chromium (docs/review.md#versions): a work with two ready
// versions (the server's own worker made them); the client on its review link sees the current
// version by default, switches to the first one, which plays its own streams, sees the notes made
// on it and adds one there; the admin's review page does the same with its Version filter. Once
// the first version is deleted its notes stay, listed as "Version 1 (deleted)" with nothing to
// play. Both pages pass axe.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type Fixtures, fixtures } from '../testkit/media.ts'
import { makeClip } from '../testkit/pipeline.ts'
import { pollUntil } from '../testkit/poll.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { uploadVideo } from '../testkit/upload.ts'
import { axeViolations, describeViolations } from './support/axe.ts'
import { openPage, openSignedInPage } from './support/browser.ts'

const TITLE = 'Harbour Lights'

let server: E2EServer
let browser: Browser
let f: Fixtures
let dir: string
let session: Awaited<ReturnType<E2EServer['apiLogin']>>
let work: { _id: string; hlsUrl: string }
let linkPath: string
let folders: { first: string; second: string }
let versionIds: { first: string; second: string }

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${session.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  // biome-ignore lint/suspicious/noExplicitAny: answers of several shapes
  return { status: res.status, json: (await res.json()) as any }
}
/**
 * Opens the link's page with its own script held back, as on a slow line: the server's markup is
 * there and nothing of React is live until the returned release.
 */
async function openBeforeLive(page: Page): Promise<() => void> {
  const held = Promise.withResolvers<void>()
  await page.route(/\/assets\/review-page-[^/]+\.js$/, async (route) => {
    await held.promise
    await route.continue()
  })
  await page.goto(linkPath, { waitUntil: 'domcontentloaded' })
  return () => held.resolve()
}

/** The stream folder an address names: plain, signed, or under a review link. */
const folderOf = (url: string) => /\/([0-9a-f]{32})\//.exec(url)?.[1] ?? ''

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'review-versions-e2e-'))
  ;[server, f, browser] = await Promise.all([startServer(), fixtures(), launchBrowser()])
  const second = await makeClip(dir, 'second-cut.mp4', { seconds: 3, width: 320, height: 180 })
  session = await server.apiLogin()
  const uploaded = await uploadVideo(server.url, session.token, TITLE, f)
  work = await pollUntil(
    async () => (await api('GET', `/api/videos/${uploaded._id}`)).json.data.video,
    (video) => video.status === 'ready',
    { what: 'the first version processed', timeoutMs: 120_000, show: (v) => v.status },
  )
  const link = await api('POST', `/api/videos/${work._id}/links`, { note: 'For the client' })
  linkPath = new URL(link.json.data.link.url).pathname
  // A note the client left on the first cut, before the second existed.
  const note = await fetch(`${server.url}${linkPath}/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ at: 0.5, text: 'Logo too small in the first cut', name: 'Ada' }),
  })
  expect(note.status).toBe(201)

  const body = new FormData()
  body.set('video', Bun.file(second), 'second-cut.mp4')
  const added = await fetch(`${server.url}/api/videos/${work._id}/versions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token}` },
    body,
  })
  expect(added.status).toBe(201)
  const versions = await pollUntil(
    async () => (await api('GET', `/api/videos/${work._id}/versions`)).json.data.versions,
    (list: { _id: string; number: number; current: boolean }[]) =>
      list.some((v) => v.number === 2 && v.current),
    { what: 'the second version current', timeoutMs: 120_000 },
  )
  versionIds = { first: versions[0]!._id, second: versions[1]!._id }
  const now = (await api('GET', `/api/videos/${work._id}`)).json.data.video
  folders = { first: folderOf(work.hlsUrl), second: folderOf(now.hlsUrl) }
  expect(folders.first).not.toBe(folders.second)
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

/** The stream folders a page asks for while it plays. */
function watchMedia(page: Page): Set<string> {
  const seen = new Set<string>()
  page.on('request', (request) => {
    const folder = folderOf(new URL(request.url()).pathname)
    if (folder) seen.add(folder)
  })
  return seen
}

/** The length of what the page's player holds, once it knows it. */
async function durationShown(page: Page, selector: string): Promise<number> {
  await page.waitForFunction(
    (sel) => Number.isFinite((document.querySelector(sel) as HTMLVideoElement | null)?.duration),
    selector,
    { timeout: 30_000 },
  )
  return page.evaluate(
    (sel) => (document.querySelector(sel) as HTMLVideoElement).duration,
    selector,
  )
}

const playing = (page: Page, beyond: number) =>
  page.waitForFunction(
    ([title, at]) =>
      ((document.querySelector(`video[aria-label="${title}"]`) as HTMLVideoElement | null)
        ?.currentTime ?? 0) > (at as number),
    [TITLE, beyond] as const,
    { timeout: 30_000 },
  )

test('the client switches to the first version: it plays its own streams, with its own notes', async () => {
  const { page } = await openPage(browser, { baseURL: server.url })
  const seen = watchMedia(page)
  await page.goto(linkPath)
  await page.getByRole('heading', { level: 1, name: TITLE }).waitFor()
  const switcher = page.getByLabel('Version', { exact: true })
  expect(await switcher.inputValue()).toBe(versionIds.second)
  // The current version has no notes yet; the first cut's note is not beside its player.
  await page.getByText('No notes yet on version 2.').waitFor()
  expect(await page.getByText('Logo too small in the first cut').count()).toBe(0)
  await page.getByRole('button', { name: `Play ${TITLE}` }).click()
  await playing(page, 0.3)
  expect([...seen]).toEqual([folders.second])
  expect(await durationShown(page, `video[aria-label="${TITLE}"]`)).toBeGreaterThan(2)

  // The player was playing: the first cut plays at once, from its own streams under the link.
  seen.clear()
  await switcher.selectOption({ label: 'Version 1' })
  await page.getByText('Not the current version.').waitFor()
  const old = page.locator('li[data-note]', { hasText: 'Logo too small in the first cut' })
  await old.waitFor()
  const markers = page
    .getByRole('list', { name: 'Note markers on the timeline' })
    .getByRole('button')
  expect(await markers.count()).toBe(1)
  await old.getByRole('button', { name: 'Play from 0:00' }).click()
  await page.waitForFunction(
    (title) => {
      const video = document.querySelector(`video[aria-label="${title}"]`) as HTMLVideoElement
      return !!video && video.readyState >= 2
    },
    TITLE,
    { timeout: 30_000 },
  )
  expect([...seen]).toContain(folders.first)
  // The player holds the first cut (about a second long; the second runs three).
  expect(await durationShown(page, `video[aria-label="${TITLE}"]`)).toBeLessThan(2)

  // A note made now is on version 1.
  await page.getByRole('button', { name: 'Add a note' }).click()
  await page.getByLabel('Your name').fill('Ada')
  await page.getByLabel('Start').fill('0:00')
  await page.getByLabel('Note', { exact: true }).fill('Colour too warm in the first cut')
  await page.getByRole('button', { name: 'Add note' }).click()
  await page.locator('li[data-note]', { hasText: 'Colour too warm in the first cut' }).waitFor()
  expect(await markers.count()).toBe(2)
  const onFirst = (await api('GET', `/api/videos/${work._id}/notes?version=1`)).json.data.notes
  expect(onFirst.map((n: { text: string }) => n.text).sort()).toEqual([
    'Colour too warm in the first cut',
    'Logo too small in the first cut',
  ])
  expect(describeViolations(await axeViolations(page))).toBe('')

  // Back on the current version: its own (no) notes again.
  await switcher.selectOption({ label: 'Version 2 (current)' })
  await page.getByText('No notes yet on version 2.').waitFor()
  expect(await page.locator('li[data-note]').count()).toBe(0)
}, 120_000)

test('on a phone, by keyboard before the page is live: the switcher above the player, the first version’s notes below it', async () => {
  const { page } = await openPage(browser, { baseURL: server.url, width: 375, height: 667 })
  // The key lands in the server's markup with nothing of React listening yet, and the page takes
  // the choice up once it is live.
  const release = await openBeforeLive(page)
  const switcher = page.getByLabel('Version', { exact: true })
  await switcher.focus()
  // A select moves its choice with the arrow keys: one down, from version 2 to version 1.
  await page.keyboard.press('ArrowDown')
  expect(await switcher.inputValue()).toBe(versionIds.first)
  expect(await page.evaluate(() => document.querySelector('[data-note]') === null)).toBe(true)
  release()
  await page.locator('li[data-note]', { hasText: 'Logo too small in the first cut' }).waitFor()
  expect(await switcher.inputValue()).toBe(versionIds.first)
  await page.getByText('Not the current version.').waitFor()
  const box = await switcher.boundingBox()
  expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true)
  // The notes sit below the player on a phone.
  const player = await page.getByRole('button', { name: `Play ${TITLE}` }).boundingBox()
  const panel = await page.getByRole('heading', { name: /^Notes/ }).boundingBox()
  expect(panel!.y).toBeGreaterThan(player!.y + player!.height)
  expect(describeViolations(await axeViolations(page))).toBe('')
}, 120_000)

test('a tap on the player before the page is live plays once it is (the click is held, not lost)', async () => {
  const { page } = await openPage(browser, { baseURL: server.url, width: 375, height: 667 })
  const release = await openBeforeLive(page)
  await page.getByRole('button', { name: `Play ${TITLE}` }).click()
  release()
  await page.waitForFunction(
    () => {
      const video = document.querySelector('video')
      return !!video && video.readyState >= 2 && video.currentTime > 0 && !video.paused
    },
    null,
    { timeout: 30_000 },
  )
}, 120_000)

test('the admin’s review page: the current version by default, the first one with its markers', async () => {
  const { page } = await openSignedInPage(browser, server.url, session)
  const seen = watchMedia(page)
  await page.goto(`/dashboard/videos/${work._id}/review`)
  await page.getByRole('heading', { name: `Review: ${TITLE}` }).waitFor()
  // The select sits in its label, whose name then reads its chosen option too.
  const filter = page.getByRole('combobox', { name: /^Version/ })
  expect(await filter.inputValue()).toBe('2')
  await page.getByText('No notes here yet.').waitFor()

  seen.clear()
  await filter.selectOption({ label: 'Version 1' })
  const card = page.locator('li[data-note]', { hasText: 'Logo too small in the first cut' })
  await card.getByText('Version 1 · via “For the client”').waitFor()
  const markers = page
    .getByRole('list', { name: 'Note markers on the timeline' })
    .getByRole('button')
  expect(await markers.count()).toBe(2)
  await card.getByRole('button', { name: 'Play from 0:00' }).click()
  await page.evaluate(() => document.querySelector('video')?.play())
  await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, null, {
    timeout: 30_000,
  })
  expect([...seen]).toContain(folders.first)
  expect(await durationShown(page, 'video')).toBeLessThan(2)
  expect(describeViolations(await axeViolations(page))).toBe('')
}, 120_000)

test('once the first version is deleted its notes stay, as “Version 1 (deleted)”, with nothing to play', async () => {
  const removed = await api('DELETE', `/api/videos/${work._id}/versions/${versionIds.first}`)
  expect(removed.status).toBe(200)

  const { page } = await openPage(browser, { baseURL: server.url })
  await page.goto(linkPath)
  await page.getByRole('heading', { level: 1, name: TITLE }).waitFor()
  // One version left: nothing to switch.
  await page.getByText('No notes yet on version 2.').waitFor()
  expect(await page.getByLabel('Version', { exact: true }).count()).toBe(0)
  const kept = page.getByRole('list', { name: 'Notes on Version 1 (deleted)' })
  await kept.getByText('Logo too small in the first cut').waitFor()
  await kept.getByText('Colour too warm in the first cut').waitFor()
  await page.getByRole('heading', { name: 'Version 1 (deleted)' }).waitFor()
  expect(await kept.getByRole('button', { name: /^Play from/ }).count()).toBe(0)
  expect(
    await page
      .getByRole('list', { name: 'Note markers on the timeline' })
      .getByRole('button')
      .count(),
  ).toBe(0)
  expect(describeViolations(await axeViolations(page))).toBe('')

  const admin = await openSignedInPage(browser, server.url, session)
  await admin.page.goto(`/dashboard/videos/${work._id}/review`)
  await admin.page.getByRole('heading', { name: `Review: ${TITLE}` }).waitFor()
  await admin.page
    .getByRole('combobox', { name: /^Version/ })
    .selectOption({ label: 'Version 1 (deleted)' })
  await admin.page
    .getByText('Version 1 was deleted: its notes are kept, with nothing to play.')
    .waitFor()
  const card = admin.page.locator('li[data-note]', { hasText: 'Logo too small in the first cut' })
  await card.getByText('Version 1 (deleted) · via “For the client”').waitFor()
  expect(await admin.page.locator('video').count()).toBe(0)
}, 120_000)
