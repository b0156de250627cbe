// A work's own page and the grid's 'Copy link' (docs/public-site.md) in Chromium at 1280 and 375
// px: the tags a link preview reads are in the first HTML, the page shows the work with the
// studio's header and footer, plays it on a click, and passes axe; the tile's link leads there.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type Fixtures, fixtures } from '../testkit/media.ts'
import { readyServerWorks } from '../testkit/ready.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { uploadVideo } from '../testkit/upload.ts'
import { axeViolations } from './support/axe.ts'
import { openPage } from './support/browser.ts'
import { gridSettled } from './support/grid.ts'

let server: E2EServer
let browser: Browser
let f: Fixtures

beforeAll(async () => {
  ;[server, f] = await Promise.all([startServer({ MEDIA_WORKERS: '0' }), fixtures()])
  const { token } = await server.apiLogin()
  await uploadVideo(server.url, token, 'Night Drive', f, 'A score for a car and its city.')
  // Visitors see a work once its streams exist (testkit/ready.ts).
  await readyServerWorks(server)
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

test('the first HTML of a work page carries its tags, before any script runs', async () => {
  const html = await (await fetch(`${server.url}/work/night-drive`)).text()
  expect(html).toContain('<title>Night Drive — Halftone Studio</title>')
  expect(html).toContain(`<link rel="canonical" href="${server.url}/work/night-drive" />`)
  expect(html).toContain('<meta property="og:title" content="Night Drive" />')
  expect(html).toContain('"@type":"VideoObject"')
})

describe.each([
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
])('at $width px', ({ width, height }) => {
  test('the page shows the work in the studio frame and plays it on a click', async () => {
    const { page } = await openPage(browser, {
      baseURL: server.url,
      width,
      height,
    })
    await page.goto('/work/night-drive')
    await page.getByRole('heading', { level: 1, name: 'Night Drive' }).waitFor()
    expect(await page.title()).toBe('Night Drive — Halftone Studio')
    await page.getByText('A score for a car and its city.').waitFor()
    await page.getByRole('img', { name: 'Night Drive brand logo' }).waitFor()
    expect(await page.locator('footer#contact').count()).toBe(1)
    const allWork = page.getByRole('link', { name: '← All work' })
    expect(await allWork.getAttribute('href')).toBe('/#work')
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Play Night Drive' }).click()
    const video = page.locator('video[aria-label="Night Drive"]')
    await video.waitFor()
    await page.waitForFunction(
      () =>
        (document.querySelector('video[aria-label="Night Drive"]') as HTMLVideoElement)
          ?.currentTime > 0,
      undefined,
      { timeout: 15_000 },
    )
  }, 60_000)
})

test("a tile's 'Copy link' copies the work's address and leaves click-to-play alone", async () => {
  const { page, context } = await openPage(browser, { baseURL: server.url })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  await page.goto('/')
  await gridSettled(page)
  const copy = page.getByRole('button', { name: 'Copy link to Night Drive' })
  await copy.focus()
  await page.keyboard.press('Enter')
  await page.getByRole('status').filter({ hasText: 'Link copied' }).waitFor({ state: 'attached' })
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${server.url}/work/night-drive`,
  )
  // The page did not start playing: the tile's play button is still there.
  expect(await page.getByRole('button', { name: 'Play Night Drive' }).count()).toBe(1)
  expect(await page.locator('video[controls]').count()).toBe(0)
}, 60_000)
