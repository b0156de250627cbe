// One identity (docs/decisions/017-one-brand-module.md): the studio's name and mark on the public
// page, its mobile menu, the sign-in, forgot and reset pages and the dashboard's sidebar
// (collapsed: the mark alone), in the document titles and the favicon; the auth pages in the public
// page's faces and colours in both themes, with the documented texts and no axe-core violations at
// 375 and 1280 px. Screenshots of every screen go to e2e/screenshots/.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { axeViolations, describeViolations } from './support/axe.ts'
import { openPage, openSignedInPage } from './support/browser.ts'
import { renderedFonts } from './support/fonts.ts'
import { saveScreenshot, type Theme } from './support/screenshots.ts'
import { storeTheme } from './support/theme.ts'

const NAME = 'Halftone Studio'
const TEST_TIMEOUT = 60_000
const SIZES = [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
] as const
const THEMES: Theme[] = ['light', 'dark']

/** The public page's palette (web/src/base.css): paper in light, the ink stage in dark. */
const BACKGROUND: Record<Theme, string> = {
  light: 'rgb(243, 240, 232)',
  dark: 'rgb(9, 9, 10)',
}

/** Sign in / Forgot / Reset (docs/dashboard.md) word for word, with each page's tab title. */
const AUTH_PAGES = [
  {
    screen: 'auth-signin',
    path: '/auth/signin',
    title: `Sign In · ${NAME}`,
    heading: 'Sign In to Your Account',
    fields: ['Email', 'Password'],
    button: 'Sign In',
    links: ['Forgot Password?'],
  },
  {
    screen: 'auth-forgot',
    path: '/auth/forgot-password',
    title: `Forgot Password · ${NAME}`,
    heading: 'Forgot Password',
    fields: ['Email'],
    button: 'Send Reset Link',
    links: ['Back to Sign In'],
  },
  {
    screen: 'auth-reset',
    path: '/auth/reset-password/some-reset-token',
    title: `Set New Password · ${NAME}`,
    heading: 'Set New Password',
    fields: ['New Password', 'Confirm Password'],
    button: 'Reset Password',
    links: ['Back to Sign In'],
  },
] as const

let server: E2EServer
let browser: Browser

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

type Circle = { cx: string; cy: string; r: string; fill: string; stroke: string; width: string }
type MarkShape = { viewBox: string; circles: Circle[] }

/**
 * The geometry of a mark: the <svg data-brand-mark> matching `selector` in the page, or the mark
 * inside the favicon's `source` (its inner <svg>), with the favicon's <title>. One function,
 * run in the page, so both are read the same way.
 */
function markShape(arg: { selector?: string; source?: string }): MarkShape & { title?: string } {
  const doc = arg.source ? new DOMParser().parseFromString(arg.source, 'image/svg+xml') : document
  const svg = doc.querySelector(arg.source ? 'svg svg' : arg.selector!)
  return {
    viewBox: svg?.getAttribute('viewBox') ?? '',
    circles: [...(svg?.querySelectorAll('circle') ?? [])].map((c) => ({
      cx: c.getAttribute('cx') ?? '',
      cy: c.getAttribute('cy') ?? '',
      r: c.getAttribute('r') ?? '',
      fill: c.getAttribute('fill') === 'none' ? 'none' : 'paint',
      stroke: c.getAttribute('stroke') ? 'paint' : 'none',
      width: c.getAttribute('stroke-width') ?? '',
    })),
    ...(arg.source ? { title: doc.querySelector('title')?.textContent ?? '' } : {}),
  }
}

/** The mark inside the studio's home link matching `selector`, and whether its name shows. */
async function brandOf(page: Page, selector: string) {
  const link = page.locator(selector).first()
  await link.waitFor({ timeout: 10_000 })
  const mark = await page.evaluate(markShape, { selector: `${selector} svg[data-brand-mark]` })
  const name = link.getByText(NAME, { exact: true })
  // Shown, not merely kept for screen readers (a visually hidden name is a 1 px box).
  const nameBox = (await name.count()) > 0 ? await name.first().boundingBox() : null
  return {
    mark: mark.circles.length ? mark : null,
    nameVisible: (nameBox?.width ?? 0) > 20 && (await name.first().isVisible()),
    accessibleName: await link.ariaSnapshot(),
  }
}

/** The mark the favicon draws: its inner <svg>, to compare with the page's marks. */
async function faviconMark(page: Page) {
  const source = await (await fetch(`${server.url}/favicon.svg`)).text()
  return page.evaluate(markShape, { source })
}

/** The colour behind everything at the page's bottom-left corner. */
function groundColour(): string {
  let el: Element | null = document.elementFromPoint(2, innerHeight - 2)
  while (el) {
    const colour = getComputedStyle(el).backgroundColor
    if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour
    el = el.parentElement
  }
  return 'none'
}

async function expectNoAxeViolations(page: Page) {
  const violations = await axeViolations(page)
  expect(describeViolations(violations)).toBe('')
}

/** The faces the renderer drew an element's own text with. */
async function facesOf(page: Page, selector: string): Promise<string[]> {
  return [...new Set((await renderedFonts(page, selector)).flat().map((f) => f.familyName))]
}

for (const theme of THEMES) {
  for (const size of SIZES) {
    describe(`${theme} theme at ${size.width} px`, () => {
      test(
        'sign-in, forgot and reset carry the name and mark, the public faces and colours, their texts, no axe violations',
        async () => {
          const { page, context } = await openPage(browser, {
            ...size,
            baseURL: server.url,
          })
          await storeTheme(context, theme)
          let markOnPage: MarkShape | null = null
          for (const screen of AUTH_PAGES) {
            await page.goto(screen.path)
            const heading = page.getByRole('heading', { level: 1, name: screen.heading })
            await heading.waitFor()
            await page.waitForFunction(() => document.fonts.status === 'loaded')
            expect(
              await page.evaluate(() => document.documentElement.classList.contains('dark')),
            ).toBe(theme === 'dark')

            // The studio's name and mark, linking home.
            const brand = await brandOf(page, 'a[href="/"][data-brand]')
            expect(brand.nameVisible).toBe(true)
            expect(brand.accessibleName).toContain(NAME)
            expect(brand.mark?.circles.length).toBe(2)
            markOnPage ??= brand.mark
            expect(brand.mark).toEqual(markOnPage)
            expect(await page.title()).toBe(screen.title)

            // The documented texts.
            expect((await heading.textContent())?.trim()).toBe(screen.heading)
            for (const field of screen.fields)
              await page.getByLabel(field, { exact: true }).waitFor()
            await page.getByRole('button', { name: screen.button, exact: true }).waitFor()
            for (const name of screen.links) {
              await page.getByRole('link', { name, exact: true }).waitFor()
            }

            // The public page's look: Instrument Serif headings, Inter text, paper or ink ground.
            expect(await facesOf(page, 'h1')).toEqual(['Instrument Serif'])
            // The renderer names Inter Variable's file by its own family name, Inter.
            expect(await facesOf(page, 'label, button[type="submit"]')).toEqual(['Inter'])
            const ground = await page.evaluate(groundColour)
            expect(ground).toBe(BACKGROUND[theme])

            await expectNoAxeViolations(page)
            await saveScreenshot(page, screen.screen, { theme })

            // With the validation messages showing, still readable (contrast) and linked.
            await page.getByRole('button', { name: screen.button, exact: true }).click()
            await page.getByRole('alert').first().waitFor()
            await expectNoAxeViolations(page)
          }
          await context.close()
        },
        TEST_TIMEOUT,
      )

      test(
        'the dashboard sidebar shows the name and mark, collapsed the mark alone; titles name the studio',
        async () => {
          const session = await server.apiLogin()
          const { page, context } = await openSignedInPage(browser, server.url, session, size)
          await storeTheme(context, theme)
          await page.goto('/dashboard')
          await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()
          expect(await page.title()).toBe(`Dashboard · ${NAME}`)
          const sidebar = '#dashboard-sidebar a[data-brand]'

          if (size.width < 768) {
            await page.getByRole('button', { name: 'Open navigation' }).click()
            await page
              .locator('#dashboard-sidebar')
              .getByRole('link', { name: 'Dashboard' })
              .waitFor()
            await page.waitForTimeout(300) // the drawer's slide
            const brand = await brandOf(page, sidebar)
            expect(brand.nameVisible).toBe(true)
            expect(brand.mark?.circles.length).toBe(2)
            await saveScreenshot(page, 'sidebar-drawer', { theme })
          } else {
            const expanded = await brandOf(page, sidebar)
            expect(expanded.nameVisible).toBe(true)
            expect(expanded.mark?.circles.length).toBe(2)
            await saveScreenshot(page, 'sidebar-expanded', { theme })

            await page.getByRole('button', { name: 'Collapse sidebar' }).click()
            await page.getByRole('button', { name: 'Expand sidebar' }).waitFor()
            await page.waitForTimeout(300) // the column's width transition
            const collapsed = await brandOf(page, sidebar)
            expect(collapsed.nameVisible).toBe(false)
            expect(collapsed.mark).toEqual(expanded.mark)
            expect(collapsed.accessibleName).toContain(NAME) // still named for screen readers
            // The mark alone, whole, inside the collapsed column.
            const fits = await page.evaluate((selector) => {
              const mark = document.querySelector(`${selector} svg[data-brand-mark]`)!
              const column = document.getElementById('dashboard-sidebar')!
              const m = mark.getBoundingClientRect()
              const c = column.getBoundingClientRect()
              return m.width > 0 && m.left >= c.left && m.right <= c.right
            }, sidebar)
            expect(fits).toBe(true)
            await saveScreenshot(page, 'sidebar-collapsed', { theme })
            await page.getByRole('button', { name: 'Expand sidebar' }).click()
          }

          for (const [path, title] of [
            ['/dashboard/upload', 'Upload Video'],
            ['/dashboard/manage', 'Manage Videos'],
            ['/dashboard/admins', 'Admin Management'],
          ] as const) {
            await page.goto(path)
            await page.waitForFunction((t) => document.title === t, `${title} · ${NAME}`)
          }
          await context.close()
        },
        TEST_TIMEOUT,
      )
    })
  }
}

describe('everywhere the same mark', () => {
  test(
    'public header, its mobile menu, auth pages, sidebar and favicon draw one mark; titles name the studio',
    async () => {
      const { page, context } = await openPage(browser, {
        width: 375,
        height: 667,
        baseURL: server.url,
      })
      await page.goto('/')
      expect(await page.title()).toBe(`${NAME} — original music, sonic branding and sound design`)
      const header = await brandOf(page, 'header a[href="/"][data-brand]')
      expect(header.nameVisible).toBe(true)
      expect(header.mark?.circles.length).toBe(2)

      // The mobile menu: the studio's name and mark sit inside the open panel, not over its edge.
      await page.getByRole('button', { name: 'Menu' }).click()
      const panel = page.locator('#mobile-menu')
      await panel.getByRole('link', { name: 'WORK' }).waitFor()
      await page.waitForTimeout(700) // the panel's slide
      // Its first item has the focus (the panel is shown at once, then slides).
      expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#work')
      const inside = await page.evaluate(() => {
        const panel = document.getElementById('mobile-menu')!.getBoundingClientRect()
        // Every name and mark still showing: the panel's own, none across its edge.
        return [...document.querySelectorAll('header a[data-brand]')]
          .filter((a) => {
            const style = getComputedStyle(a)
            return style.visibility === 'visible' && Number(style.opacity) > 0
          })
          .map((a) => {
            const box = a.getBoundingClientRect()
            return box.left >= panel.left && box.right <= panel.right
          })
      })
      expect(inside).toEqual([true])
      await saveScreenshot(page, 'public-menu', { theme: 'dark' })

      const favicon = await faviconMark(page)
      expect(favicon.title).toBe(NAME)
      expect({ viewBox: favicon.viewBox, circles: favicon.circles }).toEqual(header.mark!)
      const icons = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]')].map((l) => l.href),
      )
      expect(icons).toEqual([`${server.url}/favicon.svg`])

      await page.goto('/auth/signin')
      const auth = await brandOf(page, 'a[href="/"][data-brand]')
      expect(auth.mark).toEqual(header.mark)

      const session = await server.apiLogin()
      await page.evaluate(
        (value) => localStorage.setItem('auth-storage', value),
        JSON.stringify({ state: { user: session.user, token: session.token }, version: 0 }),
      )
      await page.goto('/dashboard')
      await page.getByRole('button', { name: 'Open navigation' }).click()
      const sidebar = await brandOf(page, '#dashboard-sidebar a[data-brand]')
      expect(sidebar.mark).toEqual(header.mark)

      // Back on the landing page through the app, the title is the landing page's again.
      await page.goto('/dashboard')
      await page.getByRole('button', { name: /User menu/ }).click()
      await page.getByRole('menuitem', { name: 'Home' }).click()
      await page.waitForURL((url) => url.pathname === '/')
      await page.waitForFunction(
        (t) => document.title === t,
        `${NAME} — original music, sonic branding and sound design`,
      )
      await context.close()
    },
    TEST_TIMEOUT,
  )

  test(
    "forgot and reset both lead back to sign-in with 'Back to Sign In'",
    async () => {
      const { page, context } = await openPage(browser, { baseURL: server.url })
      for (const path of ['/auth/forgot-password', '/auth/reset-password/some-reset-token']) {
        await page.goto(path)
        await page.getByRole('link', { name: 'Back to Sign In', exact: true }).click()
        await page.waitForURL((url) => url.pathname === '/login')
        await page.getByRole('heading', { name: 'Sign In to Your Account' }).waitFor()
      }
      await context.close()
    },
    TEST_TIMEOUT,
  )
})
