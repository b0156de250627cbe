// The public pages link public.css alone (web/src/public.css: Tailwind over the public sources
// only), not the whole app's sheet. This proves the smaller sheet misses nothing: in every state
// a visitor can bring the pages to (menu open, a work playing in the modal, a work's own page, at
// 375 and 1280 px), each class on the page that the whole app's sheet styles, public.css styles
// too. A component the public pages start to use from a folder public.css does not read fails
// here.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { openPage } from './support/browser.ts'
import { gridSettled } from './support/grid.ts'
import { DIST } from './support/manifest.ts'
import { type Seeded, startSeeded } from './support/seeded.ts'

let seeded: Seeded

beforeAll(async () => {
  seeded = await startSeeded(3, { MEDIA_WORKERS: '0' })
}, 180_000)

afterAll(() => seeded?.stop(), 60_000)

/** The whole app's sheet: the CSS of the dashboard's chunk, from the build's manifest. */
function wholeAppCss(): string {
  const manifest = JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { css?: string[] }
  >
  const key = Object.keys(manifest).find((k) => k.endsWith('app/mount.tsx'))
  const [file] = manifest[key ?? '']?.css ?? []
  if (!file) throw new Error('the dashboard chunk has no stylesheet in the manifest')
  return readFileSync(join(DIST, file), 'utf8')
}

/**
 * The classes on the page now that the whole app's sheet styles and the page's own sheets do
 * not. Both sheets are read through the browser's CSS parser, every nested rule included.
 */
function unstyledClasses(page: Page, whole: string): Promise<string[]> {
  return page.evaluate((wholeText) => {
    const classesIn = (rules: CSSRuleList, out: Set<string>) => {
      for (const rule of rules) {
        if (rule instanceof CSSStyleRule) {
          for (const [, name] of rule.selectorText.matchAll(/\.((?:\\.|[\w-])+)/g)) out.add(name!)
        }
        if ('cssRules' in rule) classesIn((rule as CSSGroupingRule).cssRules, out)
      }
      return out
    }
    const own = new Set<string>()
    for (const sheet of document.styleSheets) classesIn(sheet.cssRules, own)
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(wholeText)
    const styledByWhole = classesIn(sheet.cssRules, new Set())
    const onPage = new Set<string>()
    for (const el of document.querySelectorAll('[class]'))
      for (const name of el.classList) onPage.add(CSS.escape(name))
    return [...onPage].filter((name) => styledByWhole.has(name) && !own.has(name)).sort()
  }, whole)
}

test('every class the public pages use is styled by public.css, in every state', async () => {
  const whole = wholeAppCss()
  const missing = new Set<string>()
  const check = async (page: Page) => {
    for (const name of await unstyledClasses(page, whole)) missing.add(name)
  }
  let checks = 0
  for (const width of [375, 1280]) {
    const { page, context } = await openPage(seeded.browser, {
      width,
      height: 800,
      baseURL: seeded.server.url,
    })
    await page.goto('/')
    await gridSettled(page)
    // The page links public.css and nothing else.
    const links = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(
        (l) => new URL(l.href).pathname,
      ),
    )
    expect(links).toHaveLength(1)
    await check(page)
    checks++

    if (width === 375) {
      await page.getByRole('button', { name: 'Menu' }).click()
      await page
        .getByRole('navigation', { name: 'Mobile' })
        .getByRole('link', { name: 'WORK' })
        .waitFor()
      await check(page)
      checks++
      await page.keyboard.press('Escape')
      await page.getByRole('navigation', { name: 'Mobile' }).waitFor({ state: 'hidden' })
    }

    // A phone plays a work in the modal; a wider screen in its tile.
    const play = page.getByRole('list', { name: 'Videos' }).getByRole('button', { name: /^Play / })
    await play.first().scrollIntoViewIfNeeded()
    await play.first().click()
    if (width === 375) {
      await page.getByRole('dialog').waitFor()
      await check(page)
      await page.keyboard.press('Escape')
      await page.getByRole('dialog').waitFor({ state: 'detached' })
    } else {
      await page.waitForFunction(() =>
        [...document.querySelectorAll('video')].some((v) => v.currentSrc !== ''),
      )
      await check(page)
    }
    checks++

    const list = (await (await fetch(`${seeded.server.url}/api/public/videos?limit=1`)).json()) as {
      data: { videos: { slug: string }[] }
    }
    await page.goto(`/work/${list.data.videos[0]!.slug}`)
    await page.getByRole('heading', { level: 1 }).waitFor()
    await check(page)
    checks++
    await context.close()
  }
  expect(checks).toBe(7)
  expect([...missing]).toEqual([])
}, 120_000)
