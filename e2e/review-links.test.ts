// Private review links in Chromium at 1280 and 375 px (docs/public-site.md): an admin makes a
// link with a password for a hidden, processed work; a second browser context opens it, sees the
// password form, enters the password and plays the work through the link's own media path; both
// pages pass axe; the public page shows nothing of the work; a revoked link shows the 410 page.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { reviewLinkGoneMessage } from '../src/contract/review-link.ts'
import { launchBrowser } from '../testkit/browser.ts'
import { pollUntil } from '../testkit/poll.ts'
import { makeSampleMedia, type SampleVideo, seedVideos } from '../testkit/sample-videos.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { axeViolations, describeViolations } from './support/axe.ts'
import { openPage } from './support/browser.ts'
import { gridSettled } from './support/grid.ts'

const PASSWORD = 'for-acme-only'

let server: E2EServer
let browser: Browser
let dir: string
let token: string
let work: { _id: string; title: string; slug: string; status: string }
let sample: SampleVideo

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
  // biome-ignore lint/suspicious/noExplicitAny: answers of several shapes
  return { status: res.status, json: (await res.json()) as any }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'review-e2e-'))
  const [started, samples, launched] = await Promise.all([
    startServer(),
    makeSampleMedia(dir, 1),
    launchBrowser(),
  ])
  server = started
  browser = launched
  sample = samples[0]!
  token = (await server.apiLogin()).token
  await seedVideos(server.url, token, samples)
  const listed = await api('GET', '/api/videos?page=1&limit=10')
  work = listed.json.data.videos[0]
  expect((await api('PUT', `/api/videos/${work._id}/published`, { published: false })).status).toBe(
    200,
  )
  const id = work._id
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

describe.each([
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
])('at $width px', ({ width, height }) => {
  test('a second browser opens the link, enters the password and plays the work', async () => {
    const made = await api('POST', `/api/videos/${work._id}/links`, {
      password: PASSWORD,
      note: `for Acme at ${width}`,
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    })
    expect(made.status).toBe(201)
    const url: string = made.json.data.link.url
    const path = new URL(url).pathname

    const { page } = await openPage(browser, { baseURL: server.url, width, height })
    const media: string[] = []
    page.on('request', (request) => {
      const p = new URL(request.url()).pathname
      if (p.includes('/media/')) media.push(p)
    })
    await page.goto(path)
    await page.getByRole('heading', { name: 'Password needed' }).waitFor()
    expect(await page.getByText(work.title).count()).toBe(0)
    const formViolations = await axeViolations(page)
    expect(describeViolations(formViolations)).toBe('')

    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Open' }).click()
    await page.getByRole('heading', { level: 1, name: work.title }).waitFor()
    expect(page.url()).toBe(`${server.url}${path}`)
    // Nothing of the site around it: no navigation, no footer, no other work.
    expect(await page.locator('nav').count()).toBe(0)
    expect(await page.locator('footer').count()).toBe(0)
    const pageViolations = await axeViolations(page)
    expect(describeViolations(pageViolations)).toBe('')

    await page.getByRole('button', { name: `Play ${work.title}` }).click()
    await page.waitForFunction(
      (title) =>
        (document.querySelector(`video[aria-label="${title}"]`) as HTMLVideoElement)?.currentTime >
        0.5,
      work.title,
      { timeout: 30_000 },
    )
    // Every file came through the link's own path: the public addresses stay closed.
    expect(media.length).toBeGreaterThan(2)
    expect(media.every((p) => p.startsWith(`${path}/media/`))).toBe(true)
  }, 90_000)
})

test('the public page shows nothing of the hidden work', async () => {
  const { page } = await openPage(browser, { baseURL: server.url, allow: [/404/] })
  await page.goto('/')
  await gridSettled(page)
  expect(await page.content()).not.toContain(work.title)
  const res = await page.goto(`/work/${work.slug}`)
  expect(res?.status()).toBe(404)
  expect(await page.content()).not.toContain(work.title)
}, 60_000)

test('a link opened while its work is prepared says so, then turns into the player by itself', async () => {
  const title = 'Later Cut'
  await seedVideos(server.url, token, [{ ...sample, title }])
  const later = (await api('GET', '/api/videos?page=1&limit=10')).json.data.videos[0]
  expect(later.title).toBe(title)
  const made = await api('POST', `/api/videos/${later._id}/links`, {})
  const path = new URL(made.json.data.link.url).pathname

  const { page } = await openPage(browser, { baseURL: server.url })
  await page.goto(path)
  await page.getByRole('heading', { level: 1, name: 'Still being prepared' }).waitFor()
  await page.getByText(`“${title}” is still being prepared`).waitFor()
  expect(describeViolations(await axeViolations(page))).toBe('')
  // Nobody reloads: the page asks by itself, and shows the player once the streams exist.
  await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 240_000 })
  expect(page.url()).toBe(`${server.url}${path}`)
  await page.getByRole('button', { name: `Play ${title}` }).waitFor()
}, 300_000)

test('a revoked link shows the plain 410 page', async () => {
  const made = await api('POST', `/api/videos/${work._id}/links`, {})
  const link = made.json.data.link
  expect((await api('DELETE', `/api/videos/${work._id}/links/${link.id}`)).json.data).toEqual({
    revoked: true,
  })
  const { page } = await openPage(browser, { baseURL: server.url, allow: [/410/] })
  const res = await page.goto(new URL(link.url).pathname)
  expect(res?.status()).toBe(410)
  await page.getByText(reviewLinkGoneMessage).waitFor()
  expect(describeViolations(await axeViolations(page))).toBe('')
}, 60_000)
