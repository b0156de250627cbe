// Stored XSS: titles and descriptions carrying markup are shown as text, never run, on the public
// page and in the dashboard (React escapes them; the CSP would block inline script anyway).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { fixtures } from '../testkit/media.ts'
import { readyServerWorks } from '../testkit/ready.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { openPage, openSignedInPage } from './support/browser.ts'

const TITLE = '<img src=x onerror="window.__xss=1">Pwn'
const DESCRIPTION = '<script>window.__xss=2</script><b>bold</b>'

let server: E2EServer
let browser: Browser
let session: { token: string; user: Record<string, string> }

beforeAll(async () => {
  // No worker of its own: testkit/ready.ts makes the work ready, and a worker finishing after it
  // would replace the streams a page has loaded.
  ;[server, browser] = await Promise.all([startServer({ MEDIA_WORKERS: '0' }), launchBrowser()])
  session = await server.apiLogin()
  const f = await fixtures()
  const form = new FormData()
  form.set('title', TITLE)
  form.set('description', DESCRIPTION)
  form.set('video', Bun.file(f.mp4), 'clip.mp4')
  form.set('thumbnail', Bun.file(f.jpg), 'thumb.jpg')
  form.set('brandLogo', Bun.file(f.png), 'logo.png')
  const res = await fetch(`${server.url}/api/videos/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token}` },
    body: form,
  })
  if (res.status !== 201) throw new Error(`seed failed: ${res.status}`)
  // Visitors see the work once its streams exist (the worker's or testkit/ready.ts's).
  await readyServerWorks(server)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

test('public page: the payload title is text in the tile; nothing runs', async () => {
  const { page } = await openPage(browser, { baseURL: server.url })
  await page.goto('/')
  const tile = page.getByRole('button', { name: `Play ${TITLE}` })
  await tile.waitFor()
  expect(await page.getByText(TITLE, { exact: true }).count()).toBeGreaterThan(0)
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined()
  expect(await page.locator('img[src="x"]').count()).toBe(0)
})

test('dashboard Manage: the payload title is text in the list; nothing runs', async () => {
  const { page } = await openSignedInPage(browser, server.url, session)
  await page.goto('/dashboard/manage')
  await page.getByRole('button', { name: `Edit ${TITLE}` }).waitFor()
  expect(await page.getByText(TITLE, { exact: true }).count()).toBeGreaterThan(0)
  await page.getByRole('button', { name: `Edit ${TITLE}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit Video' })
  await dialog.waitFor()
  expect(await dialog.getByLabel('Description').inputValue()).toBe(DESCRIPTION)
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined()
  expect(await page.locator('img[src="x"], b:text("bold")').count()).toBe(0)
})
