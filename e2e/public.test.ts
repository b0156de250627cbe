// The public portfolio page (docs/public-site.md) in Chromium against the real built server,
// seeded with sample videos through the REST API, at 1280 px and 375 px.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page, Request } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { readyServerWorks } from '../testkit/ready.ts'
import { makeSampleMedia, seedVideos } from '../testkit/sample-videos.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { openPage } from './support/browser.ts'
import { gridSettled } from './support/grid.ts'
import { DIST, dashboardChunks, hlsChunk, initialFiles } from './support/manifest.ts'

const SEEDED = 7 // three rows at three columns, the last one short
const TEST_TIMEOUT = 30_000

const CLIENTS = [
  'Nike',
  'Apple TV',
  'Google',
  'Coca Cola',
  'Netflix',
  'Hulu',
  'AT&T',
  'Beats',
  'ESPN',
  'Fitbit',
  'Lionsgate',
  'Showtime',
  'Meta',
  'Comedy Central',
  'Universal Music Group',
]

type PublicVideo = {
  _id: string
  title: string
  videoUrl: string
  hlsUrl: string
  brandLogoUrl: string
}

let server: E2EServer
let browser: Browser
let mediaDir: string
let videos: PublicVideo[]

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), 'public-e2e-'))
  // No worker: the works are made ready by testkit/ready.ts (one real run, stored per work), as a
  // visitor sees works only once their streams exist (processed playback in depth:
  // e2e/streams.test.ts).
  const [started, samples] = await Promise.all([
    startServer({ MEDIA_WORKERS: '0' }),
    makeSampleMedia(mediaDir, SEEDED),
  ])
  server = started
  const { token } = await server.apiLogin()
  await seedVideos(server.url, token, samples)
  await readyServerWorks(server)
  const body = (await (await fetch(`${server.url}/api/public/videos`)).json()) as {
    data: { videos: PublicVideo[] }
  }
  videos = body.data.videos
  browser = await launchBrowser()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true })
}, 60_000)

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
] as const

async function open(width: number, height = 800, allow: RegExp[] = []) {
  const tracked = await openPage(browser, { width, height, baseURL: server.url, allow })
  return tracked
}

/**
 * Ends a test: lets in-flight requests settle (closing over them races playwright's protocol
 * objects), then closes the context (the page fixture fails the test on any console error).
 */
async function finish(page: Page, context: BrowserContext) {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {})
  await context.close()
}

/** Waits until the grid has left its loading state. */

function workGrid(page: Page) {
  return page.getByRole('list', { name: 'Videos' })
}

function playButtons(page: Page) {
  return workGrid(page).getByRole('button', { name: /^Play / })
}

/** Scrolls through the page so every lazy image has had its chance to load. */
async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
      window.scrollTo({ top: y, behavior: 'instant' })
      await new Promise((resolve) => setTimeout(resolve, 40))
    }
  })
}

for (const size of WIDTHS) {
  describe(`at ${size.width} px`, () => {
    test(
      'sections come in the documented order with their texts, landmarks and contact links',
      async () => {
        const { page, context } = await open(size.width, size.height)
        await page.goto('/')
        await page.getByRole('heading', { level: 1 }).waitFor()

        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
          'Where words leave off, music begins.',
        )
        await expect(page.getByRole('banner').count()).resolves.toBe(1)
        await expect(page.getByRole('main').count()).resolves.toBe(1)
        await expect(page.getByRole('contentinfo').count()).resolves.toBe(1)

        // Header first (fixed at the top), then hero, clients, work, about, contact in that order.
        const order = await page.evaluate(() => {
          const ids = ['hero-heading', 'clients-heading', 'work', 'about', 'contact']
          const elements = ids.map((id) => document.getElementById(id))
          const header = document.querySelector('header')
          return {
            missing: ids.filter((_, i) => !elements[i]),
            headerFirst:
              header?.compareDocumentPosition(elements[0]!) === Node.DOCUMENT_POSITION_FOLLOWING,
            tops: elements.map((el) => (el ? el.getBoundingClientRect().top + window.scrollY : -1)),
          }
        })
        expect(order.missing).toEqual([])
        expect(order.headerFirst).toBe(true)
        expect(order.tops).toEqual([...order.tops].sort((a, b) => a - b))

        // The nav items (in the header on desktop, in the menu on a phone).
        if (size.width >= 768) {
          const nav = page.getByRole('navigation', { name: 'Primary' })
          for (const [label, target] of [
            ['WORK', '#work'],
            ['ABOUT', '#about'],
            ['CONTACT', '#contact'],
          ]) {
            await expect(nav.getByRole('link', { name: label }).getAttribute('href')).resolves.toBe(
              target!,
            )
          }
        } else {
          await page.getByRole('button', { name: 'Menu' }).click()
          const nav = page.getByRole('navigation', { name: 'Mobile' })
          for (const label of ['WORK', 'ABOUT', 'CONTACT']) {
            await nav.getByRole('link', { name: label }).waitFor()
          }
          await page.keyboard.press('Escape')
        }

        const about = (await page.locator('#about').textContent()) ?? ''
        expect(about).toContain('benchmark of excellence in music and audio services')
        expect(about).toMatch(/every genre/)
        expect(about).toMatch(/elevate your vision/)
        expect(about).toMatch(/emotional moments/)

        const footer = page.getByRole('contentinfo')
        for (const title of ['Executive Producer', 'Chief Creative Officer']) {
          await footer.getByText(title, { exact: true }).waitFor()
        }
        const phones = footer.locator('a[href^="tel:+"]')
        const mails = footer.locator('a[href^="mailto:"]')
        await expect(phones.count()).resolves.toBe(2)
        await expect(mails.count()).resolves.toBe(2)
        for (const link of [...(await phones.all()), ...(await mails.all())]) {
          await expect(link.locator('svg').count()).resolves.toBe(1) // the icon
          expect((await link.textContent())?.trim().length).toBeGreaterThan(5)
        }
        await finish(page, context)
      },
      TEST_TIMEOUT,
    )

    test(
      '15 client logos with their alt names, sized before they load',
      async () => {
        const { page, context } = await open(size.width, size.height)
        await page.goto('/')
        const logos = page.getByRole('region', { name: 'Clients' }).getByRole('img')
        // The page renders after its script runs: wait for the grid before counting it.
        await logos.nth(14).waitFor({ state: 'attached' })
        await expect(logos.count()).resolves.toBe(15)
        const attrs = await logos.evaluateAll((imgs) =>
          (imgs as HTMLImageElement[]).map((img) => ({
            alt: img.alt,
            width: img.getAttribute('width'),
            height: img.getAttribute('height'),
            loading: img.loading,
          })),
        )
        expect(attrs.map((a) => a.alt)).toEqual(CLIENTS)
        for (const a of attrs) {
          expect(a.width && a.height && a.loading).toBeTruthy()
          expect(a.loading).toBe('lazy')
        }
        await page.getByRole('region', { name: 'Clients' }).scrollIntoViewIfNeeded()
        await page.waitForFunction(() =>
          [...document.querySelectorAll<HTMLImageElement>('#clients-heading + ul img')].every(
            (img) => img.complete && img.naturalWidth > 0,
          ),
        )
        await finish(page, context)
      },
      TEST_TIMEOUT,
    )

    test(
      'the grid shows one tile per public video, 280 px high, lazy thumbnails',
      async () => {
        const { page, context } = await open(size.width, size.height)
        await page.goto('/')
        await gridSettled(page)
        await expect(playButtons(page).count()).resolves.toBe(videos.length)
        expect(videos.length).toBe(SEEDED)
        const tiles = await workGrid(page)
          .locator(':scope > li')
          .evaluateAll((items) =>
            items.map((li) => {
              const box = li.getBoundingClientRect()
              const thumb = li.querySelector('img')!
              return {
                left: Math.round(box.left),
                height: Math.round(box.height),
                lazy: thumb.loading,
                sized: thumb.hasAttribute('width') && thumb.hasAttribute('height'),
                preload: li.querySelector('video')?.preload,
              }
            }),
          )
        const columns = new Set(tiles.map((t) => t.left)).size
        expect(columns).toBe(size.width >= 1024 ? 3 : 1)
        for (const tile of tiles) {
          expect(tile.height).toBe(280)
          expect(tile.lazy).toBe('lazy')
          expect(tile.sized).toBe(true)
          expect(tile.preload).toBe('none')
        }
        await finish(page, context)
      },
      TEST_TIMEOUT,
    )

    test(
      'an unknown path shows the page, and `/` loads no dashboard code and plays nothing untouched',
      async () => {
        // The unknown path answers 404 (Chromium logs that as a console error) and is the page.
        const { page, context } = await open(size.width, size.height, [/status of 404/])
        const requests: Request[] = []
        page.on('request', (request) => requests.push(request))
        expect((await page.goto('/no/such/page'))?.status()).toBe(404)
        await page.getByRole('heading', { name: 'Where words leave off, music begins.' }).waitFor()
        await page.goto('/')
        await gridSettled(page)
        await scrollThrough(page)
        await page.waitForLoadState('networkidle')

        const urls = requests.map((r) => new URL(r.url()).pathname)
        const dashboard = dashboardChunks()
        expect(dashboard.length).toBeGreaterThan(0)
        for (const chunk of dashboard) expect(urls).not.toContain(`/${chunk}`)
        // hls.js is its own chunk, imported only dynamically (fetched as the grid nears,
        // e2e/streams.test.ts), and no video plays untouched: no MP4, no segment, no media
        // element's request.
        const hls = hlsChunk()
        expect(hls.dynamicOnly).toBe(true)
        expect(initialFiles().has(hls.file)).toBe(false)
        for (const video of videos)
          expect(urls).not.toContain(new URL(video.videoUrl, server.url).pathname)
        expect(urls.filter((u) => u.endsWith('.m4s') && !u.endsWith('seg_000.m4s'))).toEqual([])
        expect(requests.filter((r) => r.resourceType() === 'media')).toEqual([])

        // Initial JavaScript of the public page, gzip: a guard at 91 KiB (the Lighthouse target of
        // docs/performance.md is tighter; the 1.1 KiB over the former 90 play a stream's first
        // second before hls.js has arrived, player/first-segments.ts). hls.js is not part of it:
        // the grid's streams fetch it as the grid nears, for the click to come.
        const scripts = [...new Set(urls.filter((u) => u.endsWith('.js') && u !== `/${hls.file}`))]
        const gzipBytes = scripts
          .map((u) => Bun.gzipSync(readFileSync(join(DIST, u))).length)
          .reduce((a, b) => a + b, 0)
        expect(gzipBytes).toBeLessThanOrEqual(91 * 1024)
        await finish(page, context)
      },
      TEST_TIMEOUT,
    )

    test(
      'the hero image is discoverable in the HTML, high priority and never lazy',
      async () => {
        const html = await (await fetch(`${server.url}/`)).text()
        const preloads = html.match(/<link[^>]*rel="preload"[^>]*as="image"[^>]*>/g) ?? []
        expect(preloads.length).toBe(2)
        for (const link of preloads) expect(link).toContain('fetchpriority="high"')

        const { page, context } = await open(size.width, size.height)
        await page.goto('/')
        const hero = page.locator('#hero-heading').locator('xpath=ancestor::section//img')
        await expect(hero.getAttribute('fetchpriority')).resolves.toBe('high')
        await expect(hero.getAttribute('loading')).resolves.toBeNull()
        await page.waitForFunction(() => {
          const img = document.querySelector<HTMLImageElement>(
            'section[aria-labelledby="hero-heading"] img',
          )
          return img?.complete && img.naturalWidth > 0
        })
        // Art direction: the narrow set below 768 px, the wide set above; one download either way.
        const variant = size.width < 768 ? 'hero-mobile-' : 'hero-wide-'
        // Resource Timing, not playwright's request events: those trip over the preload's reuse.
        const heroRequests = await page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .map((entry) => entry.name)
            .filter((name) => name.includes('/hero/')),
        )
        expect(heroRequests.length).toBe(1)
        expect(heroRequests[0]).toContain(variant)
        expect(heroRequests[0]).toEndWith('.avif')
        await finish(page, context)
      },
      TEST_TIMEOUT,
    )

    test(
      'nothing shifts while the page loads',
      async () => {
        const { page, context } = await open(size.width, size.height)
        await page.addInitScript(() => {
          const w = window as unknown as { __cls: number }
          w.__cls = 0
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & {
              value: number
              hadRecentInput: boolean
            })[]) {
              if (!entry.hadRecentInput) w.__cls += entry.value
            }
          }).observe({ type: 'layout-shift', buffered: true })
        })
        await page.goto('/')
        await gridSettled(page)
        await page.waitForLoadState('networkidle')
        const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls)
        expect(cls).toBeLessThanOrEqual(0.02)
        await finish(page, context)
      },
      TEST_TIMEOUT,
    )
  })
}

describe('at 1280 px', () => {
  test(
    'nav click scrolls over ~800 ms with ease-in-out-quart; the header changes after 50 px',
    async () => {
      const { page, context } = await open(1280)
      await page.goto('/')
      await gridSettled(page)
      const header = page.getByRole('banner')
      await expect(header.getAttribute('data-scrolled')).resolves.toBe('false')
      const layer = header.locator('> div').first()
      const clearBg = await layer.evaluate((el) => getComputedStyle(el).backgroundColor)
      expect(clearBg).toBe('rgba(0, 0, 0, 0)')

      await page.evaluate(() => window.scrollTo({ top: 50, behavior: 'instant' }))
      await page.waitForTimeout(100)
      await expect(header.getAttribute('data-scrolled')).resolves.toBe('false')
      await page.evaluate(() => window.scrollTo({ top: 51, behavior: 'instant' }))
      await page.waitForFunction(
        () => document.querySelector('header')?.dataset.scrolled === 'true',
      )
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }))
      await page.waitForFunction(
        () => document.querySelector('header')?.dataset.scrolled === 'false',
      )

      // Record each position the animation asks for, and when, from the click on. "When" is the
      // frame's time, which the animation computes the position from: on a busy machine its
      // callback can run long after the frame began.
      await page.evaluate(() => {
        const w = window as unknown as { __steps: [number, number][]; __clickAt: number }
        w.__steps = []
        const scrollTo = window.scrollTo.bind(window)
        window.scrollTo = ((options: ScrollToOptions) => {
          const frameTime = document.timeline.currentTime
          w.__steps.push([
            typeof frameTime === 'number' ? frameTime : performance.now(),
            options.top ?? 0,
          ])
          scrollTo(options)
        }) as typeof window.scrollTo
        document.addEventListener('click', () => (w.__clickAt = performance.now()), {
          capture: true,
        })
      })
      const from = await page.evaluate(() => window.scrollY)
      await page
        .getByRole('navigation', { name: 'Primary' })
        .getByRole('link', { name: 'ABOUT' })
        .click()
      await page.waitForFunction(() => location.hash === '#about', undefined, { timeout: 5000 })
      const result = await page.evaluate(() => {
        const w = window as unknown as { __steps: [number, number][]; __clickAt: number }
        const target = document.getElementById('about')!
        return {
          steps: w.__steps,
          clickAt: w.__clickAt,
          top: target.getBoundingClientRect().top,
          headerHeight: document.querySelector('header')!.getBoundingClientRect().height,
          focused: document.activeElement === target,
          end: window.scrollY,
        }
      })
      expect(Math.abs(result.top - result.headerHeight)).toBeLessThanOrEqual(2)
      expect(result.focused).toBe(true)
      expect(result.steps.length).toBeGreaterThan(5) // animated, not a jump
      const duration = result.steps.at(-1)![0] - result.clickAt
      expect(duration).toBeGreaterThanOrEqual(780)
      expect(duration).toBeLessThan(1400)
      // Each step sits on the ease-in-out-quart curve for its time (up to 80 ms of frame slack).
      const quart = (t: number) => (t < 0.5 ? 8 * t ** 4 : 1 - (-2 * t + 2) ** 4 / 2)
      const misses = result.steps.filter(([at, top]) => {
        const progress = (top - from) / (result.end - from)
        const t = Math.min(1, (at - result.clickAt) / 800)
        return progress < quart(Math.max(0, t - 0.1)) - 0.01 || progress > quart(t) + 0.01
      })
      expect(misses).toEqual([])
      // The curve's shape: slow start, fast middle, slow finish.
      const progressAt = (ms: number) => {
        const step = result.steps.findLast(([at]) => at - result.clickAt <= ms)
        return step ? (step[1] - from) / (result.end - from) : 0
      }
      expect(progressAt(150)).toBeLessThan(0.05)
      expect(progressAt(800 + 400)).toBeCloseTo(1, 2)
      await expect(header.getAttribute('data-scrolled')).resolves.toBe('true')
      const darkBg = await layer.evaluate((el) => getComputedStyle(el).backgroundColor)
      expect(darkBg).not.toBe('rgba(0, 0, 0, 0)')
      await finish(page, context)
    },
    TEST_TIMEOUT,
  )

  test(
    'with reduced motion the nav jumps straight to the section',
    async () => {
      const { page, context } = await open(1280)
      await page.emulateMedia({ reducedMotion: 'reduce' })
      await page.goto('/')
      await gridSettled(page)
      await page
        .getByRole('navigation', { name: 'Primary' })
        .getByRole('link', { name: 'CONTACT' })
        .click()
      // No animation: already there on the next check, not 800 ms later.
      const reached = await page.evaluate(() => window.scrollY)
      expect(reached).toBeGreaterThan(1000)
      await page.waitForTimeout(150)
      expect(await page.evaluate(() => window.scrollY)).toBe(reached)
      await finish(page, context)
    },
    TEST_TIMEOUT,
  )

  test(
    'two columns between 640 and 1023 px',
    async () => {
      const { page, context } = await open(800)
      await page.goto('/')
      await gridSettled(page)
      const lefts = await workGrid(page)
        .locator(':scope > li')
        .evaluateAll((items) => items.map((li) => Math.round(li.getBoundingClientRect().left)))
      expect(new Set(lefts).size).toBe(2)
      await finish(page, context)
    },
    TEST_TIMEOUT,
  )

  test(
    'hover slides in the yellow overlay with the brand logo',
    async () => {
      const { page, context } = await open(1280)
      await page.goto('/')
      await gridSettled(page)
      const video = videos[0]!
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      const logo = button.getByRole('img', { name: `${video.title} brand logo` })
      const overlay = logo.locator('..')
      const tile = await button.boundingBox()
      const before = await overlay.boundingBox()
      expect(before!.y).toBeGreaterThanOrEqual(tile!.y + tile!.height - 1) // parked below the tile

      await button.hover()
      await page.waitForFunction(
        (title) => {
          const img = document.querySelector(`img[alt="${title} brand logo"]`)!
          const overlay = img.parentElement!.getBoundingClientRect()
          const tile = img.closest('button')!.getBoundingClientRect()
          return Math.abs(overlay.top - tile.top) < 1
        },
        video.title,
        { timeout: 3000 },
      )
      // The accent, lighter (70 %) once the work's preview loop plays under it.
      const colour = await overlay.evaluate((el) => getComputedStyle(el).backgroundColor)
      expect(['rgb(247, 209, 23)', 'oklab(0.867579 -0.0163181 0.17422 / 0.7)']).toContain(colour)
      await expect(
        logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      ).resolves.toBe(true)
      await finish(page, context)
    },
    TEST_TIMEOUT,
  )

  test(
    'click unmutes, goes fullscreen and plays; leaving fullscreen pauses',
    async () => {
      const { page, context } = await open(1280)
      await page.goto('/')
      await gridSettled(page)
      const video = videos[1]!
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      await button.click()
      await page.waitForFunction(() => {
        const player = document.fullscreenElement?.querySelector('video')
        return player && !player.paused && player.currentTime > 0 && player.controls
      })
      const state = await page.evaluate(() => {
        const player = document.fullscreenElement!.querySelector('video')!
        return { muted: player.muted, controls: player.controls, src: player.currentSrc }
      })
      expect(state.muted).toBe(false)
      expect(state.controls).toBe(true)
      // Its stream, through hls.js.
      expect(state.src).toStartWith('blob:')

      await page.evaluate(() => document.exitFullscreen())
      await page.waitForFunction(() => !document.fullscreenElement)
      // Back to idle: paused, thumbnail and play button back, focus on the tile.
      await button.waitFor()
      const after = await page.evaluate((title) => {
        const player = document
          .querySelector(`button[aria-label="Play ${title}"]`)!
          .closest('li')!
          .querySelector('video')!
        return {
          paused: player.paused,
          focused: document.activeElement?.getAttribute('aria-label'),
        }
      }, video.title)
      expect(after.paused).toBe(true)
      expect(after.focused).toBe(`Play ${video.title}`)
      await finish(page, context)
    },
    TEST_TIMEOUT,
  )

  test(
    'a video that cannot play is logged, its tile returns to idle and says so',
    async () => {
      const { page, context } = await open(1280, 800, [/Could not play/, /Failed to load resource/])
      const video = videos[2]!
      // Every file of its streams answers 404, and its current sources are the same ones.
      const folder = new URL(video.hlsUrl, server.url).pathname.replace(/master\.m3u8$/, '')
      await page.route(`**${folder}**`, (route) => route.fulfill({ status: 404, body: 'gone' }))
      await page.goto('/')
      await gridSettled(page)
      // Waited for, not looked up at once: a click that comes before React is live is played
      // only once it is (web/src/public/on-intent.ts), and the button never left meanwhile.
      const failureLogged = page.waitForEvent('console', {
        predicate: (m) =>
          m.type() === 'error' && m.text().includes(`Could not play "${video.title}"`),
        timeout: 15_000,
      })
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      await button.click()
      await failureLogged
      await page.waitForFunction(() => !document.fullscreenElement)
      await button.waitFor()
      await page
        .getByRole('alert')
        .filter({ hasText: "This video can't be played right now." })
        .waitFor()
      // The rest of the grid still works.
      await expect(playButtons(page).count()).resolves.toBe(videos.length)
      await finish(page, context)
    },
    TEST_TIMEOUT,
  )

  test(
    'a failing videos endpoint: logged only; the grid keeps the rendered works, or stays empty without them',
    async () => {
      for (const failure of ['500', 'network'] as const) {
        for (const rendered of [true, false]) {
          const { page, context } = await open(1280, 800, [
            /Could not load the public videos/,
            /Failed to load resource/,
          ])
          let calls = 0
          await page.route(/\/api\/public\/videos(\?|$)/, (route) => {
            calls++
            return failure === '500'
              ? route.fulfill({ status: 500, json: { status: 'error', message: 'boom' } })
              : route.abort('failed')
          })
          // The shell alone is the page as the browser gets it without the server's render (the
          // dev server's): it asks the API for the grid itself.
          if (!rendered) {
            const shell = readFileSync(join(DIST, 'index.html'), 'utf8')
            await page.route(`${server.url}/`, (route) =>
              route.fulfill({ contentType: 'text/html', body: shell }),
            )
          }
          await page.goto('/')
          await gridSettled(page)
          // docs/public-site.md#paging: the list is asked for on mount (for a rendered page, once
          // React is live).
          await page.mouse.move(300, 300)
          for (let waited = 0; calls < 3 && waited < 10_000; waited += 100) await Bun.sleep(100)
          expect(calls).toBe(3) // two retries (docs/public-site.md#paging)
          await page.waitForTimeout(300)
          expect(calls).toBe(3)
          await expect(workGrid(page).locator(':scope > li').count()).resolves.toBe(
            rendered ? videos.length : 0,
          )
          await page.getByRole('heading', { name: 'About' }).waitFor()
          await page
            .getByRole('navigation', { name: 'Primary' })
            .getByRole('link', { name: 'CONTACT' })
            .click()
          await page.waitForFunction(() => location.hash === '#contact')
          await finish(page, context)
        }
      }
    },
    // Four pages, each waiting out the list's two retries: about 30 s on a loaded machine.
    TEST_TIMEOUT * 2,
  )
})

describe('at 375 px', () => {
  test(
    'the menu opens, locks scroll, and closes on outside click and on choosing an item',
    async () => {
      const { page, context } = await open(375, 812)
      await page.goto('/')
      await gridSettled(page)
      const toggle = page.getByRole('button', { name: 'Menu' })
      const menu = page.getByRole('navigation', { name: 'Mobile' })
      await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false')
      await expect(menu.isVisible()).resolves.toBe(false)

      await toggle.click()
      // A click before React is live is answered once it is (web/src/public/on-intent.ts).
      await page.getByRole('button', { name: 'Menu', expanded: true }).waitFor()
      await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true')
      await menu.getByRole('link', { name: 'WORK' }).waitFor()
      // Slid in: the panel sits inside the viewport's right edge.
      await page.waitForFunction(() => {
        const box = document.getElementById('mobile-menu')!.getBoundingClientRect()
        return Math.abs(box.right - window.innerWidth) < 1
      })
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
        'hidden',
      )
      const before = await page.evaluate(() => window.scrollY)
      await page.mouse.move(30, 400)
      await page.mouse.wheel(0, 800)
      await page.waitForTimeout(200)
      expect(await page.evaluate(() => window.scrollY)).toBe(before)

      // Outside click (the dimmed page to the left of the panel).
      await page.mouse.click(20, 500)
      await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false')
      await menu.waitFor({ state: 'hidden' })
      expect(
        await page.evaluate(() => getComputedStyle(document.documentElement).overflow),
      ).not.toBe('hidden')

      // Choosing an item closes the menu and scrolls to the section.
      await toggle.click()
      await menu.getByRole('link', { name: 'ABOUT' }).click()
      await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false')
      await page.waitForFunction(() => location.hash === '#about')
      const top = await page.evaluate(
        () => document.getElementById('about')!.getBoundingClientRect().top,
      )
      const headerHeight = await page.evaluate(
        () => document.querySelector('header')!.getBoundingClientRect().height,
      )
      expect(Math.abs(top - headerHeight)).toBeLessThanOrEqual(2)
      await menu.waitFor({ state: 'hidden' })
      await finish(page, context)
    },
    TEST_TIMEOUT,
  )

  test(
    'a tile opens a modal player with controls and autoplay; Escape and Close close it',
    async () => {
      const { page, context } = await open(375, 812)
      await page.goto('/')
      await gridSettled(page)
      const video = videos[3]!
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      await button.click()

      const dialog = page.getByRole('dialog', { name: video.title })
      await dialog.waitFor()
      expect(await page.evaluate(() => document.fullscreenElement)).toBeNull()
      const player = dialog.locator('video')
      await expect(
        player.evaluate((v: HTMLVideoElement) => v.controls && v.autoplay),
      ).resolves.toBe(true)
      // The sample clip lasts 12 s: on a very busy machine it may have ended by now, which also
      // proves it played.
      await page.waitForFunction(() => {
        const v = document.querySelector<HTMLVideoElement>('dialog video')
        return v && v.currentTime > 0 && (!v.paused || v.ended)
      })
      const close = dialog.getByRole('button', { name: 'Close video' })
      await expect(close.evaluate((el) => el === document.activeElement)).resolves.toBe(true)

      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
      await expect(button.evaluate((el) => el === document.activeElement)).resolves.toBe(true)

      await button.click()
      await dialog.waitFor()
      await close.click()
      await dialog.waitFor({ state: 'detached' })
      await expect(playButtons(page).count()).resolves.toBe(videos.length)
      await finish(page, context)
    },
    TEST_TIMEOUT,
  )
})
