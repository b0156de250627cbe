// Clients' notes in Chromium at 1280 and 375 px (docs/review.md): a client on a review link
// starts a note while the work plays (the player pauses, the note takes its time), adds two notes
// (one over a range), sees a marker for each on the timeline, and choosing a note (in the list or
// on the strip, by keyboard) seeks the player there. The admin's review page, open meanwhile,
// shows them without a reload; the admin replies and resolves; the client sees the reply after a
// reload. Both pages pass axe.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { pollUntil } from '../testkit/poll.ts'
import { makeSampleMedia, seedVideos } from '../testkit/sample-videos.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { axeViolations, describeViolations } from './support/axe.ts'
import { openPage, openSignedInPage } from './support/browser.ts'
import { saveScreenshot } from './support/screenshots.ts'

let server: E2EServer
let browser: Browser
let dir: string
let session: { token: string; user: Record<string, string> }
let work: { _id: string; title: string; duration: number }

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${session.token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
  // biome-ignore lint/suspicious/noExplicitAny: answers of several shapes
  return { status: res.status, json: (await res.json()) as any }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'review-notes-e2e-'))
  const [started, samples, launched] = await Promise.all([
    startServer(),
    makeSampleMedia(dir, 1),
    launchBrowser(),
  ])
  server = started
  browser = launched
  session = await server.apiLogin()
  await seedVideos(server.url, session.token, samples)
  const listed = await api('GET', '/api/videos?page=1&limit=10')
  const id = listed.json.data.videos[0]._id
  // A hidden work: its links keep working, notes included.
  expect((await api('PUT', `/api/videos/${id}/published`, { published: false })).status).toBe(200)
  work = await pollUntil(
    async () => (await api('GET', `/api/videos/${id}`)).json.data.video,
    (video) => video.status === 'ready',
    {
      what: 'the work processed',
      timeoutMs: 200_000,
      failed: (video) => video.status === 'failed',
      show: (video) => video.status,
    },
  )
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

const currentTime = (page: Page, title: string) =>
  page.evaluate(
    (t) => (document.querySelector(`video[aria-label="${t}"]`) as HTMLVideoElement).currentTime,
    title,
  )

/** Waits until the page's player stands between `from` and `to` seconds. */
const seekedTo = (page: Page, title: string, from: number, to: number) =>
  page.waitForFunction(
    ([t, a, b]) => {
      const video = document.querySelector(`video[aria-label="${t}"]`) as HTMLVideoElement | null
      return !!video && video.currentTime >= (a as number) && video.currentTime < (b as number)
    },
    [title, from, to] as const,
    { timeout: 20_000 },
  )

describe.each([
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
])('at $width px', ({ width, height }) => {
  test('a client adds two notes and seeks by them; the admin sees them live, replies and resolves; the client sees the reply', async () => {
    const made = await api('POST', `/api/videos/${work._id}/links`, { note: `Client at ${width}` })
    expect(made.status).toBe(201)
    const linkPath = new URL(made.json.data.link.url).pathname

    // The admin's review page is open before any note exists.
    const admin = await openSignedInPage(browser, server.url, session, { width, height })
    await admin.page.goto(`/dashboard/videos/${work._id}/review`)
    await admin.page.getByRole('heading', { name: `Review: ${work.title}` }).waitFor()

    const { page } = await openPage(browser, { baseURL: server.url, width, height })
    await page.goto(linkPath)
    await page.getByRole('heading', { level: 1, name: work.title }).waitFor()
    await page.getByText('No notes yet.').waitFor()

    // Playing, then starting a note: the player pauses and the note takes its time.
    await page.getByRole('button', { name: `Play ${work.title}` }).click()
    await seekedTo(page, work.title, 1.2, 60)
    await page.getByRole('button', { name: 'Add a note' }).click()
    const paused = await page.evaluate(
      (t) => (document.querySelector(`video[aria-label="${t}"]`) as HTMLVideoElement).paused,
      work.title,
    )
    expect(paused).toBe(true)
    const taken = Math.floor(await currentTime(page, work.title))
    await page.getByText(`Note at 0:0${taken}`).waitFor()
    // Adjusted by hand, then a range.
    await page.getByLabel('Your name').fill('Ada')
    await page.getByLabel('Start').fill('0:03')
    await page.getByText('Note at 0:03').waitFor()
    await page.getByLabel('Note', { exact: true }).fill(`Music should swell (${width})`)
    await page.getByRole('button', { name: 'Add note' }).click()
    await page.locator('li[data-note]', { hasText: `Music should swell (${width})` }).waitFor()

    await page.getByRole('button', { name: 'Add a note' }).click()
    // The name was asked once: this device remembers it for the link.
    expect(await page.getByLabel('Your name').count()).toBe(0)
    await page.getByLabel('Start').fill('0:06')
    await page.getByLabel('End (optional)').fill('0:09')
    await page.getByLabel('Note', { exact: true }).fill(`Logo <b>sting</b> too loud (${width})`)
    await page.getByRole('button', { name: 'Add note' }).click()
    // Text stays text: the angle brackets are shown, nothing is bold.
    await page
      .locator('li[data-note]', { hasText: `Logo <b>sting</b> too loud (${width})` })
      .waitFor()
    expect(await page.locator('main b').count()).toBe(0)

    // A marker for each note along the timeline, named for screen readers.
    const strip = page.getByRole('list', { name: 'Note markers on the timeline' })
    const markers = strip.getByRole('button')
    expect(await markers.count()).toBe(2)
    expect(await markers.nth(0).getAttribute('aria-label')).toBe(
      `Note by Ada at 0:03: Music should swell (${width})`,
    )
    expect(await markers.nth(1).getAttribute('aria-label')).toContain('Note by Ada at 0:06–0:09')

    // Choosing a note in the list seeks there; so does a marker reached by keyboard.
    await page.getByRole('button', { name: 'Play from 0:06–0:09' }).click()
    await seekedTo(page, work.title, 6, 8)
    await markers.nth(0).focus()
    await page.keyboard.press('Enter')
    await seekedTo(page, work.title, 3, 5)
    expect(describeViolations(await axeViolations(page))).toBe('')
    await saveScreenshot(page, 'review-notes-client', { theme: 'dark', fullPage: true })

    // The admin's page shows both within 5 s, without a reload, with the link they came through.
    const started = performance.now()
    await admin.page.getByText(`Music should swell (${width})`).waitFor({ timeout: 5000 })
    await admin.page.getByText(`Logo <b>sting</b> too loud (${width})`).waitFor({ timeout: 5000 })
    expect(performance.now() - started).toBeLessThan(5000)
    const card = admin.page.locator('li[data-note]', { hasText: `Music should swell (${width})` })
    await card.getByText(`via “Client at ${width}”`).waitFor()
    expect(
      await admin.page
        .getByRole('list', { name: 'Note markers on the timeline' })
        .getByRole('button')
        .count(),
    ).toBeGreaterThanOrEqual(2)
    expect(describeViolations(await axeViolations(admin.page))).toBe('')

    await card.getByRole('textbox').fill(`Swell fixed in v2 (${width})`)
    await card.getByRole('button', { name: 'Reply to Ada' }).click()
    await card.getByText(`Swell fixed in v2 (${width})`).waitFor()
    await card.getByRole('button', { name: /^Resolve/ }).click()
    await card.getByText('Resolved by owner').waitFor()
    await card.getByRole('button', { name: /^Reopen/ }).waitFor()
    await saveScreenshot(admin.page, 'review-notes-dashboard', { theme: 'light', fullPage: true })

    // The client reloads and sees the studio's reply under the note, marked resolved.
    await page.reload()
    const note = page.locator('li[data-note]', { hasText: `Music should swell (${width})` })
    await note.getByText(`Swell fixed in v2 (${width})`).waitFor()
    await note.getByText('Resolved').waitFor()
    await page.getByText('Noting as Ada').waitFor()
  }, 120_000)
})

test('Manage shows each work’s open notes and leads to its review page', async () => {
  const open = (await api('GET', `/api/videos/${work._id}`)).json.data.video.openNotes as number
  expect(open).toBeGreaterThan(0)
  const admin = await openSignedInPage(browser, server.url, session)
  await admin.page.goto('/dashboard/manage')
  const link = admin.page.getByRole('link', { name: `${open} open notes: review ${work.title}` })
  await link.first().click()
  await admin.page.getByRole('heading', { name: `Review: ${work.title}` }).waitFor()
  // Filtered to the resolved ones: the note each client run resolved.
  await admin.page.getByLabel('Show').selectOption('resolved')
  await admin.page.waitForFunction(() => document.querySelectorAll('li[data-note]').length === 2)
  for (const text of await admin.page.locator('li[data-note]').allTextContents()) {
    expect(text).toContain('Resolved by owner')
  }
}, 60_000)
