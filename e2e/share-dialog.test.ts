// "Share privately…" in Chromium against the real built server, at a phone's and a desktop's
// width: an admin makes a private review link with a password and a note from Manage, copies its
// address, and a second browser (no session) opens it, gives the password and plays the work;
// back in the dialog the link counts the open, and Revoke ends it for that second browser at once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { reviewLinkGoneMessage } from '../src/contract/review-link.ts'
import { launchBrowser } from '../testkit/browser.ts'
import { pollUntil } from '../testkit/poll.ts'
import { makeSampleMedia, seedVideos } from '../testkit/sample-videos.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { axeViolations, describeViolations } from './support/axe.ts'
import { openPage, openSignedInPage } from './support/browser.ts'
import { saveScreenshot, type Theme } from './support/screenshots.ts'
import { storeTheme } from './support/theme.ts'

type Video = { _id: string; title: string; status: string; published: boolean }

let server: E2EServer
let browser: Browser
let dir: string
let session: { token: string; user: Record<string, string> }
/** One processed work per width, so each test starts from a work with no links. */
let works: Video[]

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as { data: Record<string, unknown> }
}

const processed = () =>
  pollUntil(
    async () => (await api('GET', '/api/videos?page=1&limit=100')).data.videos as Video[],
    (videos) => videos.length > 0 && videos.every((v) => v.status === 'ready'),
    { what: 'the sample works processed', timeoutMs: 150_000, show: (v) => `${v.length} works` },
  )

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'share-e2e-'))
  let samples: Awaited<ReturnType<typeof makeSampleMedia>>
  ;[server, browser, samples] = await Promise.all([
    startServer(),
    launchBrowser(),
    makeSampleMedia(dir, 2),
  ])
  session = await server.apiLogin()
  await seedVideos(server.url, session.token, samples)
  works = await processed()
  // A hidden work can be shared too: the first one is taken off the public page.
  await api('PUT', `/api/videos/${works[0]!._id}/published`, { published: false })
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

/** Opens Manage and the work's "Share privately…" dialog from its row (or card). */
async function openShare(page: Page, title: string): Promise<Locator> {
  await page.goto('/dashboard/manage')
  const button = page.getByRole('button', { name: `Share privately: ${title}` })
  expect(await button.getAttribute('title')).toBe('Share privately…')
  await button.click()
  const dialog = page.getByRole('dialog', { name: 'Share privately' })
  await dialog.waitFor()
  await dialog.getByText(title, { exact: true }).waitFor()
  return dialog
}

async function expectNoAxeViolations(page: Page) {
  const violations = await axeViolations(page)
  expect(describeViolations(violations)).toBe('')
}

/** Nothing in the dialog is wider than it, and every control is at least 44×44 px to hit. */
async function expectFitsAndTargets(dialog: Locator) {
  const faults = await dialog.evaluate((el) => {
    const out: string[] = []
    if (el.scrollWidth > el.clientWidth + 1) out.push(`dialog scrolls sideways: ${el.scrollWidth}`)
    const box = el.getBoundingClientRect()
    const targets = el.querySelectorAll<HTMLElement>(
      'button, input:not([type="radio"]), label:has(input[type="radio"])',
    )
    for (const t of targets) {
      const r = t.getBoundingClientRect()
      const name = t.getAttribute('aria-label') ?? t.textContent ?? t.id
      if (r.width < 44 || r.height < 44) out.push(`${name}: ${r.width}×${r.height}`)
      if (r.left < box.left - 1 || r.right > box.right + 1) out.push(`${name} sticks out`)
    }
    return out
  })
  expect(faults).toEqual([])
}

describe.each([375, 1280])('at %ipx', (width) => {
  const phone = width < 640

  test('an admin shares a work privately; a client opens it with the password and plays it; Revoke ends it', async () => {
    const work = works[phone ? 0 : 1]!
    const admin = await openSignedInPage(browser, server.url, session, { width, height: 800 })
    await admin.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.url,
    })
    const { page } = admin
    let dialog = await openShare(page, work.title)

    await dialog.getByText('No links yet').waitFor()
    expect(await page.evaluate(() => document.activeElement?.getAttribute('value'))).toBe('7d')
    // Seven days unless another choice is made; the day field only for "Until a date".
    expect(await dialog.getByRole('radio', { name: '7 days' }).isChecked()).toBe(true)
    expect(await dialog.getByLabel('Last day').count()).toBe(0)
    await dialog.getByRole('radio', { name: 'Until a date' }).check()
    await dialog.getByLabel('Last day').waitFor()
    await dialog.getByRole('button', { name: 'Create link' }).click()
    await dialog.getByText('Choose the last day the link works').waitFor()
    await dialog.getByRole('radio', { name: '7 days' }).check()
    expect(await dialog.getByLabel('Last day').count()).toBe(0)

    await expectNoAxeViolations(page)
    await expectFitsAndTargets(dialog)
    await saveScreenshot(page, 'share-dialog-form', { theme: 'light' })

    // The password shows only when asked.
    const password = dialog.getByLabel('Password (optional)')
    await password.fill('acme-2026')
    expect(await password.getAttribute('type')).toBe('password')
    await dialog.getByRole('button', { name: 'Show password' }).click()
    expect(await password.getAttribute('type')).toBe('text')
    await dialog.getByRole('button', { name: 'Hide password' }).click()
    expect(await password.getAttribute('type')).toBe('password')
    await dialog.getByLabel('Note (optional)').fill('for Acme, v3')
    await dialog.getByRole('button', { name: 'Create link' }).click()

    // The new address, focused, to copy; the password is not shown again.
    const field = dialog.getByLabel('Private link')
    await field.waitFor()
    await page.waitForFunction(() => document.activeElement?.id === 'share-url')
    const url = await field.inputValue()
    // The address names the site's public origin; the test's server answers at its own.
    const path = new URL(url).pathname
    expect(path).toMatch(/^\/r\/[\w-]{16,}$/)
    await dialog.getByText('The password is not shown again').waitFor()
    await dialog.getByRole('button', { name: 'Copy link' }).click()
    await page.getByText('Link copied', { exact: true }).first().waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url)
    // Said in the dialog too, where a screen reader hears it while the dialog is open.
    await dialog
      .getByRole('status')
      .filter({ hasText: 'Link copied' })
      .waitFor({ state: 'attached' })

    const row = dialog.getByRole('listitem').filter({ hasText: 'for Acme, v3' })
    await row.getByText(/^Expires /).waitFor()
    await row.getByText('Password', { exact: true }).waitFor()
    await row.getByText('Never opened').waitFor()
    await expectNoAxeViolations(page)
    await expectFitsAndTargets(dialog)
    await saveScreenshot(page, 'share-dialog', { theme: 'light' })

    // The client: another browser, no session, the copied address and the password.
    const client = await openPage(browser, {
      baseURL: server.url,
      width,
      height: 800,
      allow: [/status of 410/],
    })
    await client.page.goto(path)
    await client.page.getByRole('heading', { name: 'Password needed' }).waitFor()
    await client.page.getByLabel('Password').fill('acme-2026')
    await client.page.getByRole('button', { name: 'Open' }).click()
    await client.page.getByRole('heading', { level: 1, name: work.title }).waitFor()
    await expectNoAxeViolations(client.page)
    await client.page.getByRole('button', { name: `Play ${work.title}` }).click()
    await client.page.waitForFunction(
      (title) =>
        ((document.querySelector(`video[aria-label="${title}"]`) as HTMLVideoElement | null)
          ?.currentTime ?? 0) > 0.5,
      work.title,
      { timeout: 30_000 },
    )

    // Back in the dialog: reopened, the link counts the open.
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: `Share privately: ${work.title}` }).click()
    dialog = page.getByRole('dialog', { name: 'Share privately' })
    const reopened = dialog.getByRole('listitem').filter({ hasText: 'for Acme, v3' })
    await reopened.getByText('Opened 1 time', { exact: true }).waitFor()
    await reopened.getByText(/^Last opened /).waitFor()

    // Revoke asks once, inline, then the link is over at once.
    await reopened.getByRole('button', { name: 'Revoke for Acme, v3' }).click()
    await page.waitForFunction(() => document.activeElement?.textContent === 'Keep')
    await expectFitsAndTargets(dialog)
    await reopened.getByRole('button', { name: 'Revoke link' }).click()
    await reopened.getByText('Revoked', { exact: true }).waitFor()
    expect(await reopened.getByRole('button').count()).toBe(0)
    await dialog
      .getByRole('status')
      .filter({ hasText: 'Link revoked' })
      .waitFor({ state: 'attached' })

    await client.page.reload()
    await client.page.getByText(reviewLinkGoneMessage).waitFor()
    expect(await client.page.locator('video').count()).toBe(0)
  }, 120_000)

  test('the dialog fits and reads well in the dark theme, from the edit dialog too', async () => {
    const work = works[phone ? 0 : 1]!
    const admin = await openSignedInPage(browser, server.url, session, { width, height: 800 })
    await storeTheme(admin.context, 'dark' satisfies Theme)
    const { page } = admin
    await page.goto('/dashboard/manage')
    // From the edit dialog: the share dialog opens above it, and closing it goes back there.
    await page.getByRole('button', { name: `Edit ${work.title}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Video' })
    await edit.getByRole('button', { name: 'Share privately…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Share privately' })
    await dialog.getByRole('listitem').filter({ hasText: 'for Acme, v3' }).waitFor()
    await expectNoAxeViolations(page)
    await expectFitsAndTargets(dialog)
    await saveScreenshot(page, 'share-dialog', { theme: 'dark' })
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await edit.getByRole('button', { name: 'Share privately…' }).waitFor()
    expect(
      await page.evaluate(() => document.activeElement?.textContent?.includes('Share privately')),
    ).toBe(true)
  }, 60_000)
})

test('at 320px the dialog still fits, every control a 44 px target', async () => {
  const admin = await openSignedInPage(browser, server.url, session, { width: 320, height: 700 })
  const dialog = await openShare(admin.page, works[0]!.title)
  await dialog.getByRole('radio', { name: 'Until a date' }).check()
  await dialog.getByLabel('Last day').waitFor()
  await expectFitsAndTargets(dialog)
  await saveScreenshot(admin.page, 'share-dialog-form', { theme: 'light' })
}, 60_000)
