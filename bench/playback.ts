// bench/playback: a 40 s 1080p master at 30 Mbps with music-like stereo audio is
// uploaded to the real server and processed there; then Chromium plays it from the public page
// as a visitor would, on a phone line (375 px, 9 Mbps / 170 ms) and a desktop line (1280 px,
// 30 Mbps / 40 ms), once through the streams and once as today's master. Prints time from click
// to first frame (median of the runs), stalls and stalled time over the play, bytes received,
// the processing time and the public list's latency while the transcode runs.
// Targets: phone ≤ 1.0 s, desktop ≤ 0.6 s, 0 stalls, processing ≤ 1.5 × duration, list p99 ≤ 50 ms.
// Usage: bun run build && bun run bench playback   (needs a quiet machine; ~15 minutes)
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

const PROFILES = {
  phone: { width: 375, height: 812, mbps: 9, latencyMs: 170, targetMs: 1000 },
  desktop: { width: 1280, height: 800, mbps: 30, latencyMs: 40, targetMs: 600 },
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

type Measure = {
  firstFrameMs: number | null
  waits: number[]
  bytes: number
  size: string
  audioBytes: number
  requestedMaster: boolean
}

/** Page-side probes: click time, first presented frame, waits after it (not the hover preview). */
function installProbe() {
  type Probe = {
    t0: number | null
    firstFrameMs: number | null
    video: HTMLVideoElement | null
    waitingSince: number | null
    waits: number[]
    size: string
    audioBytes: number
  }
  const m: Probe = {
    t0: null,
    firstFrameMs: null,
    video: null,
    waitingSince: null,
    waits: [],
    size: '-',
    audioBytes: 0,
  }
  ;(window as unknown as { __probe: Probe }).__probe = m
  const own = (event: Event) =>
    event.target instanceof HTMLVideoElement && !event.target.hasAttribute('data-preview')
  document.addEventListener('click', () => (m.t0 ??= performance.now()), true)
  document.addEventListener(
    'loadstart',
    (event) => {
      if (!own(event) || m.t0 === null || m.video) return
      const video = event.target as HTMLVideoElement
      m.video = video
      video.requestVideoFrameCallback(() => {
        m.firstFrameMs ??= performance.now() - (m.t0 ?? 0)
      })
    },
    true,
  )
  document.addEventListener(
    'waiting',
    (event) => {
      if (event.target === m.video && m.firstFrameMs !== null) m.waitingSince ??= performance.now()
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

async function playOnce(browser: Browser, profile: ProfileName, engine: Engine): Promise<Measure> {
  const p = PROFILES[profile]
  const context = await browser.newContext({ viewport: { width: p.width, height: p.height } })
  const page = await context.newPage()
  await page.addInitScript(installProbe)
  if (engine === 'master') {
    // Today's behaviour: the answer as it was before the pipeline, so the tile plays the master
    // (since record 059 a processed master needs a signed link; its path is the same).
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
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
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
  // PLAYBACK_VERBOSE=1: each request after the click, from the first one (seconds → ms).
  const waterfall = new Map<string, { path: string; start: number; end?: number; bytes?: number }>()
  cdp.on('Network.requestWillBeSent', (e) => {
    const path = new URL(e.request.url).pathname
    if (path === masterPath) requestedMaster = true
    if (counting && e.request.url.startsWith('http')) {
      waterfall.set(e.requestId, { path, start: e.timestamp })
    }
  })
  cdp.on('Network.loadingFinished', (e) => {
    const entry = waterfall.get(e.requestId)
    if (entry) Object.assign(entry, { end: e.timestamp, bytes: e.encodedDataLength })
  })

  // The visitor arrives at full speed, scrolls to the work and has been there a moment: the
  // page, its thumbnails and (for streams) the hls.js chunk are in hand before the click.
  await page.goto(server.url)
  const tile = page.getByRole('button', { name: `Play ${TITLE}` })
  await tile.scrollIntoViewIfNeeded()
  if (engine === 'streams') {
    await page.waitForFunction(() =>
      performance
        .getEntriesByType('resource')
        .some(
          (e) =>
            /\/assets\/hls-[^/]*\.js$/.test(e.name) &&
            (e as PerformanceResourceTiming).responseEnd > 0,
        ),
    )
  }
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(500)
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: p.latencyMs,
    downloadThroughput: (p.mbps * 1_000_000) / 8,
    uploadThroughput: (p.mbps * 1_000_000) / 8,
  })
  counting = true
  await tile.click()
  let firstFrameMs: number | null = null
  try {
    await page.waitForFunction(
      () =>
        (window as unknown as { __probe: { firstFrameMs: number | null } }).__probe.firstFrameMs !==
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
          firstFrameMs: number | null
          waitingSince: number | null
          waits: number[]
          size: string
          audioBytes: number
        }
      }
    ).__probe
    const waits = [...probe.waits]
    if (probe.waitingSince !== null) waits.push(performance.now() - probe.waitingSince)
    return {
      firstFrameMs: probe.firstFrameMs,
      waits,
      size: probe.size,
      audioBytes: probe.audioBytes,
    }
  })
  firstFrameMs = result.firstFrameMs
  counting = false
  await context.close()
  const bytes = [...received.values()].reduce((a, b) => a + b, 0)
  if (process.env.PLAYBACK_VERBOSE) {
    const entries = [...waterfall.values()]
    const t0 = Math.min(...entries.map((e) => e.start))
    for (const e of entries.slice(0, 12)) {
      const end = e.end === undefined ? '…' : Math.round((e.end - t0) * 1000)
      console.log(
        `      ${Math.round((e.start - t0) * 1000)}–${end} ms ${e.path.split('/').slice(-2).join('/')} ${e.bytes ?? ''}`,
      )
    }
  }
  return { ...result, firstFrameMs, bytes, requestedMaster }
}

const browser = await launchBrowser()
const rows: string[] = []
const verdicts: string[] = []
try {
  for (const profile of Object.keys(PROFILES) as ProfileName[]) {
    for (const engine of ['streams', 'master'] as const) {
      const runs: Measure[] = []
      for (let i = 0; i < RUNS; i++) {
        const run = await playOnce(browser, profile, engine)
        runs.push(run)
        const stalls = run.waits.filter((w) => w >= STALL_MIN_MS)
        console.log(
          `  ${profile} ${engine} run ${i + 1}: first frame ${run.firstFrameMs === null ? 'none' : ms(run.firstFrameMs)}, stalls ${stalls.length} (${ms(stalls.reduce((a, b) => a + b, 0))}), waits ${run.waits.map((w) => Math.round(w)).join('/') || '-'}, ${mb(run.bytes)}, ${run.size}, audio ${run.audioBytes} B`,
        )
      }
      const frames = runs.map((r) => r.firstFrameMs ?? Number.POSITIVE_INFINITY)
      const stalls = runs.map((r) => r.waits.filter((w) => w >= STALL_MIN_MS))
      const stalledMs = stalls.map((s) => s.reduce((a, b) => a + b, 0))
      const firstFrame = median(frames)
      rows.push(
        `| ${profile} | ${engine} | ${ms(firstFrame)} (${ms(Math.min(...frames))}–${ms(Math.max(...frames))}) | ${stalls.map((s) => s.length).join('/')} | ${stalledMs.map((s) => Math.round(s)).join('/')} ms | ${mb(median(runs.map((r) => r.bytes)))} | ${runs[0]?.size} | ${runs.every((r) => r.audioBytes > 0) ? 'yes' : 'NO'} |`,
      )
      if (engine === 'streams') {
        const p = PROFILES[profile]
        const ok = firstFrame <= p.targetMs && stalls.every((s) => s.length === 0)
        verdicts.push(
          `${profile}: first frame ${ms(firstFrame)} (target ≤ ${p.targetMs} ms), stalls ${stalls.flat().length} (target 0), master requested: ${runs.some((r) => r.requestedMaster) ? 'YES' : 'no'} → ${ok ? 'met' : 'NOT met'}`,
        )
      }
    }
  }
} finally {
  await browser.close()
  await server.stop()
  rmSync(fixtures, { recursive: true, force: true })
}

console.log(
  `\nplayback over ${PLAY_SECONDS} s, ${RUNS} runs each (stall = a wait ≥ ${STALL_MIN_MS} ms after the first frame)`,
)
console.log(
  '| line | plays | click → first frame, median (min–max) | stalls per run | stalled per run | bytes (median) | picture | audio |',
)
console.log('|---|---|---|---|---|---|---|---|')
for (const row of rows) console.log(row)
console.log(
  `\nprocessing of the ${MASTER_SECONDS} s master: ${processingS.toFixed(1)} s = ${(processingS / MASTER_SECONDS).toFixed(2)} × duration (target ≤ 1.5), queued → processing ${startedAt === null ? '?' : ms(startedAt - queuedAt)}; load average before ${loadBefore}, after ${loadAfter}`,
)
console.log(
  `public list (sequential GETs): idle p50 ${idleList.length ? percentile(idleList, 50).toFixed(1) : '-'} ms p99 ${percentile(idleList, 99).toFixed(1)} ms (${idleList.length}); during the transcode p50 ${percentile(busyList, 50).toFixed(1)} ms p99 ${percentile(busyList, 99).toFixed(1)} ms max ${Math.max(...busyList).toFixed(1)} ms (${busyList.length} requests; target p99 ≤ 50 ms)`,
)
for (const line of verdicts) console.log(line)
process.exit(0)
