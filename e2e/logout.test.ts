// Log Out (docs/dashboard.md: it clears the stored auth and returns to /) from every dashboard
// page, in Chromium against the real built server: the visitor ends on `/`, the server session is
// over, and on the way no request is answered 401 and nothing is logged as an error.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { openSignedInPage } from './support/browser.ts'

let server: E2EServer
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

const PAGES = [
  ['/dashboard', 'Dashboard'],
  ['/dashboard/upload', 'Upload Video'],
  ['/dashboard/manage', 'Manage Videos'],
  ['/dashboard/admins', 'Admin Management'],
] as const

/** Every answer with status 401 the page receives, as "METHOD url". */
function watch401(page: Page): string[] {
  const seen: string[] = []
  page.on('response', (r) => {
    if (r.status() === 401) seen.push(`${r.request().method()} ${r.url()}`)
  })
  return seen
}

async function sessionEnded(token: string): Promise<boolean> {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const res = await fetch(`${server.url}/api/auth/me`, {
      headers: { authorization: `Bearer ${token}` },
    })
    if (res.status === 401) return true
    await Bun.sleep(100)
  }
  return false
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: /User menu/ }).click()
  await page.getByRole('menuitem', { name: 'Log Out' }).click()
}

/** After Log Out: on `/`, stored auth cleared, server session over, and it stays that way. */
async function expectLoggedOut(page: Page, token: string, unauthorized: string[]) {
  await page.waitForURL((url) => url.pathname === '/')
  expect(await sessionEnded(token)).toBe(true)
  // Anything still on its way (a refetch, a redirect) has had time to arrive.
  await page.waitForLoadState('networkidle')
  await Bun.sleep(500)
  expect(new URL(page.url()).pathname).toBe('/')
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}'))
  expect(stored.state?.token ?? null).toBeNull()
  expect(stored.state?.user ?? null).toBeNull()
  expect(unauthorized).toEqual([])
}

for (const [path, heading] of PAGES) {
  test(`Log Out from ${path} lands on / with no 401 and no console error`, async () => {
    const session = await server.apiLogin()
    const { page } = await openSignedInPage(browser, server.url, session)
    const unauthorized = watch401(page)
    await page.goto(path)
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    await page.waitForLoadState('networkidle')
    await logOut(page)
    await expectLoggedOut(page, session.token, unauthorized)
  }, 60_000)
}

test('Log Out while the page is still loading waits for its calls, then ends the session', async () => {
  const session = await server.apiLogin()
  const { page } = await openSignedInPage(browser, server.url, session)
  const unauthorized = watch401(page)
  // The Overview's count is slow to arrive: Log Out is clicked while it is on its way.
  let held = 0
  await page.route('**/trpc/videos.stats*', async (route) => {
    held++
    await Bun.sleep(1500)
    await route.continue()
  })
  await page.goto('/dashboard')
  await page.getByTestId('total-videos-skeleton').waitFor()
  await logOut(page)
  await expectLoggedOut(page, session.token, unauthorized)
  expect(held).toBeGreaterThan(0)
}, 60_000)
