// The brand's faces (Instrument Serif, Inter) on the public page (record 016): preloaded from the
// head, drawn on a first visit over the desktop profile, kept by the browser for every later
// visit (no font over the network, the faces in use from the first layout), and no layout shift
// at 375 and 1280 px. Chromium against the real built server, seeded with sample videos.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { fixtures } from '../testkit/media.ts'
import { uploadVideo } from '../testkit/upload.ts'
import { openPage } from './support/browser.ts'
import { renderedFonts } from './support/fonts.ts'
import { recordResponses, throttle } from './support/network.ts'
import { type Seeded, startSeeded } from './support/seeded.ts'

const SEEDED = 6
const TEST_TIMEOUT = 90_000
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** The three faces of the brand, as `document.fonts.check` names them. */
const FACES = {
  serif: '400 32px "Instrument Serif"',
  serifItalic: 'italic 400 32px "Instrument Serif"',
  sans: '400 16px "Inter Variable"',
}

/** The renderer names a face by its file's own family name; the CSS may call it otherwise. */
const FAMILY_OF: Record<string, string> = { Inter: 'Inter Variable' }

let seeded: Seeded

beforeAll(async () => {
  seeded = await startSeeded(SEEDED)
}, 180_000)

afterAll(() => seeded?.stop(), 60_000)

type Probe = {
  cls: number
  shifts: { value: number; sources: string[] }[]
  /** Taken in the first ResizeObserver callback of the hero heading: after its first layout,
   * before its first paint. */
  firstLayout: null | { faces: Record<keyof typeof FACES, boolean>; height: number }
}

/**
 * Before any page script: sums layout shifts (as CLS counts them), and records which brand faces
 * were ready when the hero heading was laid out for the first time.
 */
async function installProbe(context: BrowserContext) {
  await context.addInitScript((faces: typeof FACES) => {
    const probe: Probe = { cls: 0, shifts: [], firstLayout: null }
    ;(window as unknown as { __probe: Probe }).__probe = probe
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number
        hadRecentInput: boolean
        sources?: { node?: Node }[]
      })[]) {
        if (entry.hadRecentInput) continue
        probe.cls += entry.value
        probe.shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map((s) =>
            s.node instanceof Element ? s.node.outerHTML.slice(0, 80) : String(s.node?.nodeName),
          ),
        })
      }
    }).observe({ type: 'layout-shift', buffered: true })
    const resize = new ResizeObserver((entries) => {
      if (probe.firstLayout) return
      const check = (font: string) => document.fonts.check(font)
      probe.firstLayout = {
        faces: {
          serif: check(faces.serif),
          serifItalic: check(faces.serifItalic),
          sans: check(faces.sans),
        },
        height: entries[0]!.contentRect.height,
      }
      resize.disconnect()
    })
    const watch = new MutationObserver(() => {
      const heading = document.getElementById('hero-heading')
      if (!heading) return
      resize.observe(heading)
      watch.disconnect()
    })
    watch.observe(document, { childList: true, subtree: true })
  }, FACES)
}

async function settle(page: Page) {
  await page.locator('[data-testid="work-grid"][aria-busy="false"]').waitFor({ state: 'attached' })
  await page.waitForLoadState('networkidle')
  // One more frame for any shift the last answer caused to be reported.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))))
}

const probe = (page: Page) => page.evaluate(() => (window as unknown as { __probe: Probe }).__probe)

/** Instrument Serif for the hero heading (its last words in the italic face), Inter beside it. */
async function expectBrandFacesDrawn(page: Page) {
  const heading = await page.evaluate(() => {
    const h1 = document.getElementById('hero-heading')!
    return {
      family: getComputedStyle(h1).fontFamily,
      spans: [...h1.querySelectorAll('span')].map((s) => getComputedStyle(s).fontStyle),
    }
  })
  expect(heading.family.split(',')[0]?.replaceAll('"', '').trim()).toBe('Instrument Serif')
  expect(heading.spans.at(-1)).toBe('italic')

  const drawn = await renderedFonts(page, '#hero-heading > span')
  expect(drawn.length).toBe(heading.spans.length)
  drawn.forEach((fonts, index) => {
    const italic = heading.spans[index] === 'italic'
    // Every glyph of the span in the one brand face: no fallback face took any of it.
    expect(fonts.map((f) => [f.familyName, f.isCustomFont])).toEqual([['Instrument Serif', true]])
    expect(fonts[0]?.postScriptName ?? '').toBe(
      italic ? 'InstrumentSerif-Italic' : 'InstrumentSerif-Regular',
    )
  })
  // The line of services above it is set in Inter.
  const services = await renderedFonts(page, 'section[aria-labelledby="hero-heading"] p > span')
  const families = new Set(services.flat().map((f) => [f.familyName, f.isCustomFont].join()))
  expect([...families]).toEqual(['Inter,true'])

  const ready = await page.evaluate(
    (faces) => Object.values(faces).map((font) => document.fonts.check(font)),
    FACES,
  )
  expect(ready).toEqual([true, true, true])
}

type FontFaceRule = { face: string; url: string; ranges: [number, number][] }

/** The page's @font-face rules: each file's (family, style), absolute URL and characters. */
function fontFaceRules(page: Page): Promise<FontFaceRule[]> {
  return page.evaluate(() => {
    const out: FontFaceRule[] = []
    for (const sheet of document.styleSheets) {
      for (const rule of sheet.cssRules) {
        if (!(rule instanceof CSSFontFaceRule)) continue
        const family = rule.style.getPropertyValue('font-family').replaceAll('"', '').trim()
        const style = rule.style.getPropertyValue('font-style') || 'normal'
        const url = /url\("?([^")]+)"?\)/.exec(rule.style.getPropertyValue('src'))?.[1]
        const range = rule.style.getPropertyValue('unicode-range') || 'U+0-10FFFF'
        const ranges = [...range.matchAll(/U\+([0-9a-f]+)(?:-([0-9a-f]+))?/gi)].map(
          ([, from, to]) => [parseInt(from!, 16), parseInt(to ?? from!, 16)] as [number, number],
        )
        if (url)
          out.push({
            face: `${family}|${style}`,
            url: new URL(url, sheet.href ?? location.href).href,
            ranges,
          })
      }
    }
    return out
  })
}

const draws = (rule: FontFaceRule, code: number) =>
  rule.ranges.some(([from, to]) => code >= from && code <= to)

/** The absolute URLs of the font files every face used above the fold was drawn from. */
async function facesAboveTheFold(page: Page): Promise<string[]> {
  // Tag every element with its own text inside the first screen, then ask the renderer which
  // faces drew that text.
  const text = await page.evaluate(() => {
    let text = ''
    for (const el of document.body.querySelectorAll('*')) {
      const ownText = [...el.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
      )
      const box = el.getBoundingClientRect()
      const visible = box.bottom > 0 && box.top < innerHeight && box.width > 0 && box.height > 0
      if (ownText && visible && getComputedStyle(el).visibility === 'visible') {
        el.setAttribute('data-fold-probe', '')
        text += el.textContent
      }
    }
    return text
  })
  const drawn = (await renderedFonts(page, '[data-fold-probe]')).flat()
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('[data-fold-probe]'))
      el.removeAttribute('data-fold-probe')
  })
  const used = new Set(
    drawn
      .filter((f) => f.isCustomFont)
      .map((f) => {
        const family = FAMILY_OF[f.familyName] ?? f.familyName
        return `${family}|${/Italic/.test(f.postScriptName ?? '') ? 'italic' : 'normal'}`
      }),
  )
  // A face's files needed here are those that draw some of the text.
  const sources = await fontFaceRules(page)
  const codes = [...text].map((c) => c.codePointAt(0)!).filter((code) => code > 0x20)
  const files = [...used].flatMap((face) => {
    const rules = sources.filter((s) => s.face === face)
    if (rules.length === 0) return [`no @font-face for ${face}`]
    return rules.filter((rule) => codes.some((code) => draws(rule, code))).map((rule) => rule.url)
  })
  return files.sort()
}

for (const size of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  describe(`at ${size.width} px`, () => {
    test(
      'first visit over 30 Mbps / 40 ms draws the brand faces; a second visit fetches no font and uses them from the first layout; CLS 0',
      async () => {
        const tracked = await openPage(seeded.browser, { ...size, baseURL: seeded.server.url })
        const { page, context } = tracked
        await installProbe(context)

        // First visit, fresh profile (a new context has an empty cache).
        const firstCdp = await throttle(page)
        const first = recordResponses(firstCdp)
        await page.goto('/')
        await settle(page)
        await expectBrandFacesDrawn(page)
        const firstProbe = await probe(page)
        expect(firstProbe.shifts).toEqual([])
        expect(firstProbe.cls).toBe(0)

        // Exactly the faces drawn above the fold are preloaded from the head, as fonts, CORS.
        const preloads = await page.evaluate(() =>
          [
            ...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="font"]'),
          ].map((link) => ({
            href: link.href,
            type: link.type,
            crossorigin: link.getAttribute('crossorigin'),
          })),
        )
        const aboveFold = await facesAboveTheFold(page)
        expect(preloads.map((p) => p.href).sort()).toEqual(aboveFold)
        for (const link of preloads) {
          expect(link.type).toBe('font/woff2')
          expect(link.crossorigin).not.toBeNull()
        }
        expect(aboveFold.length).toBe(3) // serif, its italic, and Inter

        // Each font came once, from a content-hashed URL the server lets browsers keep a year.
        const fonts = first.filter((r) => r.mimeType.startsWith('font/') || /\.woff2$/.test(r.url))
        expect(fonts.map((r) => r.url).sort()).toEqual(aboveFold)
        for (const font of fonts) {
          expect(font.fromCache).toBe(false)
          expect(new URL(font.url).pathname).toMatch(/^\/assets\/[\w-]+-[\w-]{8,}\.woff2$/)
          const res = await fetch(font.url, { method: 'HEAD' })
          expect(res.headers.get('cache-control')).toBe(IMMUTABLE)
        }
        await firstCdp.detach()

        // Second visit in the same browser: a new page, same profile and cache.
        const second = await context.newPage()
        const secondCdp = await throttle(second)
        const again = recordResponses(secondCdp)
        await second.goto('/')
        await settle(second)
        const fetchedFonts = again.filter(
          (r) => (r.mimeType.startsWith('font/') || /\.woff2$/.test(r.url)) && !r.fromCache,
        )
        expect(fetchedFonts).toEqual([])
        const secondProbe = await probe(second)
        expect(secondProbe.firstLayout?.faces).toEqual({
          serif: true,
          serifItalic: true,
          sans: true,
        })
        await expectBrandFacesDrawn(second)
        // Laid out once in the brand face: the heading never changed size after that.
        const height = await second.evaluate(
          () => document.getElementById('hero-heading')!.getBoundingClientRect().height,
        )
        expect(height).toBe(secondProbe.firstLayout!.height)
        expect(secondProbe.shifts).toEqual([])
        expect(secondProbe.cls).toBe(0)
        await secondCdp.detach()

        await second.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {})
        await context.close()
      },
      TEST_TIMEOUT,
    )
  })
}

test(
  'without the brand fonts, the fallback the machine has keeps every line where it was',
  async () => {
    // This machine has only DejaVu: the overrides meant for it must be the ones applied.
    const measure = async (blockFonts: boolean, width: number) => {
      const { page, context } = await openPage(seeded.browser, {
        width,
        height: 800,
        baseURL: seeded.server.url,
        // Chromium logs each aborted font as a failed load.
        allow: blockFonts ? [/net::ERR_FAILED/] : [],
      })
      if (blockFonts) await context.route(/\.woff2$/, (route) => route.abort())
      await page.goto('/')
      await page.locator('#hero-heading').waitFor()
      await page.waitForFunction(() => document.fonts.status === 'loaded')
      const boxes = await page.evaluate(() =>
        ['#hero-heading', 'section[aria-labelledby="hero-heading"] p', 'header a[href="/"]'].map(
          (selector) =>
            Math.round(document.querySelector(selector)!.getBoundingClientRect().height),
        ),
      )
      const faces = (await renderedFonts(page, '#hero-heading > span, header a[href="/"] span'))
        .flat()
        .map((f) => f.postScriptName ?? f.familyName)
      await context.close()
      return { boxes, faces: [...new Set(faces)].sort() }
    }
    for (const width of [375, 1280]) {
      const brand = await measure(false, width)
      const fallback = await measure(true, width)
      expect(brand.faces).toEqual(['InstrumentSerif-Italic', 'InstrumentSerif-Regular'])
      expect(fallback.faces).toEqual(['DejaVuSerifCondensed', 'DejaVuSerifCondensed-Italic'])
      expect([width, ...fallback.boxes]).toEqual([width, ...brand.boxes])
    }
  },
  TEST_TIMEOUT,
)

// Runs last: it adds a work to the page the tests above measure.
test(
  'a page whose text goes beyond English preloads the ext files and draws it in the brand face on a first visit',
  async () => {
    const title = 'Café Olé — Señor Bjørk'
    await uploadVideo(seeded.server.url, seeded.token, title, await fixtures())
    const { page, context } = await openPage(seeded.browser, {
      width: 1280,
      height: 800,
      baseURL: seeded.server.url,
    })
    const cdp = await throttle(page)
    const responses = recordResponses(cdp)
    await page.goto('/')
    await settle(page)

    // The files whose @font-face ranges hold 'é': one per face, none of them a core file.
    const ext = (await fontFaceRules(page))
      .filter((rule) => draws(rule, 'é'.codePointAt(0)!))
      .map((rule) => rule.url)
    expect(ext.length).toBe(3)
    const preloads = await page.evaluate(() =>
      [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="font"]')].map(
        (link) => link.href,
      ),
    )
    for (const url of ext) expect(preloads).toContain(url)
    const fetched = responses.filter((r) => /\.woff2$/.test(r.url)).map((r) => r.url)
    for (const url of ext) expect(fetched).toContain(url)

    // Every glyph of the title, accents included, in Inter: no fallback face drew any of it.
    await page.getByText(title, { exact: true }).evaluate((el) => el.setAttribute('data-probe', ''))
    const drawn = (await renderedFonts(page, '[data-probe]')).flat()
    expect(drawn.map((f) => [f.familyName, f.isCustomFont])).toEqual([['Inter', true]])
    await cdp.detach()
    await context.close()
  },
  TEST_TIMEOUT,
)
