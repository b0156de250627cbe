// Processed videos in Chromium against the real server and its media worker (docs/media.md): tiny
// real clips are uploaded, processed by ffmpeg into HLS, an MP4 and a preview loop, then played
// from the public page (hls.js, fullscreen on desktop, the modal on a phone, the hover preview)
// and from the dashboard, whose Manage page shows progress, failures and Retry.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page, Request } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { plainMediaUrl } from '../testkit/media.ts'
import { pollUntil } from '../testkit/poll.ts'
import { makeSampleMedia, type SampleVideo, seedVideos } from '../testkit/sample-videos.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { openPage, openSignedInPage } from './support/browser.ts'
import { gridSettled } from './support/grid.ts'
import { hlsChunk, initialFiles, publicChunks } from './support/manifest.ts'
import { saveScreenshot } from './support/screenshots.ts'

const TEST_TIMEOUT = 60_000

type Video = {
  _id: string
  title: string
  videoUrl: string
  status: 'queued' | 'processing' | 'ready' | 'failed'
  progress: number
  duration: number | null
  hlsUrl: string | null
  mp4Url: string | null
  previewUrl: string | null
  error: string | null
}

let server: E2EServer
let browser: Browser
let dir: string
let samples: SampleVideo[]
let session: { token: string; user: Record<string, string> }
/** The two sample clips, processed: `videoUrl` here is the master's plain address. */
let ready: Video[]
const SILENT_TITLE = 'Voice Memo (no picture)'

async function ffmpeg(args: string[]) {
  const proc = Bun.spawn(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stderr: 'pipe',
  })
  if ((await proc.exited) !== 0) throw new Error(await new Response(proc.stderr).text())
}

async function adminVideos(): Promise<Video[]> {
  const res = await fetch(`${server.url}/api/videos?page=1&limit=100`, {
    headers: { authorization: `Bearer ${session.token}` },
  })
  const { videos } = ((await res.json()) as { data: { videos: Video[] } }).data
  // Admins' answers name the master under a signed prefix; a page that fetched it would name
  // its plain address.
  return videos.map((video) => ({ ...video, videoUrl: plainMediaUrl(video.videoUrl) }))
}

const waitForVideos = (done: (videos: Video[]) => boolean, timeoutMs = 150_000) =>
  pollUntil(adminVideos, done, {
    what: 'the videos processed',
    timeoutMs,
    show: (videos) => videos.map((v) => `${v.title}=${v.status}`).join(', '),
  })

/** Uploads `video` under `title` with a sample's thumbnail and logo (REST multipart). */
function upload(title: string, video: string) {
  return seedVideos(server.url, session.token, [{ ...samples[0]!, title, video }])
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'streams-e2e-'))
  ;[server, samples, browser] = await Promise.all([
    startServer(),
    makeSampleMedia(dir, 2),
    launchBrowser(),
  ])
  session = await server.apiLogin()
  // A file that sniffs as MP4 but has no picture: processing must end `failed` with a reason.
  const silent = join(dir, 'voice-memo.mp4')
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=330:d=3', '-c:a', 'aac', silent])
  await seedVideos(server.url, session.token, samples)
  await upload(SILENT_TITLE, silent)
  const titles = new Set(samples.map((s) => s.title))
  const videos = await waitForVideos((list) =>
    list.every((v) => (titles.has(v.title) ? v.status === 'ready' : v.status === 'failed')),
  )
  ready = videos.filter((v) => titles.has(v.title))
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

const pathOf = (url: string) => new URL(url, server.url).pathname

/** Every path the page requests from now on. */
function recordPaths(page: Page): string[] {
  const paths: string[] = []
  page.on('request', (request: Request) => paths.push(new URL(request.url()).pathname))
  return paths
}

async function finish(page: Page, close: () => Promise<void>) {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {})
  await close()
}

describe('the public page with processed videos', () => {
  test(
    'hls.js is not in the initial JavaScript: its chunk comes when the grid nears, before a click',
    async () => {
      const hls = hlsChunk()
      expect(hls.dynamicOnly).toBe(true)
      expect(initialFiles().has(hls.file)).toBe(false)

      const { page, context } = await openPage(browser, {
        width: 1280,
        baseURL: server.url,
      })
      const paths = recordPaths(page)
      await page.goto('/')
      await gridSettled(page)
      await page.waitForLoadState('networkidle')
      await page.waitForTimeout(1500)
      // Loaded, idle, the work still below the fold: no player yet.
      expect(paths).not.toContain(`/${hls.file}`)

      // Scrolling towards the work fetches it, before the visitor can click a tile.
      await page.getByRole('heading', { name: 'Selected Work' }).scrollIntoViewIfNeeded()
      await page.waitForFunction(
        (file) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(file)),
        hls.file,
      )
      // Nothing played yet: no media segment, no master, no preview requested (the start of the
      // streams on screen, their playlists and init segments, may be: e2e/instant-start.test.ts).
      expect(paths.filter((p) => /\.(m4s|mp4)$/.test(p) && !p.endsWith('/init.mp4'))).toEqual([])
      await finish(page, () => context.close())
    },
    TEST_TIMEOUT,
  )

  test(
    'desktop: a click plays the stream unmuted in fullscreen with its sound; the master is never requested; leaving pauses and a new click resumes',
    async () => {
      const video = ready[0]!
      const { page, context } = await openPage(browser, {
        width: 1280,
        baseURL: server.url,
      })
      const paths = recordPaths(page)
      await page.goto('/')
      await gridSettled(page)
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      await button.click()
      await page.waitForFunction(() => {
        const player = document.fullscreenElement?.querySelector('video')
        return player && !player.paused && player.currentTime > 1 && player.controls
      })
      const playing = await page.evaluate(() => {
        const player = document.fullscreenElement!.querySelector('video') as HTMLVideoElement & {
          webkitAudioDecodedByteCount: number
        }
        return {
          src: player.currentSrc,
          muted: player.muted,
          audioBytes: player.webkitAudioDecodedByteCount,
          at: player.currentTime,
        }
      })
      // A MediaSource (hls.js), with sound from the shared audio rendition.
      expect(playing.src).toStartWith('blob:')
      expect(playing.muted).toBe(false)
      expect(playing.audioBytes).toBeGreaterThan(0)
      expect(paths).toContain(pathOf(video.hlsUrl!))
      expect(paths.some((p) => p.endsWith('.m4s'))).toBe(true)
      expect(paths.some((p) => /\/audio\/[^/]+\.m3u8$/.test(p))).toBe(true)

      await page.evaluate(() => document.exitFullscreen())
      await page.waitForFunction(() => !document.fullscreenElement)
      await button.waitFor()
      const idle = await page.evaluate((title) => {
        const tile = document
          .querySelector(`button[aria-label="Play ${title}"]`)!
          .closest('li')!
          .querySelector('video')!
        return {
          paused: tile.paused,
          // hls.js released: its MediaSource is detached from the element.
          src: tile.getAttribute('src'),
          focused: document.activeElement?.getAttribute('aria-label'),
        }
      }, video.title)
      expect(idle.paused).toBe(true)
      expect(idle.src).toBeNull()
      expect(idle.focused).toBe(`Play ${video.title}`)

      // A new player resumes where the last one was paused.
      await button.click()
      await page.waitForFunction(() => {
        const player = document.fullscreenElement?.querySelector('video')
        return player && !player.paused && player.currentTime > 0
      })
      const resumedAt = await page.evaluate(
        () => document.fullscreenElement!.querySelector('video')!.currentTime,
      )
      expect(resumedAt).toBeGreaterThanOrEqual(playing.at - 0.5)
      await page.evaluate(() => document.exitFullscreen())
      await button.waitFor()

      for (const v of ready) expect(paths).not.toContain(pathOf(v.videoUrl))
      await finish(page, () => context.close())
    },
    TEST_TIMEOUT,
  )

  test(
    'a stream that cannot load falls back to the MP4 (never the master), from the same click',
    async () => {
      const video = ready[1]!
      const { page, context } = await openPage(browser, {
        width: 1280,
        baseURL: server.url,
        allow: [/Failed to load resource/],
      })
      const warnings: string[] = []
      page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
      const paths = recordPaths(page)
      await page.route(`**${pathOf(video.hlsUrl!)}`, (route) =>
        route.fulfill({ status: 404, body: 'gone' }),
      )
      await page.goto('/')
      await gridSettled(page)
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      await button.click()
      await page.waitForFunction(() => {
        const player = document.fullscreenElement?.querySelector('video')
        return player && !player.paused && player.currentTime > 0.5
      })
      const src = await page.evaluate(
        () => document.fullscreenElement!.querySelector('video')!.currentSrc,
      )
      expect(pathOf(src)).toBe(pathOf(video.mp4Url!))
      expect(warnings.some((w) => w.includes('playing the MP4 instead'))).toBe(true)
      for (const v of ready) expect(paths).not.toContain(pathOf(v.videoUrl))
      await page.evaluate(() => document.exitFullscreen())
      await button.waitFor()
      await finish(page, () => context.close())
    },
    TEST_TIMEOUT,
  )

  test(
    'phone: the modal plays the stream with native controls and autoplay; the master is never requested',
    async () => {
      const video = ready[1]!
      const { page, context } = await openPage(browser, {
        width: 375,
        height: 812,
        baseURL: server.url,
      })
      const paths = recordPaths(page)
      await page.goto('/')
      await gridSettled(page)
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      await button.click()
      const dialog = page.getByRole('dialog', { name: video.title })
      await dialog.waitFor()
      expect(await page.evaluate(() => document.fullscreenElement)).toBeNull()
      await page.waitForFunction(() => {
        const v = document.querySelector<HTMLVideoElement>('dialog video')
        return v && v.currentTime > 0.5 && (!v.paused || v.ended)
      })
      const state = await dialog.locator('video').evaluate((v: HTMLVideoElement) => ({
        controls: v.controls,
        autoplay: v.autoplay,
        src: v.currentSrc,
      }))
      expect(state).toEqual({
        controls: true,
        autoplay: true,
        src: expect.stringMatching(/^blob:/),
      })
      expect(paths).toContain(pathOf(video.hlsUrl!))
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
      await expect(button.evaluate((el) => el === document.activeElement)).resolves.toBe(true)
      for (const v of ready) expect(paths).not.toContain(pathOf(v.videoUrl))
      await finish(page, () => context.close())
    },
    TEST_TIMEOUT,
  )

  test(
    'desktop hover plays the preview loop muted under the yellow overlay; leaving stops it',
    async () => {
      const video = ready[0]!
      const { page, context } = await openPage(browser, {
        width: 1280,
        baseURL: server.url,
      })
      const paths = recordPaths(page)
      // React's chunk comes late: the pointer rests on the tile before the page is live, and the
      // preview starts once it is (web/src/public/on-intent.ts tells React where the pointer is).
      await page.route(`**/${publicChunks().mount}`, async (route) => {
        await Bun.sleep(1000)
        await route.continue()
      })
      await page.goto('/')
      await gridSettled(page)
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      await button.hover()
      await page.waitForFunction(() => {
        const v = document.querySelector<HTMLVideoElement>('video[data-preview]')
        return v && !v.paused && v.currentTime > 0.2
      })
      const preview = await page.evaluate(() => {
        const v = document.querySelector<HTMLVideoElement>('video[data-preview]')!
        const overlay = v.closest('li')!.querySelector<HTMLElement>('[data-overlay]')!
        const order = v.compareDocumentPosition(overlay) & Node.DOCUMENT_POSITION_FOLLOWING
        return {
          src: v.currentSrc,
          muted: v.muted,
          loop: v.loop,
          overlayAbove: order !== 0,
          overlay: getComputedStyle(overlay).backgroundColor,
        }
      })
      expect(pathOf(preview.src)).toBe(pathOf(video.previewUrl!))
      expect(preview.muted).toBe(true)
      expect(preview.loop).toBe(true)
      expect(preview.overlayAbove).toBe(true)
      // The brand yellow, letting the moving picture through.
      const alpha = await page.evaluate((colour) => {
        const probe = document.createElement('canvas').getContext('2d')!
        probe.fillStyle = colour
        probe.fillRect(0, 0, 1, 1)
        return probe.getImageData(0, 0, 1, 1).data[3]! / 255
      }, preview.overlay)
      expect(alpha).toBeGreaterThan(0.5)
      expect(alpha).toBeLessThan(0.9)
      expect(paths).toContain(pathOf(video.previewUrl!))
      await page.waitForTimeout(600) // the overlay's slide
      await saveScreenshot(page, 'work-hover-preview', { theme: 'dark' })

      await page.mouse.move(5, 5)
      await page.locator('video[data-preview]').waitFor({ state: 'detached' })
      await finish(page, () => context.close())
    },
    TEST_TIMEOUT,
  )

  test(
    'with reduced motion, hovering plays no preview and fetches none',
    async () => {
      const video = ready[0]!
      const { page, context } = await openPage(browser, {
        width: 1280,
        baseURL: server.url,
      })
      await page.emulateMedia({ reducedMotion: 'reduce' })
      const paths = recordPaths(page)
      // React's chunk comes late: the pointer rests on the tile before the page is live, and the
      // preview starts once it is (web/src/public/on-intent.ts tells React where the pointer is).
      await page.route(`**/${publicChunks().mount}`, async (route) => {
        await Bun.sleep(1000)
        await route.continue()
      })
      await page.goto('/')
      await gridSettled(page)
      const button = page.getByRole('button', { name: `Play ${video.title}` })
      await button.scrollIntoViewIfNeeded()
      await button.hover()
      await button.getByRole('img', { name: `${video.title} brand logo` }).waitFor()
      await page.waitForTimeout(800)
      await expect(page.locator('video[data-preview]').count()).resolves.toBe(0)
      for (const v of ready) expect(paths).not.toContain(pathOf(v.previewUrl!))
      await finish(page, () => context.close())
    },
    TEST_TIMEOUT,
  )
})

describe('the dashboard', () => {
  const signedIn = (width = 1280) =>
    openSignedInPage(browser, server.url, session, { width, height: 800 })

  test(
    'the player modal plays a ready video through its stream',
    async () => {
      const video = ready[0]!
      const { page, context } = await signedIn()
      const paths = recordPaths(page)
      await page.goto('/dashboard/manage')
      await page
        .getByRole('button', { name: `Play ${video.title}` })
        .first()
        .click()
      const dialog = page.getByRole('dialog', { name: video.title })
      await dialog.waitFor()
      await page.waitForFunction(() => {
        const v = document.querySelector<HTMLVideoElement>('[role="dialog"] video')
        return v && v.currentTime > 0.5
      })
      const src = await dialog.locator('video').evaluate((v: HTMLVideoElement) => v.currentSrc)
      expect(src).toStartWith('blob:')
      expect(paths).toContain(pathOf(video.hlsUrl!))
      expect(paths).not.toContain(pathOf(video.videoUrl))
      await dialog.getByRole('button', { name: 'Close player' }).click()
      await dialog.waitFor({ state: 'detached' })
      await finish(page, () => context.close())
    },
    TEST_TIMEOUT,
  )

  test('Manage shows a new video queued, its processing progress, then ready, and stops asking', async () => {
    // 20 s at 720p: three rungs, long enough that its processing is seen on the page.
    const title = 'Long Take'
    const clip = join(dir, 'long-take.mp4')
    await ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=20'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=262:sample_rate=48000:d=20'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
      ...['-shortest', clip],
    ])
    await upload(title, clip)
    const { page, context } = await signedIn()
    await page.goto('/dashboard/manage')
    const row = page.getByRole('row').filter({ hasText: title })
    await row.waitFor()
    // Every state the row shows from now on, and whether the list ever dims for a poll.
    await page.evaluate((t) => {
      const w = window as unknown as { __seen: string[]; __dimmed: number }
      w.__seen = []
      w.__dimmed = 0
      const read = () => {
        const row = [...document.querySelectorAll('tr')].find((r) => r.textContent?.includes(t))
        const bar = row?.querySelector('[role="progressbar"]')
        const text = row?.textContent ?? ''
        const state = bar
          ? `processing ${bar.getAttribute('aria-valuenow')}`
          : /Queued/.test(text)
            ? 'queued'
            : /Ready/.test(text)
              ? 'ready'
              : 'other'
        if (w.__seen.at(-1) !== state) w.__seen.push(state)
        if (document.querySelector('[aria-busy="true"]')) w.__dimmed++
      }
      read()
      new MutationObserver(read).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      })
    }, title)
    const bar = row.getByRole('progressbar', { name: `Processing ${title}` })
    await bar.waitFor({ timeout: 60_000 })
    await saveScreenshot(page, 'manage-processing', { theme: 'light' })
    const value = Number(await bar.getAttribute('aria-valuenow'))
    expect(value).toBeGreaterThanOrEqual(0)
    expect(value).toBeLessThanOrEqual(100)
    // Ready: nothing noisy, the length (and the size) where the progress was.
    await row.getByText('0:20').waitFor({ timeout: 120_000 })
    await expect(bar.count()).resolves.toBe(0)

    const seen = await page.evaluate(
      () => (window as unknown as { __seen: string[]; __dimmed: number }).__seen,
    )
    const progress = seen.filter((s) => s.startsWith('processing'))
    expect(progress.length).toBeGreaterThan(0)
    expect(seen.at(-1)).toBe('ready')
    // Progress only goes forward.
    const values = progress.map((s) => Number(s.split(' ')[1]))
    expect(values).toEqual([...values].sort((a, b) => a - b))
    const dimmed = await page.evaluate(() => (window as unknown as { __dimmed: number }).__dimmed)
    expect(dimmed).toBe(0)

    // Nothing left to wait for: the page stops asking.
    const polls: string[] = []
    page.on('request', (r) => r.url().includes('videos.list') && polls.push(r.url()))
    await page.waitForTimeout(4000)
    expect(polls).toEqual([])
    await finish(page, () => context.close())
  }, 240_000)

  test(
    'a video that cannot be processed shows why; Retry queues it again',
    async () => {
      const { page, context } = await signedIn(375)
      await page.goto('/dashboard/manage')
      const card = page.getByRole('listitem').filter({ hasText: SILENT_TITLE })
      await card.getByText('Processing failed').waitFor()
      const reason = (await card.getByText('Processing failed').locator('..').textContent()) ?? ''
      expect(reason).toMatch(/^Processing failed: \S/)
      const stored = (await adminVideos()).find((v) => v.title === SILENT_TITLE)!
      expect(reason).toContain(stored.error!)
      await card.scrollIntoViewIfNeeded()
      await saveScreenshot(page, 'manage-failed', { theme: 'light' })

      await page.evaluate((t) => {
        const w = window as unknown as { __seen: string[] }
        w.__seen = []
        new MutationObserver(() => {
          const item = [...document.querySelectorAll('li')].find((li) =>
            li.textContent?.includes(t),
          )
          const text = item?.textContent ?? ''
          const state = item?.querySelector('[role="progressbar"]')
            ? 'processing'
            : /Queued/.test(text)
              ? 'queued'
              : /Processing failed/.test(text)
                ? 'failed'
                : 'other'
          if (w.__seen.at(-1) !== state) w.__seen.push(state)
        }).observe(document.body, { subtree: true, childList: true, characterData: true })
      }, SILENT_TITLE)
      const answer = page.waitForResponse((r) => r.url().includes('videos.retry'))
      await card.getByRole('button', { name: `Retry ${SILENT_TITLE}` }).click()
      expect((await answer).status()).toBe(200)
      await page.getByText('Video queued for processing').waitFor()
      // Back in the queue, worked on again, and failed again for the same reason.
      await page.waitForFunction(
        () => {
          const seen = (window as unknown as { __seen: string[] }).__seen
          return seen.length >= 2 && seen.at(-1) === 'failed'
        },
        undefined,
        { timeout: 60_000 },
      )
      const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)
      // failed (before the click) → queued (the retry's answer) → … → failed.
      const requeued = seen.findIndex((state) => state === 'queued' || state === 'processing')
      expect(requeued).toBeGreaterThanOrEqual(0)
      expect(seen.slice(0, requeued).every((state) => state === 'failed')).toBe(true)
      expect(seen.at(-1)).toBe('failed')
      await finish(page, () => context.close())
    },
    TEST_TIMEOUT,
  )
})
