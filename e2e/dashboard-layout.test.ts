// Layout at every width (docs/dashboard.md#layout), in Chromium against the real built server: file
// names in the edit modal are never clipped at 1280 px and an empty file field never shows the
// native input's text; Admin cards at 375 px put their actions on a line of their own with 44 px
// targets; error toasts pass WCAG AA contrast in both themes; the user-menu button's name starts
// with its visible text; the admins page has no axe-core violations at either width or theme.
// Screenshots: admins-*.png, edit-video-files-*.png, toast-error-*.png.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type Fixtures, fixtures } from '../testkit/media.ts'
import { ADMIN_EMAIL, type E2EServer, startServer } from '../testkit/server.ts'
import { axeViolations, describeViolations } from './support/axe.ts'
import { openSignedInPage } from './support/browser.ts'
import { saveScreenshot, type Theme } from './support/screenshots.ts'
import { storeTheme } from './support/theme.ts'

const SIZES = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
] as const
const THEMES: Theme[] = ['light', 'dark']

let server: E2EServer
let browser: Browser
let media: Fixtures
let session: { token: string; user: Record<string, string> }

beforeAll(async () => {
  // No media worker: these tests are about uploads and pages, not streams, and a transcode
  // running beside them takes the CPU the browser needs.
  ;[server, browser, media] = await Promise.all([
    startServer({ MEDIA_WORKERS: '0' }),
    launchBrowser(),
    fixtures(),
  ])
  session = await server.apiLogin()
  // A second admin, so the list has more than one card.
  const res = await fetch(`${server.url}/api/admins`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'a_producer_with_a_rather_long_name',
      email: 'a.producer.with.a.long.address@studio-example.test',
      password: 'producer-pass',
    }),
  })
  if (!res.ok) throw new Error(`admin seed failed: ${res.status}`)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

async function open(size: { width: number; height: number }, theme: Theme, allow: RegExp[] = []) {
  const tracked = await openSignedInPage(browser, server.url, session, { ...size, allow })
  await storeTheme(tracked.context, theme)
  return tracked
}

async function seedVideo(title: string) {
  const form = new FormData()
  form.set('title', title)
  form.set('description', `About ${title}`)
  form.set('video', Bun.file(media.mp4), 'clip.mp4')
  form.set('thumbnail', Bun.file(media.jpg), 'thumb.jpg')
  form.set('brandLogo', Bun.file(media.png), 'logo.png')
  const res = await fetch(`${server.url}/api/videos/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token}` },
    body: form,
  })
  if (!res.ok) throw new Error(`seed failed: ${res.status}`)
}

/**
 * Elements in `root` whose own text is cut off (wider than their box, with overflow hidden or
 * an ellipsis) and that do not carry the full text in a title: what a reader cannot read.
 */
const clippedTexts = (page: Page, rootSelector: string) =>
  page.evaluate((selector) => {
    const root = document.querySelector(selector)
    if (!root) throw new Error(`no ${selector}`)
    const out: string[] = []
    for (const el of root.querySelectorAll<HTMLElement>('*')) {
      const text = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim()
      if (!text || el.offsetParent === null) continue
      const style = getComputedStyle(el)
      // Text for screen readers only (a 1 px clipped box) is hidden on purpose, not cut off.
      if (style.position === 'absolute' && el.clientWidth <= 1 && el.clientHeight <= 1) continue
      const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis'
      if (clips && el.scrollWidth > el.clientWidth + 1 && el.title !== text) out.push(text)
    }
    return out
  }, rootSelector)

/** Native file inputs someone can see: their text ("No file chosen", a clipped name) is unreadable. */
const visibleNativeFileInputs = (page: Page) =>
  page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLInputElement>('input[type="file"]')].filter((input) => {
        const box = input.getBoundingClientRect()
        return box.width > 2 && box.height > 2 && getComputedStyle(input).opacity !== '0'
      }).length,
  )

describe('the edit modal at 1280 px', () => {
  for (const theme of THEMES) {
    test(`file names are never clipped; an empty field never shows the native text (${theme})`, async () => {
      const title = `Long names ${theme}`
      await seedVideo(title)
      const { page } = await open(SIZES[0], theme)
      await page.goto('/dashboard/manage')
      await page.getByRole('button', { name: `Edit ${title}` }).click()
      const dialog = page.getByRole('dialog', { name: 'Edit Video' })
      await dialog.waitFor()
      expect(await visibleNativeFileInputs(page)).toBe(0)
      expect(await dialog.getByText(/No file chosen|No …sen/).count()).toBe(0)
      // The brand logo's edit limit is 5 MB (docs/limits.md), said before a file is chosen.
      await dialog
        .getByRole('group', { name: 'Brand Logo' })
        .getByText('JPEG, PNG or WebP · up to 5 MB', { exact: true })
        .waitFor()

      const names = {
        'Video File': 'studio-reel-autumn-campaign-final-master-v12-approved-by-client.mp4',
        Thumbnail: 'thumbnail-for-the-autumn-campaign-reel-with-a-long-descriptive-name.jpg',
        'Brand Logo': 'brand-logo-of-the-client-in-full-colour-on-a-transparent-background.png',
      }
      const sources = { 'Video File': media.mp4, Thumbnail: media.jpg, 'Brand Logo': media.png }
      for (const [label, name] of Object.entries(names) as [keyof typeof names, string][]) {
        const buffer = await Bun.file(sources[label]).bytes()
        const mimeType =
          label === 'Video File' ? 'video/mp4' : label === 'Thumbnail' ? 'image/jpeg' : 'image/png'
        await dialog
          .getByLabel(label, { exact: true })
          .setInputFiles({ name, mimeType, buffer: Buffer.from(buffer) })
        await dialog.getByText(name).waitFor()
      }
      expect(await clippedTexts(page, '[role="dialog"]')).toEqual([])
      expect(await visibleNativeFileInputs(page)).toBe(0)
      await saveScreenshot(page, 'edit-video-files', { theme })
      // Removing a chosen file goes back to the current one; still no native text.
      await dialog.getByRole('button', { name: 'Remove thumbnail' }).click()
      expect(await dialog.getByText(/No file chosen|No …sen/).count()).toBe(0)
      expect(await visibleNativeFileInputs(page)).toBe(0)
      await dialog.getByRole('button', { name: 'Cancel' }).click()
    }, 60_000)
  }
})

describe('the admins page', () => {
  for (const size of SIZES) {
    for (const theme of THEMES) {
      test(`no axe violations; cards at 375 px with actions on their own line (${size.width} px, ${theme})`, async () => {
        const { page } = await open(size, theme)
        await page.goto('/dashboard/admins')
        await page.getByRole('heading', { name: 'Admins List' }).waitFor()
        await page.getByText(ADMIN_EMAIL).filter({ visible: true }).waitFor()
        const violations = await axeViolations(page)
        expect(describeViolations(violations)).toBe('')
        await saveScreenshot(page, 'admins', { theme, fullPage: true })

        if (size.width === 375) {
          const cards = page.getByRole('listitem').filter({ hasText: '@' })
          expect(await cards.count()).toBe(2)
          for (const card of await cards.all()) {
            const text = await card.getByText(/@/).boundingBox()
            const buttons = card.getByRole('button')
            expect(await buttons.count()).toBe(2)
            for (const button of await buttons.all()) {
              const box = await button.boundingBox()
              expect(box).not.toBeNull()
              expect(box!.width).toBeGreaterThanOrEqual(44)
              expect(box!.height).toBeGreaterThanOrEqual(44)
              // On a line of their own: below the e-mail, not beside it.
              expect(box!.y).toBeGreaterThanOrEqual(text!.y + text!.height)
            }
          }
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
          ).toBeLessThanOrEqual(375)
        }
      }, 60_000)
    }
  }
})

describe('error toasts', () => {
  for (const theme of THEMES) {
    test(`pass WCAG AA contrast (${theme})`, async () => {
      const { page } = await open(SIZES[0], theme, [/status of 409/])
      await page.goto('/dashboard/admins')
      await page.getByRole('button', { name: 'Add New Admin' }).click()
      const dialog = page.getByRole('dialog', { name: 'Create New Admin' })
      // A taken e-mail: a 409 whose message shows as an error toast (docs/dashboard.md).
      await dialog.getByLabel('Username').fill(`toast_${theme}`)
      await dialog.getByLabel('Email').fill(ADMIN_EMAIL)
      await dialog.getByLabel('Password', { exact: true }).fill('toast-pass')
      await dialog.getByLabel('Confirm Password').fill('toast-pass')
      await dialog.getByRole('button', { name: 'Create Admin' }).click()
      const toast = page.locator('[data-sonner-toast][data-type="error"]')
      await toast.getByText('Email already exists').waitFor()
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await dialog.waitFor({ state: 'detached' })
      // Once it has slid in (sonner's 400 ms), ask axe about the toast's colours only.
      await page.waitForFunction(() => {
        const el = document.querySelector('[data-sonner-toast][data-type="error"]')
        return el && getComputedStyle(el).opacity === '1'
      })
      await Bun.sleep(500)
      const violations = (await axeViolations(page)).filter((v) => v.id === 'color-contrast')
      expect(describeViolations(violations)).toBe('')
      // Axe may skip text it cannot resolve; measure the message itself too.
      const ratio = await toast.getByText('Email already exists').evaluate((el) => {
        const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number)
        const lum = ([r, g, b]: number[]) => {
          const ch = [r, g, b].map((v) => {
            const s = (v ?? 0) / 255
            return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
          })
          return 0.2126 * ch[0]! + 0.7152 * ch[1]! + 0.0722 * ch[2]!
        }
        let node: Element | null = el
        let bg = 'rgba(0, 0, 0, 0)'
        while (node) {
          const c = getComputedStyle(node).backgroundColor
          if (parse(c)[3] !== 0 && c !== 'transparent') {
            bg = c
            break
          }
          node = node.parentElement
        }
        const a = lum(parse(getComputedStyle(el).color))
        const b = lum(parse(bg))
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
      })
      expect(ratio).toBeGreaterThanOrEqual(4.5)
      await saveScreenshot(page, 'toast-error', { theme })
    }, 60_000)
  }
})

test('the user-menu button is named by its visible text first (1280 px)', async () => {
  const { page } = await open(SIZES[0], 'light')
  await page.goto('/dashboard')
  const username = session.user.username ?? 'owner'
  const button = page.getByRole('button', { name: /User menu/ })
  await button.waitFor()
  // The text it shows is the username (the initial beside it is decoration, hidden from
  // assistive technology).
  expect(await button.getByText(username, { exact: true }).isVisible()).toBe(true)
  // Its accessible name (as a speech-recognition user would say it) starts with that text.
  expect(
    await page.getByRole('button', { name: new RegExp(`^${username}\\b.*User menu`) }).count(),
  ).toBe(1)
  const violations = (await axeViolations(page)).filter(
    (v) => v.id === 'label-content-name-mismatch',
  )
  expect(describeViolations(violations)).toBe('')
}, 30_000)
