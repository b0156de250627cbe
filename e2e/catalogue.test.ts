// The landing page with a large catalogue (docs/decisions/051-keyset-pages-of-the-public-list.md):
// the grid loads a page of works at a time, asks for the next as the visitor nears its end, and a
// 'Show more' button does the same from the keyboard and where IntersectionObserver does not exist.
// Real server, real Chromium.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type Fixtures, fixtures } from '../testkit/media.ts'
import { readyServerWorks } from '../testkit/ready.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { uploadVideo } from '../testkit/upload.ts'
import { openPage } from './support/browser.ts'
import { gridSettled } from './support/grid.ts'

const WORKS = 600
const PAGE = 12 // web/src/public/public-videos.ts PUBLIC_PAGE_SIZE

let server: E2EServer
let browser: Browser
let f: Fixtures
/** The public order, as the whole list gives it (uploads in parallel finish in any order). */
let order: string[]
const title = (n: number) => `Work ${String(n).padStart(4, '0')}`

const upload = (token: string, n: number) => uploadVideo(server.url, token, title(n), f)

beforeAll(async () => {
  ;[server, f] = await Promise.all([startServer({ MEDIA_WORKERS: '0' }), fixtures()])
  const { token } = await server.apiLogin()
  // Work 0001 alone first, so it is the oldest and ends the order; then a few at a time
  // (uploads share a per-session limit).
  await upload(token, 1)
  for (let n = 2; n <= WORKS; n += 3) {
    await Promise.all([n, n + 1, n + 2].filter((k) => k <= WORKS).map((k) => upload(token, k)))
  }
  // Visitors see works once their streams exist (testkit/ready.ts: one run, stored per work).
  await readyServerWorks(server)
  const all = (await (await fetch(`${server.url}/api/public/videos`)).json()) as {
    data: { videos: { title: string }[] }
  }
  order = all.data.videos.map((v) => `Play ${v.title}`)
  browser = await launchBrowser()
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

const tiles = (page: Page) =>
  page.getByRole('list', { name: 'Videos' }).getByRole('button', { name: /^Play / })

test('scrolling to the end of the grid reaches the oldest work, each work once', async () => {
  const { page } = await openPage(browser, { baseURL: server.url })
  await page.goto('/')
  await gridSettled(page)
  expect(await tiles(page).count()).toBe(PAGE)
  let shown = 0
  for (let i = 0; i < 200 && shown < WORKS; i++) {
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    await page.waitForTimeout(100)
    shown = await tiles(page).count()
  }
  expect(shown).toBe(WORKS)
  const names = await tiles(page).evaluateAll((buttons) =>
    buttons.map((b) => b.getAttribute('aria-label')),
  )
  expect(new Set(names).size).toBe(WORKS)
  expect(names).toEqual(order)
  // The first work uploaded is the oldest, the last in the grid.
  expect(names.at(-1)).toBe(`Play ${title(1)}`)
  await expect(page.getByRole('button', { name: 'Show more' }).count()).resolves.toBe(0)
  // Tiles past the first screen wait to be laid out, at their full height (no shift).
  const style = await tiles(page)
    .nth(PAGE + 1)
    .evaluate((b) => {
      const li = b.closest('li')!
      const s = getComputedStyle(li)
      return { visibility: s.getPropertyValue('content-visibility'), height: li.offsetHeight }
    })
  expect(style).toEqual({ visibility: 'auto', height: 280 })
}, 120_000)

test("without IntersectionObserver, 'Show more' from the keyboard loads the next page and focuses it", async () => {
  const { page, context } = await openPage(browser, {
    baseURL: server.url,
    width: 375,
    height: 667,
  })
  await context.addInitScript(() => {
    // @ts-expect-error an older browser: no IntersectionObserver at all
    delete window.IntersectionObserver
  })
  await page.goto('/')
  await gridSettled(page)
  const more = page.getByRole('button', { name: 'Show more' })
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await page.waitForTimeout(300)
  expect(await tiles(page).count()).toBe(PAGE)
  await more.focus()
  await page.keyboard.press('Enter')
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="work-grid"] li').length === n,
    PAGE * 2,
  )
  expect(await tiles(page).count()).toBe(PAGE * 2)
  const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))
  expect(focused).toBe(order[PAGE])
}, 60_000)
