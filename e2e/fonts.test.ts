// The brand's faces (Instrument Serif, Inter) on the public page: preloaded from the head, drawn
// on a first visit over the desktop profile, kept by the browser for every later visit (no font
// over the network, the faces in use from the first layout), and no layout shift at 375 and
// 1280 px; without them, the fallback the stylesheet names for the machine's fonts keeps every
// line where it was, on each kind of machine whose fonts this one has (support/font-machines.ts).
// Chromium against the real built server, seeded with sample videos.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { fixtures } from '../testkit/media.ts'
import { readyServerWorks } from '../testkit/ready.ts'
import { testSkipIf } from '../testkit/skip.ts'
import { uploadVideo } from '../testkit/upload.ts'
import { openPage } from './support/browser.ts'
import {
  launchWithout,
  localFaces,
  localsOf,
  presentLocally,
  sameFace,
} from './support/font-machines.ts'
import { renderedFonts } from './support/fonts.ts'
import { gridSettled } from './support/grid.ts'
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
  // No media worker: these tests are about uploads and pages, not streams, and a transcode
  // running beside them takes the CPU the browser needs.
  seeded = await startSeeded(SEEDED, { MEDIA_WORKERS: '0' })
}, 180_000)

afterAll(() => seeded?.stop(), 60_000)

type Probe = {
  cls: number
  /** Each shift with what moved (element, rectangles before and after) and the viewport then:
   * a failure says what happened. */
  shifts: { value: number; sources: string[]; viewport: string }[]
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
        sources?: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[]
      })[]) {
        if (entry.hadRecentInput) continue
        probe.cls += entry.value
        const rect = (r: DOMRectReadOnly) => `${r.x},${r.y} ${r.width}x${r.height}`
        probe.shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map(
            (s) =>
              `${s.node instanceof Element ? s.node.outerHTML.slice(0, 80) : String(s.node?.nodeName)} from ${rect(s.previousRect)} to ${rect(s.currentRect)}`,
          ),
          viewport: `${innerWidth}x${innerHeight} at ${Math.round(entry.startTime)} ms`,
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
  await gridSettled(page)
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

/**
 * The two kinds of machine the stylesheet's fallbacks are for, each checked in a Chromium whose
 * fonts are that machine's (e2e/support/font-machines.ts): this machine's own fonts, and them
 * without the first fallbacks' families. A kind whose fallback fonts this machine lacks is skipped
 * and says what to install.
 */
const FALLBACKS = localFaces()
const MACHINES = await Promise.all(
  [
    {
      kind: 'Times New Roman, Liberation Serif or Georgia',
      serif: 'Instrument Fallback',
      sans: 'Inter Fallback',
      hide: [],
      debian: 'fonts-liberation',
    },
    {
      kind: 'DejaVu only',
      serif: 'Instrument Fallback DejaVu',
      sans: 'Inter Fallback DejaVu',
      hide: [
        ...localsOf(FALLBACKS, 'Instrument Fallback'),
        ...localsOf(FALLBACKS, 'Inter Fallback'),
      ],
      debian: 'fonts-dejavu-core',
    },
  ].map(async (machine) => {
    const browser = machine.hide.length ? await launchWithout(machine.hide) : await launchBrowser()
    const missing: string[] = []
    for (const family of [machine.serif, machine.sans]) {
      const names = localsOf(FALLBACKS, family)
      if ((await presentLocally(browser, names)).length === 0) missing.push(names.join(' / '))
    }
    const skip = missing.length
      ? `this machine has none of ${missing.join(', nor ')} (Debian: ${machine.debian})`
      : undefined
    return { ...machine, browser, skip }
  }),
)

afterAll(() => Promise.all(MACHINES.map((m) => m.browser.close())))

type Layout = {
  /** Each measured element's box, rounded to the pixel. */
  boxes: { selector: string; top: number; height: number }[]
  /** Each measured element's text, line by line as drawn. */
  lines: string[][]
}

/** Where the hero's heading, its services line and the header's name sit, and where they break. */
const LAID_OUT = [
  '#hero-heading',
  'section[aria-labelledby="hero-heading"] p',
  'header a[href="/"]',
]

for (const machine of MACHINES) {
  testSkipIf(machine.skip)(
    `without the brand fonts, on a machine with ${machine.kind}, the fallback the stylesheet names for it keeps every line where the brand face puts it`,
    async () => {
      const measure = async (blockFonts: boolean, width: number) => {
        const { page, context } = await openPage(machine.browser, {
          width,
          height: 800,
          baseURL: seeded.server.url,
          // Chromium logs each aborted font as a failed load.
          allow: blockFonts ? [/net::ERR_FAILED/] : [],
        })
        if (blockFonts) await context.route(/\.woff2$/, (route) => route.abort())
        // With the brand faces, measured on a second visit: from the cache they are there for the
        // first layout however busy the machine (a first visit may lay out before they arrive).
        for (const _visit of blockFonts ? [1] : [1, 2]) {
          await page.goto('/')
          await page.locator('#hero-heading').waitFor()
          await page.waitForFunction(() => document.fonts.status === 'loaded')
        }
        const layout = await page.evaluate((selectors): Layout => {
          const range = document.createRange()
          const linesOf = (el: Element) => {
            const lines: string[] = []
            let last: DOMRect | undefined
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const text = node.textContent ?? ''
              for (let i = 0; i < text.length; i++) {
                range.setStart(node, i)
                range.setEnd(node, i + 1)
                const box = range.getClientRects()[0]
                if (!box || box.width === 0) continue
                // A glyph left of the one before it and lower starts a new line (lines may overlap:
                // the heading's line height is less than its glyphs' boxes).
                const glyph = text.charAt(i)
                const lower = last && box.top > last.top + last.height / 2
                if (!last || (box.left < last.left && lower)) lines.push(glyph)
                else lines.push(`${lines.pop()}${glyph}`)
                last = box
              }
            }
            return lines.map((line) => line.trim())
          }
          const elements = selectors.map((selector) => document.querySelector(selector)!)
          return {
            boxes: elements.map((el, i) => {
              const box = el.getBoundingClientRect()
              return {
                selector: selectors[i]!,
                top: Math.round(box.top),
                height: Math.round(box.height),
              }
            }),
            lines: elements.map(linesOf),
          }
        }, LAID_OUT)
        const faces = async (selector: string) =>
          [
            ...new Set(
              (await renderedFonts(page, selector))
                .flat()
                .map((f) => f.postScriptName ?? f.familyName),
            ),
          ].sort()
        const serif = await faces('#hero-heading > span, header a[href="/"] span')
        const sans = await faces('section[aria-labelledby="hero-heading"] p > span')
        await context.close()
        return { layout, serif, sans }
      }
      const listed = (family: string) => (face: string) =>
        localsOf(FALLBACKS, family).some((name) => sameFace(face, name))
      for (const width of [375, 1280]) {
        const brand = await measure(false, width)
        const fallback = await measure(true, width)
        expect(brand.serif).toEqual(['InstrumentSerif-Italic', 'InstrumentSerif-Regular'])
        // Every fallback glyph drawn in a face the stylesheet lists for this machine's fallback.
        expect(fallback.serif.length).toBeGreaterThan(0)
        expect(fallback.serif.filter((face) => !listed(machine.serif)(face))).toEqual([])
        expect(fallback.sans.length).toBeGreaterThan(0)
        expect(fallback.sans.filter((face) => !listed(machine.sans)(face))).toEqual([])
        // The same lines, broken at the same words, in boxes at the same place and height.
        expect(brand.layout.lines.flat().length).toBeGreaterThan(LAID_OUT.length)
        expect({ width, ...fallback.layout }).toEqual({ width, ...brand.layout })
      }
    },
    TEST_TIMEOUT,
  )
}

test(
  "a work's page preloads exactly the faces its first screen draws: not the landing hero's italic",
  async () => {
    const list = await fetch(`${seeded.server.url}/api/public/videos?limit=1`)
    const { videos } = ((await list.json()) as { data: { videos: { slug: string }[] } }).data
    for (const size of [
      { width: 375, height: 667 },
      { width: 1280, height: 800 },
    ]) {
      const { page, context } = await openPage(seeded.browser, {
        ...size,
        baseURL: seeded.server.url,
      })
      await page.goto(`/work/${videos[0]!.slug}`)
      await page.waitForLoadState('networkidle')
      const preloads = await page.evaluate(() =>
        [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="font"]')].map(
          (link) => link.href,
        ),
      )
      const aboveFold = await facesAboveTheFold(page)
      expect({ size, preloads: preloads.sort() }).toEqual({ size, preloads: aboveFold })
      expect(aboveFold.filter((url) => /italic/.test(url))).toEqual([])
      expect(aboveFold.length).toBe(2) // the serif title and Inter
      await context.close()
    }
  },
  TEST_TIMEOUT,
)

// Runs last: it adds a work to the page the tests above measure.
test(
  'a page whose text goes beyond English preloads the ext files and draws it in the brand face on a first visit',
  async () => {
    const title = 'Café Olé — Señor Bjørk'
    const { _id } = await uploadVideo(seeded.server.url, seeded.token, title, await fixtures())
    await readyServerWorks(seeded.server, [_id])
    // `font-display: optional` draws a face only if it has arrived within its short block period,
    // which a loaded machine can miss on any one visit; the promise is that the preloads make it
    // arrive in time, so each try is a new first visit (an empty cache), up to three.
    const tries: string[][][] = []
    for (let attempt = 1; attempt <= 3; attempt++) {
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
      await page
        .getByText(title, { exact: true })
        .evaluate((el) => el.setAttribute('data-probe', ''))
      const drawn = (await renderedFonts(page, '[data-probe]')).flat()
      tries.push(drawn.map((f) => [f.familyName, String(f.isCustomFont)]))
      await cdp.detach()
      await context.close()
      if (drawn.every((f) => f.familyName === 'Inter' && f.isCustomFont)) break
    }
    if (tries.length > 1)
      console.log(`[fonts] first visits until Inter drew it all: ${JSON.stringify(tries)}`)
    expect(tries.at(-1)).toEqual([['Inter', 'true']])
  },
  TEST_TIMEOUT,
)
