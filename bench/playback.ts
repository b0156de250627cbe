// bench/playback: a 40 s 1080p master at 30 Mbps with music-like stereo audio is
// uploaded to the real server and processed there; then Chromium plays it as a visitor would, on
// a phone line (375 px, 9 Mbps / 170 ms) and a desktop line (1280 px, 30 Mbps / 40 ms), the line
// applied from the page's first request: a tile of the landing page tapped 1 s after it came into
// view and tapped at once, the work's own page, a review link's page and the embed. A tap is a
// press (touch on the phone, the mouse on the desktop), then the release 100 ms later whatever the
// page is doing. Prints time from the press (its event's time stamp) to the first frame (median
// of the runs), and beside it from the click as the page's listeners saw it; stalls and stalled
// time over the play, what was fetched ahead, bytes received, the processing time and the public
// list's latency while the transcode runs; PLAYBACK_VERBOSE=1 prints what each tap waited on
// (requests and the main thread's long tasks); PLAYBACK_ONLY picks rows by name.
// Targets, from the press: phone ≤ 0.4 s after a look and ≤ 0.8 s at once, desktop ≤ 0.2 s and
// ≤ 0.4 s, the work page ≤ 0.6 s on the phone, 0 stalls; processing ≤ 1.5 × duration, list
// p99 ≤ 50 ms.
// Usage: bun run build && bun run bench playback   (needs a quiet machine; ~20 minutes)
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { makeSampleMedia } from '../testkit/sample-videos.ts'
import { startServer } from '../testkit/server.ts'
import { playbackMaster } from './playback-master.ts'

const RUNS = Number(process.env.PLAYBACK_RUNS ?? 5)
const PLAY_SECONDS = Number(process.env.PLAYBACK_SECONDS ?? 30)
const MASTER_SECONDS = Number(process.env.PLAYBACK_MASTER_SECONDS ?? 40)
/** A wait shorter than this after the first frame is not a stall anyone sees. */
const STALL_MIN_MS = 100
const TITLE = 'Playback bench reel'

/** A phone taps with a finger (touch events, then the click the browser makes of the tap). */
const PROFILES = {
  phone: { width: 375, height: 812, mbps: 9, latencyMs: 170, touch: true },
  desktop: { width: 1280, height: 800, mbps: 30, latencyMs: 40, touch: false },
} as const
type ProfileName = keyof typeof PROFILES
type Engine = 'streams' | 'master'

if (!existsSync(join(import.meta.dir, '..', 'web', 'dist', 'index.html'))) {
  console.error('web/dist is missing: run `bun run build` first')
  process.exit(1)
}

const loadavg = async () =>
  (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : Number.NaN
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}
const ms = (value: number) => `${Math.round(value)} ms`
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

// --- the server, the master, and its processing ------------------------------------------------

const server = await startServer()
const { token } = await server.apiLogin()
const auth = { Authorization: `Bearer ${token}` }
const fixtures = mkdtempSync(join(tmpdir(), 'bench-playback-'))
const [sample] = await makeSampleMedia(fixtures, 1)
console.log(`making the ${MASTER_SECONDS} s 1080p 30 Mbps master (cached under .tmp/)…`)
const masterPath = await playbackMaster(MASTER_SECONDS)
const publicUrl = `${server.url}/api/public/videos`

/** Sequential GETs of the public list (20 ms apart) until `stop` resolves; latencies in ms. */
async function listLoop(stop: Promise<unknown>): Promise<number[]> {
  let done = false
  void stop.then(() => (done = true))
  const latencies: number[] = []
  while (!done) {
    const start = performance.now()
    const res = await fetch(publicUrl)
    await res.arrayBuffer()
    if (!res.ok) throw new Error(`GET /api/public/videos answered ${res.status}`)
    latencies.push(performance.now() - start)
    await Bun.sleep(20)
  }
  return latencies
}

const idleList = await listLoop(Bun.sleep(5000))

const form = new FormData()
form.set('title', TITLE)
form.set('description', 'A 1080p master at 30 Mbps with music-like stereo audio.')
form.set('video', Bun.file(masterPath, { type: 'video/mp4' }), 'master.mp4')
form.set('thumbnail', Bun.file(sample!.thumbnail, { type: 'image/jpeg' }), 'thumb.jpg')
form.set('brandLogo', Bun.file(sample!.brandLogo, { type: 'image/png' }), 'logo.png')
const uploadStart = performance.now()
const uploaded = await fetch(`${server.url}/api/videos/upload`, {
  method: 'POST',
  headers: auth,
  body: form,
})
if (!uploaded.ok) throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`)
const created = ((await uploaded.json()) as { data: { video: { _id: string; videoUrl: string } } })
  .data.video
const queuedAt = performance.now()
const loadBefore = await loadavg()
console.log(`uploaded in ${ms(queuedAt - uploadStart)}; processing…`)

type VideoAnswer = { status: string; progress: number; error: string | null; hlsUrl: string | null }
async function waitProcessed() {
  let startedAt: number | null = null
  for (;;) {
    const res = await fetch(`${server.url}/api/videos/${created._id}`, { headers: auth })
    const video = ((await res.json()) as { data: { video: VideoAnswer } }).data.video
    if (video.status === 'processing' && startedAt === null) startedAt = performance.now()
    if (video.status === 'failed') throw new Error(`processing failed: ${video.error}`)
    if (video.status === 'ready') return { readyAt: performance.now(), startedAt }
    await Bun.sleep(250)
  }
}
const processed = waitProcessed()
const busyList = await listLoop(processed)
const { readyAt, startedAt } = await processed
const processingS = (readyAt - queuedAt) / 1000
const loadAfter = await loadavg()

// --- playback ------------------------------------------------------------------------------------

/**
 * Where the visitor taps and when: `grid` is a tile on the landing page (a phone opens the modal,
 * a desktop goes fullscreen), `work` the play button of the work's own page, `review` that of a
 * private review link's page, `embed` the bare player other sites frame (its native
 * `<video controls>`, the MP4, a click on the picture); `look` taps 1 s after the player came into
 * view, `instant` as soon as it is there.
 */
type Scenario = {
  profile: ProfileName
  page: 'grid' | 'work' | 'review' | 'embed'
  tap: 'look' | 'instant'
  engine: Engine
}

type Measure = {
  /** From the click, as the page's listeners saw it, to the first frame. */
  firstFrameMs: number | null
  /** From the press (its event's time stamp) to the first frame: the headline. */
  downToFrameMs: number | null
  /** How long after the press its first listener, and the click's, ran. */
  pressHandledMs: number | null
  clickHandledMs: number | null
  waits: number[]
  bytes: number
  aheadBytes: number
  size: string
  audioBytes: number
  requestedMaster: boolean
  waterfall: string[]
}

/** Page-side probes: press and click times, first presented frame, waits after it. */
function installProbe() {
  type Probe = {
    /** The press's time stamp, and when its first listener ran. */
    down: number | null
    downHandled: number | null
    /** When the click's first listener ran. */
    t0: number | null
    firstFrameAt: number | null
    video: HTMLVideoElement | null
    waitingSince: number | null
    waits: number[]
    size: string
    audioBytes: number
    /** Main-thread tasks over 50 ms: [start, end] in page time. */
    longTasks: [number, number][]
  }
  const m: Probe = {
    down: null,
    downHandled: null,
    t0: null,
    firstFrameAt: null,
    video: null,
    waitingSince: null,
    waits: [],
    size: '-',
    audioBytes: 0,
    longTasks: [],
  }
  ;(window as unknown as { __probe: Probe }).__probe = m
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) {
      m.longTasks.push([task.startTime, task.startTime + task.duration])
    }
  }).observe({ type: 'longtask', buffered: true })
  performance.setResourceTimingBufferSize(2000)
  const own = (event: Event) =>
    event.target instanceof HTMLVideoElement && !event.target.hasAttribute('data-preview')
  // The press is the moment the finger or button went down: the event's own time stamp, which
  // the browser takes when the input arrives, not when a busy main thread gets to run listeners
  // (a press during hydration or hls.js's compile is handled hundreds of ms later). Registered
  // first, on the window: before start-ahead.ts's own listener answers the press. Every player
  // element is watched from then on, since a player may start before the click.
  const press = (event: Event) => {
    if (m.down !== null) return
    m.down = event.timeStamp
    m.downHandled = performance.now()
    for (const video of document.querySelectorAll('video')) watch(video)
  }
  addEventListener('pointerdown', press, true)
  addEventListener('touchstart', press, true)
  // The first frame on screen after the press: a frame presented by the player's element (the
  // tile's own, which a press may have given its stream already, or the modal's, made by the
  // click) once it plays, since a tile shows its thumbnail over the element until then.
  let presentedAt: number | null = null
  let playingAt: number | null = null
  const settle = () => {
    if (presentedAt !== null && playingAt !== null) {
      m.firstFrameAt ??= Math.max(presentedAt, playingAt)
    }
  }
  const watch = (video: HTMLVideoElement) => {
    if (video.hasAttribute('data-preview')) return
    video.requestVideoFrameCallback(() => {
      if (m.video && m.video !== video) return
      presentedAt ??= performance.now()
      settle()
    })
  }
  // The click as the page's listeners saw it (after the main thread was free to run them).
  document.addEventListener(
    'click',
    () => {
      m.t0 ??= performance.now()
    },
    true,
  )
  document.addEventListener(
    'loadstart',
    (event) => {
      if (own(event) && m.down !== null) watch(event.target as HTMLVideoElement)
    },
    true,
  )
  document.addEventListener(
    'playing',
    (event) => {
      if (!own(event) || m.down === null || m.video) return
      m.video = event.target as HTMLVideoElement
      playingAt = performance.now()
      settle()
    },
    true,
  )
  document.addEventListener(
    'waiting',
    (event) => {
      if (event.target === m.video && m.firstFrameAt !== null) m.waitingSince ??= performance.now()
    },
    true,
  )
  // What is on screen and heard while it plays (an element that has ended and been released
  // reads 0×0 afterwards).
  document.addEventListener(
    'timeupdate',
    (event) => {
      if (event.target !== m.video || !m.video) return
      const video = m.video as HTMLVideoElement & { webkitAudioDecodedByteCount?: number }
      if (video.videoWidth) m.size = `${video.videoWidth}×${video.videoHeight}`
      m.audioBytes = Math.max(m.audioBytes, video.webkitAudioDecodedByteCount ?? 0)
    },
    true,
  )
  document.addEventListener(
    'playing',
    (event) => {
      if (event.target !== m.video || m.waitingSince === null) return
      m.waits.push(performance.now() - m.waitingSince)
      m.waitingSince = null
    },
    true,
  )
}

/**
 * A tap: down, held as long as a real one is (≈100 ms), up; the click follows. The up is sent
 * 100 ms after the down whatever the page is doing, as a finger lifts: each is dispatched through
 * CDP without waiting for the page to have handled the one before (Playwright's mouse.down waits
 * for that, so on a busy main thread its up came 100–380 ms late).
 */
const TAP_HOLD_MS = 100
const LOOK_MS = 1000

async function playOnce(browser: Browser, scenario: Scenario): Promise<Measure> {
  const p = PROFILES[scenario.profile]
  const context = await browser.newContext({
    viewport: { width: p.width, height: p.height },
    hasTouch: p.touch,
    isMobile: p.touch,
  })
  const page = await context.newPage()
  await page.addInitScript(installProbe)
  if (scenario.engine === 'master') {
    // Today's behaviour: the answer as it was before the pipeline, so the tile plays the master
    // (since docs/decisions/059-a-master-for-admins-once-streams-exist-signed-links.md a processed
    // master needs a signed link; its path is the same).
    const link = await fetch(`${server.url}/api/videos/${created._id}/master`, { headers: auth })
    const masterUrl = ((await link.json()) as { data: { url: string } }).data.url
    await page.route(/\/api\/public\/videos(\?|$)/, async (route) => {
      const response = await route.fetch()
      const body = (await response.json()) as { data: { videos: Record<string, unknown>[] } }
      for (const video of body.data.videos) {
        if (video._id !== created._id) continue
        Object.assign(video, {
          status: 'queued',
          videoUrl: masterUrl,
          hlsUrl: null,
          mp4Url: null,
          previewUrl: null,
        })
      }
      await route.fulfill({ response, json: body })
    })
  }
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  // The line is the visitor's from the page's first request: the page, its scripts and hls.js
  // arrive over it too. A new context each run: nothing is cached from the run before.
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: p.latencyMs,
    downloadThroughput: (p.mbps * 1_000_000) / 8,
    uploadThroughput: (p.mbps * 1_000_000) / 8,
  })
  // Bytes as they arrive (dataReceived), so a long media request still open at the end counts;
  // a request's loadingFinished total replaces its running sum where the two differ.
  let counting = false
  const received = new Map<string, number>()
  cdp.on('Network.dataReceived', (e) => {
    if (counting) received.set(e.requestId, (received.get(e.requestId) ?? 0) + e.encodedDataLength)
  })
  cdp.on('Network.loadingFinished', (e) => {
    if (counting && received.has(e.requestId)) {
      received.set(e.requestId, Math.max(received.get(e.requestId)!, e.encodedDataLength))
    }
  })
  cdp.on('Network.responseReceived', (e) => {
    if (counting && !received.has(e.requestId)) received.set(e.requestId, 0)
  })
  let requestedMaster = false
  const masterPath = new URL(created.videoUrl, server.url).pathname
  cdp.on('Network.requestWillBeSent', (e) => {
    if (new URL(e.request.url).pathname === masterPath) requestedMaster = true
  })

  const address = {
    grid: '/',
    work: `/work/${slug}`,
    review: reviewPath,
    embed: `/work/${slug}/embed`,
  }
  await page.goto(`${server.url}${address[scenario.page]}`, { waitUntil: 'load' })
  const button =
    scenario.page === 'embed'
      ? page.locator('video')
      : page.getByRole('button', { name: `Play ${TITLE}` })
  await button.scrollIntoViewIfNeeded()
  if (scenario.tap === 'look') await page.waitForTimeout(LOOK_MS)
  const box = await button.boundingBox()
  if (!box) throw new Error('the play button has no box')
  counting = true
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  if (p.touch) {
    const down = cdp.send('Input.dispatchTouchEvent', {
      type: 'touchStart',
      touchPoints: [{ x, y }],
    })
    await Bun.sleep(TAP_HOLD_MS)
    await Promise.all([
      down,
      cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] }),
    ])
  } else {
    // A mouse comes to the tile before it presses.
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y })
    const button = { x, y, button: 'left', buttons: 1, clickCount: 1 } as const
    const down = cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...button })
    await Bun.sleep(TAP_HOLD_MS)
    await Promise.all([
      down,
      cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...button, buttons: 0 }),
    ])
  }
  try {
    await page.waitForFunction(
      () =>
        (window as unknown as { __probe: { firstFrameAt: number | null } }).__probe.firstFrameAt !==
        null,
      undefined,
      { timeout: 60_000 },
    )
    await page.waitForTimeout(PLAY_SECONDS * 1000)
  } catch {
    // No frame within a minute: reported as such.
  }
  const result = await page.evaluate(() => {
    const probe = (
      window as unknown as {
        __probe: {
          down: number | null
          downHandled: number | null
          t0: number | null
          firstFrameAt: number | null
          waitingSince: number | null
          waits: number[]
          size: string
          audioBytes: number
          longTasks: [number, number][]
        }
      }
    ).__probe
    const waits = [...probe.waits]
    if (probe.waitingSince !== null) waits.push(performance.now() - probe.waitingSince)
    const down = probe.down ?? 0
    const frame = probe.firstFrameAt
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
    // Fetched before the press for the players: playlists and init segments (prefetch.ts).
    const aheadBytes = entries
      .filter((e) => e.startTime < down && /\.m3u8$|\/init\.mp4$|\.m4s$/.test(e.name))
      .reduce((sum, e) => sum + e.transferSize, 0)
    // What the tap waited on: every request open at the press or started after it, up to the
    // first frame, in ms from the press.
    const waterfall = entries
      .filter((e) => e.responseEnd > down && (frame === null || e.startTime < frame))
      .map((e) => {
        const path = new URL(e.name).pathname.split('/').slice(-2).join('/')
        return `${Math.round(e.startTime - down)}–${Math.round(e.responseEnd - down)} ms ${e.initiatorType} ${path} ${e.transferSize} B`
      })
    // The main thread's long tasks over the same span: what a request's next step waited behind.
    const busy = probe.longTasks
      .filter(([start, end]) => end > down && (frame === null || start < frame))
      .map(([start, end]) => `${Math.round(start - down)}–${Math.round(end - down)} ms long task`)
    return {
      firstFrameMs: frame === null || probe.t0 === null ? null : frame - probe.t0,
      downToFrameMs: frame === null || probe.down === null ? null : frame - down,
      pressHandledMs: probe.downHandled === null ? null : probe.downHandled - down,
      clickHandledMs: probe.t0 === null ? null : probe.t0 - down,
      waits,
      size: probe.size,
      audioBytes: probe.audioBytes,
      aheadBytes,
      waterfall: [
        ...waterfall,
        ...busy,
        `${Math.round((probe.downHandled ?? 0) - down)} ms press handled; ${Math.round((probe.t0 ?? 0) - down)} ms click handled; ${frame === null ? 'no frame' : `${Math.round(frame - down)} ms first frame`}`,
      ],
    }
  })
  counting = false
  await context.close()
  const bytes = [...received.values()].reduce((a, b) => a + b, 0)
  return { ...result, bytes, requestedMaster }
}

const list = (await (await fetch(`${publicUrl}?limit=12`)).json()) as {
  data: { videos: { _id: string; slug: string }[] }
}
const slug = list.data.videos.find((video) => video._id === created._id)?.slug
if (!slug) throw new Error('the processed work has no slug in the public list')
// A private review link to the work: its page plays the same streams under the link's path.
const made = await fetch(`${server.url}/api/videos/${created._id}/links`, {
  method: 'POST',
  headers: { ...auth, 'Content-Type': 'application/json' },
  body: JSON.stringify({}),
})
if (!made.ok) throw new Error(`making a review link answered ${made.status}`)
const reviewPath = new URL(
  ((await made.json()) as { data: { link: { url: string } } }).data.link.url,
).pathname

/** PLAYBACK_ONLY="desktop grid instant,phone work look" runs those rows alone. */
const ONLY = (process.env.PLAYBACK_ONLY ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean)
const ALL_SCENARIOS: Scenario[] = [
  ...(['phone', 'desktop'] as const).flatMap((profile) =>
    (['look', 'instant'] as const).map(
      (tap): Scenario => ({ profile, page: 'grid', tap, engine: 'streams' }),
    ),
  ),
  { profile: 'phone', page: 'work', tap: 'look', engine: 'streams' },
  { profile: 'phone', page: 'work', tap: 'instant', engine: 'streams' },
  { profile: 'phone', page: 'review', tap: 'look', engine: 'streams' },
  { profile: 'phone', page: 'review', tap: 'instant', engine: 'streams' },
  { profile: 'phone', page: 'embed', tap: 'look', engine: 'streams' },
  { profile: 'phone', page: 'embed', tap: 'instant', engine: 'streams' },
  ...(process.env.PLAYBACK_MASTER
    ? (['phone', 'desktop'] as const).map(
        (profile): Scenario => ({ profile, page: 'grid', tap: 'look', engine: 'master' }),
      )
    : []),
]
const nameOf = (scenario: Scenario) => `${scenario.profile} ${scenario.page} ${scenario.tap}`
const SCENARIOS = ONLY.length
  ? ALL_SCENARIOS.filter((scenario) => ONLY.includes(nameOf(scenario)))
  : ALL_SCENARIOS
if (SCENARIOS.length === 0) throw new Error(`PLAYBACK_ONLY names no row: ${ONLY.join(', ')}`)
/** From the press to the first frame, ms. */
const TARGETS: Record<string, number> = {
  'phone grid look': 400,
  'phone grid instant': 800,
  'desktop grid look': 200,
  'desktop grid instant': 400,
  'phone work look': 600,
}

const browser = await launchBrowser()
const rows: string[] = []
const verdicts: string[] = []
try {
  for (const scenario of SCENARIOS) {
    const name = nameOf(scenario)
    const runs: Measure[] = []
    for (let i = 0; i < RUNS; i++) {
      const run = await playOnce(browser, scenario)
      runs.push(run)
      const stalls = run.waits.filter((w) => w >= STALL_MIN_MS)
      const at = (value: number | null) => (value === null ? '-' : ms(value))
      console.log(
        `  ${name} ${scenario.engine} run ${i + 1}: first frame ${at(run.downToFrameMs)} after the press (${at(run.firstFrameMs)} after the click; press handled at ${at(run.pressHandledMs)}, click at ${at(run.clickHandledMs)}), stalls ${stalls.length} (${ms(stalls.reduce((a, b) => a + b, 0))}), waits ${run.waits.map((w) => Math.round(w)).join('/') || '-'}, ${mb(run.bytes)}, ahead ${(run.aheadBytes / 1000).toFixed(1)} KB, ${run.size}, audio ${run.audioBytes} B`,
      )
      if (process.env.PLAYBACK_VERBOSE)
        for (const line of run.waterfall) console.log(`      ${line}`)
    }
    const never = (value: number | null) => value ?? Number.POSITIVE_INFINITY
    const downs = runs.map((r) => never(r.downToFrameMs))
    const clicks = runs.map((r) => never(r.firstFrameMs))
    const stalls = runs.map((r) => r.waits.filter((w) => w >= STALL_MIN_MS))
    const stalledMs = stalls.map((s) => s.reduce((a, b) => a + b, 0))
    const firstFrame = median(downs)
    rows.push(
      `| ${name} | ${scenario.engine} | **${ms(firstFrame)}** (${ms(Math.min(...downs))}–${ms(Math.max(...downs))}) | ${ms(median(clicks))} | ${ms(median(runs.map((r) => never(r.pressHandledMs))))} / ${ms(median(runs.map((r) => never(r.clickHandledMs))))} | ${stalls.map((s) => s.length).join('/')} | ${stalledMs.map((s) => Math.round(s)).join('/')} ms | ${(median(runs.map((r) => r.aheadBytes)) / 1000).toFixed(1)} KB | ${mb(median(runs.map((r) => r.bytes)))} | ${runs[0]?.size} | ${runs.every((r) => r.audioBytes > 0) ? 'yes' : 'NO'} |`,
    )
    const target = TARGETS[name]
    if (scenario.engine === 'streams') {
      const ok =
        (target === undefined || firstFrame <= target) && stalls.every((s) => s.length === 0)
      verdicts.push(
        `${name}: press → first frame ${ms(firstFrame)} (target ${target === undefined ? 'none' : `≤ ${target} ms`}), stalls ${stalls.flat().length} (target 0), master requested: ${runs.some((r) => r.requestedMaster) ? 'YES' : 'no'} → ${ok ? 'met' : 'NOT met'}`,
      )
    }
  }
} finally {
  await browser.close()
  await server.stop()
  rmSync(fixtures, { recursive: true, force: true })
}

console.log(
  `\nplayback over ${PLAY_SECONDS} s, ${RUNS} runs each, throttled from the page's first request (stall = a wait ≥ ${STALL_MIN_MS} ms after the first frame)`,
)
console.log(
  '| tap | plays | press → first frame, median (min–max) | click → first frame | press / click handled after the press | stalls per run | stalled per run | fetched ahead | bytes (median) | picture | audio |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|')
for (const row of rows) console.log(row)
console.log(
  `\nprocessing of the ${MASTER_SECONDS} s master: ${processingS.toFixed(1)} s = ${(processingS / MASTER_SECONDS).toFixed(2)} × duration (target ≤ 1.5), queued → processing ${startedAt === null ? '?' : ms(startedAt - queuedAt)}; load average before ${loadBefore}, after ${loadAfter}, at the end ${await loadavg()}`,
)
console.log(
  `public list (sequential GETs): idle p50 ${idleList.length ? percentile(idleList, 50).toFixed(1) : '-'} ms p99 ${percentile(idleList, 99).toFixed(1)} ms (${idleList.length}); during the transcode p50 ${percentile(busyList, 50).toFixed(1)} ms p99 ${percentile(busyList, 99).toFixed(1)} ms max ${Math.max(...busyList).toFixed(1)} ms (${busyList.length} requests; target p99 ≤ 50 ms)`,
)
for (const line of verdicts) console.log(line)
process.exit(0)
