// A stream starts within a round trip of the tap
// (docs/decisions/076-a-streams-start-fetched-ahead-and-on-the-press.md), in Chromium against the
// real server and its media worker: once the page is idle, the works on screen have their master,
// their lowest rung's playlists and init segments in the browser (at most 50 KB ahead, none with
// Save-Data); a press on a tile, its work page's button or a review page's fetches the first
// segments before the click, and hls.js takes what was fetched without asking for it again; a
// desktop tile pressed before React is live gets its stream from the first script's side
// (docs/decisions/082-a-tile-pressed-before-react-is-live-starts-its-stream.md). The desktop
// fullscreen and phone modal players behave as before.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page, Request } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { pollUntil } from '../testkit/poll.ts'
import { makeSampleMedia, seedVideos } from '../testkit/sample-videos.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { openPage } from './support/browser.ts'
import { holdBackReact } from './support/live.ts'

const TEST_TIMEOUT = 90_000
/** The budget start-ahead.ts keeps to for what one screen shows. */
const AHEAD_BUDGET = 50_000

type Video = { _id: string; title: string; status: string; hlsUrl: string | null; slug: string }

let server: E2EServer
let browser: Browser
let dir: string
let token: string
let ready: Video[]

async function publicVideos(): Promise<Video[]> {
  const res = await fetch(`${server.url}/api/public/videos?limit=12`)
  return ((await res.json()) as { data: { videos: Video[] } }).data.videos
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'instant-start-e2e-'))
  let samples: Awaited<ReturnType<typeof makeSampleMedia>>
  ;[server, samples, browser] = await Promise.all([
    startServer(),
    makeSampleMedia(dir, 2),
    launchBrowser(),
  ])
  token = (await server.apiLogin()).token
  await seedVideos(server.url, token, samples)
  ready = await pollUntil(
    publicVideos,
    (videos) => videos.length === 2 && videos.every((v) => v.status === 'ready' && v.hlsUrl),
    { what: 'the sample videos processed', timeoutMs: 200_000 },
  )
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

type Seen = { path: string; type: string; at: number }

/** Every request from now on: its path, Playwright's resource type (fetch, xhr…), when. */
function recordRequests(page: Page): Seen[] {
  const seen: Seen[] = []
  page.on('request', (request: Request) =>
    seen.push({
      path: new URL(request.url()).pathname,
      type: request.resourceType(),
      at: performance.now(),
    }),
  )
  return seen
}

const isStreamFile = (path: string) => /\.(m3u8|m4s)$|\/init\.mp4$/.test(path)
const isSegment = (path: string) => path.endsWith('.m4s')

/** The master's lowest rung and its audio, and their init segments, as the test reads them. */
async function startFiles(hlsUrl: string): Promise<string[]> {
  const master = new URL(hlsUrl, server.url)
  const text = await (await fetch(master)).text()
  const lines = text.split('\n').map((line) => line.trim())
  let lowest: { bandwidth: number; uri: string; audio: string | undefined } | null = null
  const audio = new Map<string, string>()
  lines.forEach((line, i) => {
    if (line.startsWith('#EXT-X-MEDIA:TYPE=AUDIO')) {
      const group = /GROUP-ID="([^"]+)"/.exec(line)?.[1]
      const uri = /URI="([^"]+)"/.exec(line)?.[1]
      if (group && uri) audio.set(group, uri)
    }
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      const bandwidth = Number(/[:,]BANDWIDTH=(\d+)/.exec(line)?.[1])
      const uri = lines[i + 1] ?? ''
      if (!lowest || bandwidth < lowest.bandwidth) {
        lowest = { bandwidth, uri, audio: /AUDIO="([^"]+)"/.exec(line)?.[1] }
      }
    }
  })
  if (!lowest) throw new Error(`${hlsUrl} lists no variant`)
  const { uri, audio: group } = lowest as { uri: string; audio: string | undefined }
  const playlists = [new URL(uri, master)]
  const audioUri = group ? audio.get(group) : undefined
  if (audioUri) playlists.push(new URL(audioUri, master))
  const inits = playlists.map((playlist) => new URL('init.mp4', playlist))
  return [master, ...playlists, ...inits].map((url) => url.pathname)
}

/** Whether the browser holds `path` in its HTTP cache (a request that may not use the network). */
function cached(page: Page, path: string): Promise<boolean> {
  return page.evaluate(
    (url) =>
      fetch(url, { cache: 'only-if-cached', mode: 'same-origin' }).then(
        (res) => res.ok,
        () => false,
      ),
    path,
  )
}

/** The page settled after the visitor scrolled to the work and looked for a moment. */
async function lookAtWork(page: Page, title: string) {
  await page.getByRole('button', { name: `Play ${title}` }).scrollIntoViewIfNeeded()
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(1500)
}

describe('ahead of the tap', () => {
  test(
    "after idle, the works on screen have their lowest rung's playlists and init segments in the browser's cache, within 50 KB and no media segment",
    async () => {
      const { page } = await openPage(browser, { width: 1280, baseURL: server.url })
      const seen = recordRequests(page)
      await page.goto('/')
      await page.waitForLoadState('networkidle')
      await page.waitForTimeout(1500)
      // The first screen is the hero: no work on it, nothing of a stream fetched.
      expect(seen.filter((s) => isStreamFile(s.path))).toEqual([])

      await lookAtWork(page, ready[0]!.title)
      for (const video of ready) {
        for (const path of await startFiles(video.hlsUrl!)) {
          expect({ path, cached: await cached(page, path) }).toEqual({ path, cached: true })
        }
      }
      expect(seen.filter((s) => isSegment(s.path))).toEqual([])
      const ahead = await page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => /\.m3u8$|\.m4s$|\/init\.mp4$/.test(e.name))
          .reduce((sum, e) => sum + e.transferSize, 0),
      )
      expect(ahead).toBeGreaterThan(0)
      expect(ahead).toBeLessThanOrEqual(AHEAD_BUDGET)
    },
    TEST_TIMEOUT,
  )

  test(
    'with Save-Data: on, nothing is fetched ahead, and the work still plays on a click',
    async () => {
      const { page, context } = await openPage(browser, { width: 1280, baseURL: server.url })
      const cdp = await context.newCDPSession(page)
      // What a browser with its data saver on tells pages: the header and navigator.connection.
      await cdp.send('Emulation.setDataSaverOverride', { dataSaverEnabled: true })
      const seen = recordRequests(page)
      await page.goto('/')
      expect(
        await page.evaluate(
          () => (navigator as { connection?: { saveData?: boolean } }).connection?.saveData,
        ),
      ).toBe(true)
      await lookAtWork(page, ready[0]!.title)
      expect(seen.filter((s) => isStreamFile(s.path))).toEqual([])

      const button = page.getByRole('button', { name: `Play ${ready[0]!.title}` })
      await page.mouse.move(0, 0)
      const box = (await button.boundingBox())!
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      // Resting on the tile long enough for anything it started to arrive: not even hls.js.
      await page.waitForTimeout(1000)
      const isPlayer = (s: Seen) => /\/assets\/hls-[^/]+\.js$/.test(s.path)
      expect(seen.filter((s) => isStreamFile(s.path) || isPlayer(s))).toEqual([])
      await page.mouse.down()
      await page.waitForTimeout(300)
      // A press is not a play for a visitor saving data: still nothing.
      expect(seen.filter((s) => isStreamFile(s.path) || isPlayer(s))).toEqual([])
      await page.mouse.up()
      await page.waitForFunction(() => {
        const player = document.fullscreenElement?.querySelector('video')
        return player && !player.paused && player.currentTime > 0.5
      })
      expect(seen.some((s) => isSegment(s.path))).toBe(true)
    },
    TEST_TIMEOUT,
  )
})

/**
 * Presses the tile's button, waits until its first segments were asked for (and `whilePressed`,
 * if given, has looked at the page), then lets go: a click. Answers what `whilePressed` did.
 */
async function pressThenClick<T = void>(
  page: Page,
  seen: Seen[],
  title: string,
  whilePressed?: () => Promise<T>,
): Promise<T | undefined> {
  const button = page.getByRole('button', { name: `Play ${title}` })
  const box = (await button.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.evaluate(() => {
    const w = window as unknown as { clickedAt?: number }
    addEventListener('click', () => (w.clickedAt ??= performance.now()), true)
  })
  const pressedAt = performance.now()
  await page.mouse.down()
  // Held until both first segments (video and audio) were asked for: no click has happened yet.
  const deadline = Date.now() + 10_000
  while (seen.filter((s) => isSegment(s.path) && s.at >= pressedAt).length < 2) {
    if (Date.now() > deadline) throw new Error('a press started no segment request')
    await page.waitForTimeout(20)
  }
  const looked = await whilePressed?.()
  expect(await page.evaluate(() => (window as { clickedAt?: number }).clickedAt)).toBeUndefined()
  await page.mouse.up()
  return looked
}

/**
 * Presses the tile's button until its element has a stream (a `blob:` source), then drags away
 * and lets go outside it: no click. The element lets go of the stream, and for `quietMs` after
 * that no segment is asked for and nothing went fullscreen.
 */
async function pressThenDragAway(page: Page, seen: Seen[], title: string, quietMs: number) {
  const box = (await page.getByRole('button', { name: `Play ${title}` }).boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  const tileVideo = `li:has(button[aria-label="Play ${title}"]) video[data-tile-player]`
  await page.waitForFunction(
    (selector) => document.querySelector(selector)?.getAttribute('src')?.startsWith('blob:'),
    tileVideo,
    { timeout: 1500 },
  )
  await page.mouse.move(box.x + box.width / 2, box.y - 200, { steps: 4 })
  await page.mouse.up()
  await page.waitForFunction(
    (selector) => !document.querySelector(selector)?.getAttribute('src'),
    tileVideo,
  )
  await page.waitForTimeout(500)
  const segments = seen.filter((s) => isSegment(s.path)).length
  await page.waitForTimeout(quietMs)
  expect(seen.filter((s) => isSegment(s.path)).length).toBe(segments)
  expect(await page.evaluate(() => document.fullscreenElement)).toBeNull()
}

/** No stream file was asked for twice: hls.js took what the press and the idle page fetched. */
function expectFetchedOnce(seen: Seen[]) {
  const files = seen.filter(
    (s) => isStreamFile(s.path) && /seg_000|\.m3u8$|init\.mp4$/.test(s.path),
  )
  expect(files.length).toBeGreaterThan(0)
  const counts = new Map<string, number>()
  for (const file of files) counts.set(file.path, (counts.get(file.path) ?? 0) + 1)
  expect([...counts].filter(([, n]) => n > 1)).toEqual([])
  // All by the page's own fetches, none by hls.js's XHR loader.
  expect(files.filter((f) => f.type === 'xhr')).toEqual([])
}

describe('a press starts the stream', () => {
  test(
    'desktop: a pointerdown on a tile requests its first segments before the click; it plays unmuted in fullscreen from what was fetched',
    async () => {
      const video = ready[0]!
      const { page } = await openPage(browser, { width: 1280, baseURL: server.url })
      const seen = recordRequests(page)
      await page.goto('/')
      await lookAtWork(page, video.title)
      await pressThenClick(page, seen, video.title)
      await page.waitForFunction(() => {
        const player = document.fullscreenElement?.querySelector('video')
        return player && !player.paused && player.currentTime > 0.5 && player.controls
      })
      expect(
        await page.evaluate(() => document.fullscreenElement?.querySelector('video')?.muted),
      ).toBe(false)
      expectFetchedOnce(seen)
      // docs/public-site.md: leaving fullscreen pauses and gives the tile back.
      await page.evaluate(() => document.exitFullscreen())
      await page.getByRole('button', { name: `Play ${video.title}` }).waitFor()
    },
    TEST_TIMEOUT,
  )

  test(
    'desktop: a press gives the tile its stream before the click; dragged away without a click, it is released and loads nothing more',
    async () => {
      const video = ready[0]!
      const { page } = await openPage(browser, { width: 1280, baseURL: server.url })
      const seen = recordRequests(page)
      await page.goto('/')
      await lookAtWork(page, video.title)
      await pressThenDragAway(page, seen, video.title, 1500)
    },
    TEST_TIMEOUT,
  )

  test(
    "desktop: a press before React is live gives the tile's element its stream from the first script; the held click plays that stream in fullscreen",
    async () => {
      const video = ready[0]!
      const { page } = await openPage(browser, { width: 1280, baseURL: server.url })
      let reactArrived = false
      await holdBackReact(page, 2000, () => {
        reactArrived = true
      })
      const seen = recordRequests(page)
      await page.goto('/')
      await page.getByRole('button', { name: `Play ${video.title}` }).scrollIntoViewIfNeeded()
      const tileVideo = `li:has(button[aria-label="Play ${video.title}"]) video:not([data-preview])`
      const source = await pressThenClick(page, seen, video.title, async () => {
        const early = await page.waitForFunction(
          (selector) => {
            const element = document.querySelector(selector) as HTMLVideoElement | null
            return element?.src.startsWith('blob:') ? element.src : null
          },
          tileVideo,
          { timeout: 1500 },
        )
        expect(reactArrived).toBe(false)
        return `${await early.jsonValue()}`
      })
      await page.waitForFunction(() => {
        const player = document.fullscreenElement?.querySelector('video')
        return player && !player.paused && player.currentTime > 0.5 && player.controls
      })
      expect(reactArrived).toBe(true)
      // The stream the press started is the one that plays, unmuted: nothing was attached twice.
      const playing = await page.evaluate(() => {
        const player = document.fullscreenElement?.querySelector('video')
        return { src: player?.src, muted: player?.muted }
      })
      expect(playing).toEqual({ src: source, muted: false })
      expectFetchedOnce(seen)
      await page.evaluate(() => document.exitFullscreen())
      await page.getByRole('button', { name: `Play ${video.title}` }).waitFor()
    },
    TEST_TIMEOUT,
  )

  test(
    'desktop: a press before React is live, let go outside the tile, releases the stream it started',
    async () => {
      const video = ready[1]!
      const { page } = await openPage(browser, { width: 1280, baseURL: server.url })
      await holdBackReact(page, 2000)
      const seen = recordRequests(page)
      await page.goto('/')
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      await pressThenDragAway(page, seen, video.title, 2500)
      // Once live, the tile plays on a click as ever.
      await button.click()
      await page.waitForFunction(() => {
        const player = document.fullscreenElement?.querySelector('video')
        return player && !player.paused && player.currentTime > 0.5
      })
    },
    TEST_TIMEOUT,
  )

  test(
    'phone: a press at once (before the page is live) requests the first segments before the click; the modal plays the stream',
    async () => {
      const video = ready[1]!
      const { page } = await openPage(browser, { width: 375, height: 812, baseURL: server.url })
      const seen = recordRequests(page)
      await page.goto('/')
      await page.getByRole('button', { name: `Play ${video.title}` }).scrollIntoViewIfNeeded()
      await pressThenClick(page, seen, video.title)
      const dialog = page.getByRole('dialog', { name: video.title })
      await dialog.waitFor()
      await page.waitForFunction(() => {
        const player = document.querySelector('dialog[open] video') as HTMLVideoElement | null
        return player && !player.paused && player.currentTime > 0.5
      })
      expect(await page.evaluate(() => document.fullscreenElement)).toBeNull()
      expectFetchedOnce(seen)
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
    },
    TEST_TIMEOUT,
  )

  test(
    "phone, a live page: a press makes the modal's player, closed, with its stream before the click; the click shows it playing that same source; a press that becomes a scroll lets it go",
    async () => {
      const video = ready[1]!
      const { page } = await openPage(browser, { width: 375, height: 812, baseURL: server.url })
      await page.goto('/')
      await lookAtWork(page, video.title)
      // The page goes live on the first intent; a pointer moved over it is one.
      await page.mouse.move(5, 5)
      await page.waitForFunction(() => document.querySelector('dialog') === null)
      await page.waitForTimeout(500)
      const box = (await page.getByRole('button', { name: `Play ${video.title}` }).boundingBox())!
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      await page.mouse.down()
      // Made, not shown: a closed dialog whose player has its MediaSource, paused.
      const source = await page.waitForFunction(() => {
        const dialog = document.querySelector('dialog')
        const player = dialog?.querySelector('video')
        return dialog && !dialog.open && player?.paused && player.src.startsWith('blob:')
          ? player.src
          : null
      })
      const made = String(await source.jsonValue())
      expect(await page.getByRole('dialog').count()).toBe(0)
      await page.mouse.up()
      const dialog = page.getByRole('dialog', { name: video.title })
      await dialog.waitFor()
      await page.waitForFunction(() => {
        const player = document.querySelector('dialog[open] video') as HTMLVideoElement | null
        return player && !player.paused && player.currentTime > 0.5 && !player.muted
      })
      expect(
        await page.evaluate(() => document.querySelector<HTMLVideoElement>('dialog video')?.src),
      ).toBe(made)
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })

      // A press cancelled by the browser (a touch that became a scroll): nothing stays made.
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.dispatchEvent('pointerdown', {
        pointerId: 7,
        pointerType: 'touch',
        isPrimary: true,
        button: 0,
      })
      await page.waitForFunction(() => document.querySelector('dialog video') !== null)
      await button.dispatchEvent('pointercancel', {
        pointerId: 7,
        pointerType: 'touch',
        isPrimary: true,
      })
      await page.waitForFunction(() => document.querySelector('dialog') === null)
      expect(await page.getByRole('dialog').count()).toBe(0)
    },
    TEST_TIMEOUT,
  )

  test(
    'a press before anything was fetched ahead asks for the whole start at once: the first segments leave before the master has answered',
    async () => {
      const video = ready[1]!
      const [listed] = (await publicVideos()).filter((v) => v._id === video._id)
      const { page } = await openPage(browser, { width: 375, height: 812, baseURL: server.url })
      // The master answers 1.5 s late: a press that had to read it first would wait that long.
      let masterAnswered = Number.POSITIVE_INFINITY
      await page.route('**/master.m3u8', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500))
        await route.continue()
      })
      page.on('response', (response) => {
        if (response.url().endsWith('/master.m3u8')) {
          masterAnswered = Math.min(masterAnswered, performance.now())
        }
      })
      const seen = recordRequests(page)
      await page.goto('/')
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      // The button names the files the answer names as the start.
      const named = await button.getAttribute('data-stream-start')
      expect(named).toBe(
        (
          listed as Video & { streamStart: { playlist: string; init: string; segment: string }[] }
        ).streamStart
          .map((f) => `${f.playlist} ${f.init} ${f.segment}`)
          .join(';'),
      )
      await pressThenClick(page, seen, video.title)
      const firstSegments = seen.filter((s) => /\/seg_000\.m4s$/.test(s.path))
      expect(firstSegments.map((s) => s.path.split('/').slice(-2).join('/')).sort()).toEqual([
        '360p/seg_000.m4s',
        'audio/seg_000.m4s',
      ])
      for (const segment of firstSegments) expect(segment.at).toBeLessThan(masterAnswered)
      const dialog = page.getByRole('dialog', { name: video.title })
      await dialog.waitFor()
      await page.waitForFunction(() => {
        const player = document.querySelector('dialog[open] video') as HTMLVideoElement | null
        return player && !player.paused && player.currentTime > 0.5
      })
      expectFetchedOnce(seen)
    },
    TEST_TIMEOUT,
  )

  test(
    "a work's page: its player's start is fetched once idle, a press requests the first segments before the click, and it plays",
    async () => {
      const video = ready[0]!
      const { page } = await openPage(browser, { width: 375, height: 812, baseURL: server.url })
      const seen = recordRequests(page)
      await page.goto(`/work/${video.slug}`)
      await page.waitForLoadState('networkidle')
      await page.waitForTimeout(1500)
      const before = seen.length
      for (const path of await startFiles(video.hlsUrl!)) {
        expect({ path, cached: await cached(page, path) }).toEqual({ path, cached: true })
      }
      // The look into the cache is the test's, not the page's.
      seen.splice(before)
      expect(seen.filter((s) => isSegment(s.path))).toEqual([])
      await pressThenClick(page, seen, video.title)
      await page.waitForFunction(() => {
        const player = document.querySelector('main video') as HTMLVideoElement | null
        return player && !player.paused && player.currentTime > 0.5
      })
      expectFetchedOnce(seen)
    },
    TEST_TIMEOUT,
  )

  test(
    'a player whose hls.js is still arriving opens its MediaSource meanwhile and plays its first second from what the press fetched; hls.js plays on through that same source',
    async () => {
      const video = ready[0]!
      const { page } = await openPage(browser, { width: 375, height: 812, baseURL: server.url })
      // hls.js arrives 1.5 s after it is asked for: long enough to see what the player did before.
      let hlsArrived = false
      await page.route(/\/assets\/hls-[^/]+\.js$/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500))
        hlsArrived = true
        await route.continue()
      })
      await page.goto(`/work/${video.slug}`)
      await page.getByRole('button', { name: `Play ${video.title}` }).click()
      const player = page.locator('main video')
      await player.waitFor()
      const early = await page.waitForFunction(
        () => {
          const element = document.querySelector('main video') as HTMLVideoElement | null
          return element?.src.startsWith('blob:') ? element.src : null
        },
        undefined,
        { timeout: 1000 },
      )
      const source = await early.jsonValue()
      expect(source).toStartWith('blob:')
      expect(hlsArrived).toBe(false)
      // Playing before hls.js is there: the first segments the press fetched, appended as they are.
      await page.waitForFunction(() => {
        const element = document.querySelector('main video') as HTMLVideoElement | null
        return element && !element.paused && element.currentTime > 0.2
      })
      expect(hlsArrived).toBe(false)
      // Past the first segment (1 s) only hls.js brings more.
      await page.waitForFunction(() => {
        const element = document.querySelector('main video') as HTMLVideoElement | null
        return element && !element.paused && element.currentTime > 2
      })
      expect(hlsArrived).toBe(true)
      expect(await player.evaluate((element: HTMLVideoElement) => element.src)).toBe(`${source}`)
    },
    TEST_TIMEOUT,
  )

  test(
    "a review link's page: the press starts its private stream's first segments before the click, and hls.js asks for none of it again",
    async () => {
      const video = ready[1]!
      const made = await fetch(`${server.url}/api/videos/${video._id}/links`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({}),
      })
      expect(made.status).toBeLessThan(300)
      const { url } = ((await made.json()) as { data: { link: { url: string } } }).data.link
      const { page } = await openPage(browser, { width: 1280, baseURL: server.url })
      const seen = recordRequests(page)
      await page.goto(new URL(url).pathname)
      await page.waitForLoadState('networkidle')
      await page.waitForTimeout(1500)
      expect(seen.some((s) => s.path.endsWith('master.m3u8'))).toBe(true)
      await pressThenClick(page, seen, video.title)
      await page.waitForFunction(() => {
        const player = document.querySelector('main video') as HTMLVideoElement | null
        return player && !player.paused && player.currentTime > 0.5
      })
      expectFetchedOnce(seen)
    },
    TEST_TIMEOUT,
  )
})
