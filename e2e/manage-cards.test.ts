// Manage Videos on a phone, in Chromium against the real built server: every control of a video's
// card (play, select, 'Published', reorder, edit, delete) is a target of at least 44 × 44 px,
// inside its card and clear of the others, at 375 and 320 px, without sideways scrolling; the
// page has no axe-core violations in either theme. Screenshots: manage-cards-*.png (and the
// table at 1280 px, for comparison).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { fixtures } from '../testkit/media.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { uploadVideo } from '../testkit/upload.ts'
import { axeViolations, describeViolations } from './support/axe.ts'
import { openSignedInPage } from './support/browser.ts'
import { saveScreenshot, type Theme } from './support/screenshots.ts'
import { storeTheme } from './support/theme.ts'

const TITLES = [
  'Night Drive',
  'A rather long title for a campaign film that wraps over more than two lines on a phone',
]
const MIN_TARGET = 44

let server: E2EServer
let browser: Browser
let session: { token: string; user: Record<string, string> }

beforeAll(async () => {
  const [started, media] = await Promise.all([startServer(), fixtures()])
  server = started
  session = await server.apiLogin()
  for (const title of TITLES) await uploadVideo(server.url, session.token, title, media)
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

async function openManage(width: number, theme: Theme) {
  const tracked = await openSignedInPage(browser, server.url, session, { width, height: 740 })
  await storeTheme(tracked.context, theme)
  const { page } = tracked
  await page.goto('/dashboard/manage')
  await page.getByRole('heading', { name: 'Videos', exact: true }).waitFor()
  for (const title of TITLES)
    await page
      .getByRole('button', { name: `Edit ${title}` })
      .filter({ visible: true })
      .waitFor()
  return page
}

type Target = { name: string; left: number; top: number; right: number; bottom: number }
type CardLayout = {
  card: { left: number; right: number; top: number; bottom: number }
  overflows: boolean
  targets: Target[]
}

/**
 * Each visible card's box and its controls' targets: a control's own box, or for a checkbox the
 * label around it (a tap anywhere on it toggles the box).
 */
const cardLayouts = (page: Page): Promise<CardLayout[]> =>
  page.evaluate(() => {
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null
    return [...document.querySelectorAll('li')]
      .filter((li) => visible(li) && li.querySelector('[aria-label^="Edit "]'))
      .map((li) => {
        const card = li.getBoundingClientRect()
        const controls = [
          ...li.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea'),
        ].filter(visible)
        return {
          card: { left: card.left, right: card.right, top: card.top, bottom: card.bottom },
          overflows: li.scrollWidth > li.clientWidth,
          targets: controls.map((control) => {
            const box = (control.closest('label') ?? control).getBoundingClientRect()
            return {
              name: control.getAttribute('aria-label') ?? control.textContent ?? control.tagName,
              left: box.left,
              top: box.top,
              right: box.right,
              bottom: box.bottom,
            }
          }),
        }
      })
  })

const overlap = (a: Target, b: Target) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5

describe('a Manage card on a phone', () => {
  for (const width of [375, 320]) {
    for (const theme of ['light', 'dark'] as const) {
      test(`every action is a 44 × 44 px target inside its card; axe clean (${width} px, ${theme})`, async () => {
        const page = await openManage(width, theme)
        await saveScreenshot(page, 'manage-cards', { theme, fullPage: true })
        expect(await page.getByRole('table').count()).toBe(0)
        const cards = await cardLayouts(page)
        expect(cards.length).toBe(TITLES.length)
        for (const { card, overflows, targets } of cards) {
          expect(overflows).toBe(false)
          // Play, open notes, select, publish, reorder, edit, share privately, delete.
          expect(targets.length).toBe(8)
          for (const t of targets) {
            const size = { name: t.name, width: t.right - t.left, height: t.bottom - t.top }
            expect(size.width).toBeGreaterThanOrEqual(MIN_TARGET)
            expect(size.height).toBeGreaterThanOrEqual(MIN_TARGET)
            const inside =
              t.left >= card.left &&
              t.right <= card.right &&
              t.top >= card.top &&
              t.bottom <= card.bottom
            expect({ name: t.name, inside }).toEqual({ name: t.name, inside: true })
          }
          const clashes = targets.flatMap((a, i) =>
            targets.slice(i + 1).flatMap((b) => (overlap(a, b) ? [`${a.name} / ${b.name}`] : [])),
          )
          expect(clashes).toEqual([])
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          width,
        )
        expect(describeViolations(await axeViolations(page))).toBe('')
      }, 60_000)
    }
  }
})

test('the cards still select, publish and open the editor from their larger targets (375 px)', async () => {
  const page = await openManage(375, 'light')
  const [title] = TITLES as [string]
  const card = page.getByRole('listitem').filter({ hasText: title }).filter({ visible: true })
  // A tap on the word beside the box toggles it.
  await card.getByText('Select', { exact: true }).click()
  expect(await card.getByRole('checkbox', { name: `Select ${title}` }).isChecked()).toBe(true)
  const toggle = card.getByRole('switch', { name: `Published: ${title}` })
  const before = await toggle.getAttribute('aria-checked')
  await card.getByText('Published', { exact: true }).click()
  await page.waitForFunction(
    ([name, was]) =>
      [...document.querySelectorAll('[role="switch"]')].some(
        (s) =>
          (s as HTMLElement).offsetParent !== null &&
          s.getAttribute('aria-label') === name &&
          s.getAttribute('aria-checked') !== was,
      ),
    [`Published: ${title}`, before] as const,
  )
  await card.getByRole('button', { name: `Edit ${title}` }).click()
  await page.getByRole('dialog', { name: 'Edit Video' }).waitFor()
}, 60_000)

test('the table at 1280 px, for comparison', async () => {
  const page = await openManage(1280, 'light')
  expect(await page.getByRole('table').isVisible()).toBe(true)
  expect(describeViolations(await axeViolations(page))).toBe('')
  await saveScreenshot(page, 'manage-table', { theme: 'light', fullPage: true })
}, 60_000)
