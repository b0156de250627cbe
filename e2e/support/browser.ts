// Pages for the browser tests (the browser itself: testkit/browser.ts). Every page records
// console errors and uncaught exceptions; `assertClean()` fails a test that produced any.
import type { Browser, BrowserContext, Page } from 'playwright-core'

export type TrackedPage = {
  page: Page
  context: BrowserContext
  errors: string[]
  assertClean(): void
}

export async function openPage(
  browser: Browser,
  opts: { width?: number; height?: number; baseURL?: string; allow?: RegExp[] } = {},
): Promise<TrackedPage> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    baseURL: opts.baseURL,
  })
  const page = await context.newPage()
  const errors: string[] = []
  const allowed = (text: string) => (opts.allow ?? []).some((re) => re.test(text))
  page.on('console', (m) => {
    if (m.type() === 'error' && !allowed(m.text())) errors.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => {
    if (!allowed(e.message)) errors.push(`pageerror: ${e.message}`)
  })
  return {
    page,
    context,
    errors,
    assertClean() {
      if (errors.length) throw new Error(`Browser errors:\n${errors.join('\n')}`)
    },
  }
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
      if (!localStorage.getItem('auth-storage')) localStorage.setItem('auth-storage', value)
    },
    JSON.stringify({ state: { user: session.user, token: session.token }, version: 0 }),
  )
  return tracked
}
