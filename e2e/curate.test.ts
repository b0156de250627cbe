// The curated portfolio on Manage Videos
// (docs/decisions/050-curated-order-as-positions-handed-around.md) in Chromium: rows put in the
// public order by keyboard and by mouse (at 1280 px in the table, at 375 px in the cards), saved at
// once and kept after a reload; the 'Published' switch takes a work off the public grid and back.
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type Fixtures, fixtures } from '../testkit/media.ts'
import { readyServerWorks } from '../testkit/ready.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { uploadVideo } from '../testkit/upload.ts'
import { openSignedInPage } from './support/browser.ts'
import { gridSettled } from './support/grid.ts'

let server: E2EServer
let browser: Browser
let f: Fixtures
let session: { token: string; user: Record<string, string> }

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${session.token}`, ...(init.headers ?? {}) },
  })

const upload = (title: string) => uploadVideo(server.url, session.token, title, f)

const publicTitles = async () =>
  (
    (await (await fetch(`${server.url}/api/public/videos`)).json()) as {
      data: { videos: { title: string }[] }
    }
  ).data.videos.map((v) => v.title)

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await Bun.sleep(100)
  }
  throw new Error(`timed out waiting for ${what}`)
}

beforeAll(async () => {
  ;[server, f] = await Promise.all([startServer({ MEDIA_WORKERS: '0' }), fixtures()])
  session = await server.apiLogin()
  browser = await launchBrowser()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

// Each test starts from its own three works, in the order Gamma, Beta, Alpha (newest first).
beforeEach(async () => {
  const list = (await (await api('/api/videos?limit=100')).json()) as {
    data: { videos: { _id: string }[] }
  }
  const ids = list.data.videos.map((v) => v._id)
  if (ids.length) {
    await api('/api/videos/bulk-delete', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids }),
    })
  }
  for (const title of ['Alpha', 'Beta', 'Gamma']) await upload(title)
  // Visitors see works once their streams exist (testkit/ready.ts).
  await readyServerWorks(server)
}, 60_000)

/** Titles as the visible layout lists them (the table at 1280 px, the cards at 375 px). */
const shownTitles = (page: Page) =>
  page
    .getByRole('button', { name: /^Reorder / })
    .filter({ visible: true })
    .evaluateAll((handles) =>
      handles.map((h) => h.getAttribute('aria-label')!.replace(/^Reorder /, '')),
    )

for (const width of [1280, 375]) {
  test(`by keyboard at ${width} px: Space, arrows, Space — saved at once, kept after a reload`, async () => {
    const { page } = await openSignedInPage(browser, server.url, session, {
      width,
      height: 800,
    })
    await page.goto('/dashboard/manage')
    await page.getByRole('button', { name: 'Reorder Alpha' }).filter({ visible: true }).waitFor()
    expect(await shownTitles(page)).toEqual(['Gamma', 'Beta', 'Alpha'])
    const handle = page.getByRole('button', { name: 'Reorder Alpha' }).filter({ visible: true })
    await handle.focus()
    // At a person's pace: dnd-kit measures the rows between the lift and each move.
    for (const key of ['Space', 'ArrowUp', 'ArrowUp', 'Space']) {
      await page.keyboard.press(key)
      await page.waitForTimeout(150)
    }
    await until(
      async () => (await shownTitles(page)).join() === 'Alpha,Gamma,Beta',
      'the rows to move',
    )
    await until(async () => (await publicTitles()).join() === 'Alpha,Gamma,Beta', 'the save')
    await page.reload()
    await page.getByRole('heading', { name: 'Videos', exact: true }).waitFor()
    await until(
      async () => (await shownTitles(page)).join() === 'Alpha,Gamma,Beta',
      'the order after a reload',
    )
  }, 60_000)
}

test('by mouse at 1280 px: a row dragged by its handle to the top leads the public grid', async () => {
  const { page } = await openSignedInPage(browser, server.url, session)
  await page.goto('/dashboard/manage')
  await page.getByRole('button', { name: 'Reorder Beta' }).waitFor()
  const from = await page.getByRole('button', { name: 'Reorder Beta' }).boundingBox()
  const to = await page.getByRole('button', { name: 'Reorder Gamma' }).boundingBox()
  await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2)
  await page.mouse.down()
  await page.mouse.move(to!.x + to!.width / 2, to!.y + 4, { steps: 12 })
  await page.mouse.move(to!.x + to!.width / 2, to!.y + 2, { steps: 4 })
  await page.mouse.up()
  await until(async () => (await publicTitles()).join() === 'Beta,Gamma,Alpha', 'the save')
  expect(await shownTitles(page)).toEqual(['Beta', 'Gamma', 'Alpha'])
  // The public grid follows.
  await page.goto('/')
  await gridSettled(page)
  const grid = await page
    .getByRole('list', { name: 'Videos' })
    .getByRole('button', { name: /^Play / })
    .evaluateAll((b) => b.map((x) => x.getAttribute('aria-label')))
  expect(grid).toEqual(['Play Beta', 'Play Gamma', 'Play Alpha'])
}, 60_000)

test("the 'Published' switch takes a work off the public grid and brings it back", async () => {
  const { page } = await openSignedInPage(browser, server.url, session)
  await page.goto('/dashboard/manage')
  const toggle = page.getByRole('switch', { name: 'Published: Beta' }).filter({ visible: true })
  expect(await toggle.getAttribute('aria-checked')).toBe('true')
  await toggle.click()
  await page.getByText('Video hidden from the public page').waitFor()
  expect(await toggle.getAttribute('aria-checked')).toBe('false')
  expect(await publicTitles()).toEqual(['Gamma', 'Alpha'])
  // Still in the dashboard, still counted.
  expect(await shownTitles(page)).toEqual(['Gamma', 'Beta', 'Alpha'])
  await page.goto('/')
  await gridSettled(page)
  expect(await page.getByRole('button', { name: 'Play Beta' }).count()).toBe(0)
  await page.goto('/dashboard/manage')
  await page.getByRole('switch', { name: 'Published: Beta' }).filter({ visible: true }).click()
  await page.getByText('Video published').waitFor()
  expect(await publicTitles()).toEqual(['Gamma', 'Beta', 'Alpha'])
}, 60_000)
