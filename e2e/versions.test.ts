// A work's versions in Chromium (docs/review.md#versions): an admin uploads a second version from
// the work's Edit dialog (tus, with its progress); the server's worker processes it while the
// first keeps playing; once it is current, the work's page, its embed and a review link play it
// at their unchanged addresses; the first version is then deleted from the same list, and its
// streams answer nobody any more. The dialog passes axe.
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

const TITLE = 'Night Drive'

let server: E2EServer
let browser: Browser
let f: Fixtures
let dir: string
let session: Awaited<ReturnType<E2EServer['apiLogin']>>
let second: string
let work: { _id: string; slug: string; hlsUrl: string }

const api = async (method: string, path: string) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${session.token}` },
  })
  // biome-ignore lint/suspicious/noExplicitAny: answers of several shapes
  return { status: res.status, json: (await res.json()) as any }
}
const folderOf = (url: string) => /\/media\/([0-9a-f]{32})\//.exec(url)?.[1] ?? ''

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'versions-e2e-'))
  ;[server, f, browser] = await Promise.all([startServer(), fixtures(), launchBrowser()])
  second = await makeClip(dir, 'second-cut.mp4', { seconds: 3, width: 320, height: 180 })
  session = await server.apiLogin()
  const uploaded = await uploadVideo(server.url, session.token, TITLE, f)
  work = await pollUntil(
    async () => (await api('GET', `/api/videos/${uploaded._id}`)).json.data.video,
    (video) => video.status === 'ready',
    { what: 'the first version processed', timeoutMs: 120_000, show: (v) => v.status },
  )
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

async function openVersions(page: Page) {
  await page.goto('/dashboard/manage')
  await page
    .getByRole('button', { name: `Edit ${TITLE}` })
    .first()
    .click()
  const dialog = page.getByRole('dialog', { name: 'Edit Video' })
  await dialog.waitFor()
  const list = dialog.getByRole('list', { name: 'Versions of this work' })
  await list.waitFor()
  return { dialog, list }
}

/** The media folders a page asks for while it plays. */
function watchMedia(page: Page): Set<string> {
  const folders = new Set<string>()
  page.on('request', (request) => {
    const folder = folderOf(new URL(request.url()).pathname)
    if (folder) folders.add(folder)
  })
  return folders
}

test('a second version uploaded in the dashboard plays on the page, the embed and the link at the same addresses; the first is deletable', async () => {
  const first = folderOf(work.hlsUrl)
  const link = await fetch(`${server.url}/api/videos/${work._id}/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: '{}',
  })
  const linkPath = new URL(
    ((await link.json()) as { data: { link: { url: string } } }).data.link.url,
  ).pathname

  const { page } = await openSignedInPage(browser, server.url, session)
  const { dialog, list } = await openVersions(page)
  await list.getByRole('listitem', { name: 'Version 1, current' }).waitFor()
  expect(describeViolations(await axeViolations(page))).toBe('')

  await dialog.getByLabel('Upload a new version').setInputFiles(second)
  await dialog.getByRole('button', { name: 'Upload version' }).click()
  await page.getByRole('status').filter({ hasText: 'Version 2 uploaded' }).first().waitFor({
    state: 'attached',
  })
  // Processing in the background; the list asks again by itself until version 2 is current.
  await list.getByRole('listitem', { name: 'Version 2, current' }).waitFor({ timeout: 120_000 })
  const video = (await api('GET', `/api/videos/${work._id}`)).json.data.video
  expect(video.version).toBe(2)
  const next = folderOf(video.hlsUrl)
  expect(next).not.toBe(first)

  // The work's page at its unchanged address plays the new cut.
  const visitor = await openPage(browser, { baseURL: server.url })
  const seen = watchMedia(visitor.page)
  await visitor.page.goto(`/work/${work.slug}`)
  await visitor.page.getByRole('button', { name: `Play ${TITLE}` }).click()
  await visitor.page.waitForFunction(
    (title) =>
      (document.querySelector(`video[aria-label="${title}"]`) as HTMLVideoElement)?.currentTime >
      0.3,
    TITLE,
    { timeout: 30_000 },
  )
  expect([...seen]).toEqual([next])
  // The embed names the new cut, never the old; the review link plays the new cut, and its
  // version switcher offers the old one beside it.
  const embed = await (await fetch(`${server.url}/work/${work.slug}/embed`)).text()
  expect(embed).toContain(next)
  expect(embed).not.toContain(first)
  const review = await (await fetch(`${server.url}${linkPath}`)).text()
  const data = JSON.parse(
    /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(review)![1]!,
  )
  expect(JSON.stringify(data.video)).toContain(next)
  expect(JSON.stringify(data.video)).not.toContain(first)
  expect(data.versions.map((v: { number: number }) => v.number)).toEqual([1, 2])

  // Version 1 is deleted from the list, asked once.
  const old = list.getByRole('listitem', { name: 'Version 1' })
  await old.getByRole('button', { name: 'Delete version 1' }).click()
  await old.getByRole('button', { name: 'Delete version' }).click()
  await old.waitFor({ state: 'detached' })
  await page.getByRole('status').filter({ hasText: 'Version 1 deleted' }).first().waitFor({
    state: 'attached',
  })
  const versions = (await api('GET', `/api/videos/${work._id}/versions`)).json.data.versions
  expect(versions.map((v: { number: number }) => v.number)).toEqual([2])
  // Its streams are gone from the store: not even an admin gets them.
  const gone = await fetch(`${server.url}/media/${first}/master.m3u8`, {
    headers: { authorization: `Bearer ${session.token}` },
  })
  expect(gone.status).toBe(404)
}, 240_000)

test('on a phone, by keyboard: a third version uploaded, then the second made current again', async () => {
  const { page } = await openSignedInPage(browser, server.url, session, { width: 375, height: 667 })
  const { dialog, list } = await openVersions(page)
  await list.getByRole('listitem', { name: 'Version 2, current' }).waitFor()
  await dialog.getByLabel('Upload a new version').setInputFiles(f.mp4)
  const upload = dialog.getByRole('button', { name: 'Upload version' })
  await upload.focus()
  await page.keyboard.press('Enter')
  await list.getByRole('listitem', { name: 'Version 3, current' }).waitFor({ timeout: 120_000 })
  expect(describeViolations(await axeViolations(page))).toBe('')

  const makeCurrent = list.getByRole('button', { name: 'Make current: version 2' })
  await makeCurrent.focus()
  await page.keyboard.press('Enter')
  await list.getByRole('listitem', { name: 'Version 2, current' }).waitFor()
  await page.getByRole('status').filter({ hasText: 'Version 2 is now current' }).first().waitFor({
    state: 'attached',
  })
  const video = (await api('GET', `/api/videos/${work._id}`)).json.data.video
  expect(video.version).toBe(2)
}, 180_000)
