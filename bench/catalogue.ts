// bench/catalogue: the landing page as the catalogue grows to 12, 100, 1,000 and 10,000 published
// works, on a phone (375 px, 4× CPU slowdown, 9 Mbps / 170 ms). Prints, per size: the bytes on the
// wire of the answer that brings the first works (the server-rendered page, which holds them,
// docs/decisions/053-public-pages-rendered-on-the-server-live-on-intent.md) and the whole list's,
// time from navigation to the first tile, main-thread long-task time until the page settles, and
// the elements on the page after load (medians of RUNS). Targets: first answer ≤ 25 KB at any size;
// long tasks at 10,000 within 1.5× of the 12-work figure. Usage: bun run build && bun run bench
// catalogue   (a few minutes)
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import type { Browser } from 'playwright-core'
import { openDatabase } from '../src/db/database.ts'
import { launchBrowser } from '../testkit/browser.ts'
import { fixtures } from '../testkit/media.ts'
import { readyServerWorks } from '../testkit/ready.ts'
import { startServer } from '../testkit/server.ts'
import { uploadVideo } from '../testkit/upload.ts'

const SIZES = (process.env.CATALOGUE_SIZES ?? '12,100,1000,10000').split(',').map(Number)
const RUNS = Number(process.env.CATALOGUE_RUNS ?? 3)
const SETTLE_MS = 3000
const PHONE = { width: 375, height: 812, mbps: 9, latencyMs: 170, cpu: 4 }
const TARGET_FIRST_BYTES = 25 * 1024
const TARGET_LONG_TASK_RATIO = 1.5

if (!existsSync(join(import.meta.dir, '..', 'web', 'dist', 'index.html'))) {
  console.error('web/dist is missing: run `bun run build` first')
  process.exit(1)
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const loadavg = async () =>
  (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')

const server = await startServer({ MEDIA_WORKERS: '0' })
const f = await fixtures()
const { token } = await server.apiLogin()
// One real upload, processed: every seeded work shows its thumbnail and logo and names its streams
// (the same files; visitors see a work once its streams exist,
// docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md).
await uploadVideo(server.url, token, 'Work 0', f)
await readyServerWorks(server)

/** Adds works up to `total`, straight into the stopped server's database, then starts it again. */
async function growTo(total: number, have: number) {
  await server.terminate() // a clean stop: the embedded database has one owner at a time
  const db = await openDatabase({ databaseUrl: server.databaseUrl, dataDir: server.dataDir })
  await db.db.execute(sql`
    insert into videos (title, slug, description, video_key, video_type, video_size, thumbnail_key,
      thumbnail_type, thumbnail_size, brand_logo_key, brand_logo_type, brand_logo_size, status,
      streams_key, position, created_at)
    select 'Work ' || g, 'work-' || g, 'A piece for a brand, with music and sound design by the studio.',
      v.video_key, v.video_type, v.video_size, v.thumbnail_key, v.thumbnail_type,
      v.thumbnail_size, v.brand_logo_key, v.brand_logo_type, v.brand_logo_size, 'ready', v.streams_key,
      1000000 - g, timestamptz '2020-01-01' + g * interval '1 minute'
    from generate_series(${have}::int, ${total - 1}::int) as g,
      (select * from videos where title = 'Work 0') as v`)
  await db.close()
  await server.start()
}

/** Bytes on the wire of one answer, brotli as Chromium asks for it. */
async function wireBytes(path: string) {
  const res = await fetch(`${server.url}${path}`, {
    headers: { 'accept-encoding': 'br, gzip' },
    decompress: false,
  })
  return (await res.arrayBuffer()).byteLength
}

type Run = { firstBytes: number; firstTileMs: number; longTaskMs: number; elements: number }

async function visit(browser: Browser): Promise<Run> {
  const context = await browser.newContext({
    viewport: { width: PHONE.width, height: PHONE.height },
    isMobile: true,
    hasTouch: true,
  })
  const page = await context.newPage()
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number; __firstTile: number | null }
    w.__longTasks = 0
    w.__firstTile = null
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks += entry.duration
    }).observe({ type: 'longtask', buffered: true })
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid="work-grid"] li button')) {
        w.__firstTile = performance.now()
        observer.disconnect()
      }
    }).observe(document, { childList: true, subtree: true })
  })
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpu })
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.latencyMs,
    downloadThroughput: (PHONE.mbps * 1_000_000) / 8,
    uploadThroughput: (PHONE.mbps * 1_000_000) / 8,
  })
  let firstId: string | null = null
  let firstBytes = 0
  cdp.on('Network.responseReceived', (e) => {
    // The page itself: the server renders the first works into it.
    if (!firstId && e.type === 'Document') firstId = e.requestId
  })
  cdp.on('Network.loadingFinished', (e) => {
    if (e.requestId === firstId) firstBytes = e.encodedDataLength
  })
  await page.goto(`${server.url}/`, { waitUntil: 'load', timeout: 120_000 })
  await page.waitForFunction(
    () => (window as unknown as { __firstTile: number | null }).__firstTile,
  )
  await page.waitForTimeout(SETTLE_MS)
  const measured = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number; __firstTile: number }
    return {
      firstTileMs: w.__firstTile,
      longTaskMs: w.__longTasks,
      elements: document.getElementsByTagName('*').length,
    }
  })
  await context.close()
  return { firstBytes, ...measured }
}

const browser = await launchBrowser()
const rows: { size: number; all: number; run: Run }[] = []
let have = 1
try {
  console.log(`load average at start: ${await loadavg()}`)
  for (const size of SIZES) {
    if (size > have) {
      await growTo(size, have)
      have = size
    }
    const all = await wireBytes('/api/public/videos')
    const runs: Run[] = []
    for (let i = 0; i < RUNS; i++) runs.push(await visit(browser))
    const run: Run = {
      firstBytes: median(runs.map((r) => r.firstBytes)),
      firstTileMs: median(runs.map((r) => r.firstTileMs)),
      longTaskMs: median(runs.map((r) => r.longTaskMs)),
      elements: median(runs.map((r) => r.elements)),
    }
    rows.push({ size, all, run })
    console.log(
      `  ${size} works: first answer ${kb(run.firstBytes)} (whole list ${kb(all)}), first tile ${Math.round(run.firstTileMs)} ms, long tasks ${Math.round(run.longTaskMs)} ms (${runs.map((r) => Math.round(r.longTaskMs)).join('/')}), ${run.elements} elements`,
    )
  }
} finally {
  await browser.close()
  await server.stop()
}

console.log(`\nload average at end: ${await loadavg()}`)
console.log(
  '\n| works | first answer (wire) | whole list (wire) | first tile | long tasks | elements |',
)
console.log('|---|---|---|---|---|---|')
for (const { size, all, run } of rows) {
  console.log(
    `| ${size.toLocaleString('en-US')} | ${kb(run.firstBytes)} | ${kb(all)} | ${Math.round(run.firstTileMs)} ms | ${Math.round(run.longTaskMs)} ms | ${run.elements} |`,
  )
}
const small = rows.find((r) => r.size === Math.min(...SIZES))
const large = rows.find((r) => r.size === Math.max(...SIZES))
const maxFirst = Math.max(...rows.map((r) => r.run.firstBytes))
console.log(
  `\nfirst answer at most ${kb(maxFirst)} (target ≤ ${kb(TARGET_FIRST_BYTES)}): ${maxFirst <= TARGET_FIRST_BYTES ? 'met' : 'NOT met'}`,
)
if (small && large) {
  const ratio = large.run.longTaskMs / Math.max(small.run.longTaskMs, 1)
  console.log(
    `long tasks at ${large.size.toLocaleString('en-US')} works ÷ at ${small.size}: ${ratio.toFixed(2)} (target ≤ ${TARGET_LONG_TASK_RATIO}): ${ratio <= TARGET_LONG_TASK_RATIO ? 'met' : 'NOT met'}`,
  )
}
