// The browser tests' page fixture. Each page gets a browser context of its own (no storage,
// cookies or routes shared with another test); every page of that context records console errors
// and uncaught exceptions, and when the test ends the context is closed and the test fails if it
// recorded any (bun:test's onTestFinished), so no test has to remember to check.
import { onTestFinished } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'

export type TrackedPage = {
  page: Page
  context: BrowserContext
  /** What was recorded so far; the end of the test fails on any of it. */
  errors: string[]
}

/**
 * Opens a page in a new context, inside a test. `allow` names the console errors the test
 * expects (Chromium logs every 4xx answer as one).
 */
export async function openPage(
  browser: Browser,
  opts: { width?: number; height?: number; baseURL?: string; allow?: RegExp[] } = {},
): Promise<TrackedPage> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    baseURL: opts.baseURL,
    // The page's language and clock, not the machine's: the same text and dates everywhere.
    locale: 'en-US',
    timezoneId: 'UTC',
  })
  const errors: string[] = []
  const allowed = (text: string) => (opts.allow ?? []).some((re) => re.test(text))
  // On the context, so pages the test opens later in it are watched too.
  context.on('console', (m) => {
    if (m.type() === 'error' && !allowed(m.text())) errors.push(`console: ${m.text()}`)
  })
  context.on('weberror', (e) => {
    const message = e.error().message
    if (!allowed(message)) errors.push(`pageerror: ${message}`)
  })
  onTestFinished(async () => {
    const found = [...errors]
    await context.close().catch(() => {})
    if (found.length) throw new Error(`Browser errors:\n${found.join('\n')}`)
  })
  const page = await context.newPage()
  return { page, context, errors }
}

/** A page whose browser already holds a signed-in admin's `auth-storage`, as after sign-in. */
export async function openSignedInPage(
  browser: Browser,
  baseURL: string,
  session: { token: string; user: Record<string, string> },
  opts: { width?: number; height?: number; allow?: RegExp[] } = {},
): Promise<TrackedPage> {
  const tracked = await openPage(browser, { baseURL, ...opts })
  await tracked.context.addInitScript(
    (value) => {
      // A new tab starts on about:blank, which has no storage (reading it throws there).
      if (!location.protocol.startsWith('http')) return
      if (!localStorage.getItem('auth-storage')) localStorage.setItem('auth-storage', value)
    },
    JSON.stringify({ state: { user: session.user, token: session.token }, version: 0 }),
  )
  return tracked
}
