// Lighthouse (mobile preset) against the production build on localhost with 12 seeded videos: five
// runs, medians of performance, accessibility, LCP, TBT, CLS, the public page's JS and all it
// transferred before any interaction (the streams' start fetched ahead included,
// docs/decisions/076-a-streams-start-fetched-ahead-and-on-the-press.md). `--work` measures the
// first work's own page (/work/<slug>) instead of `/`. It always waits until every video is
// processed: visitors see a work only once its streams exist
// (docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md), so `--ready` is what every
// run does and is accepted for older command lines. `--report file.json` keeps the last run's whole
// Lighthouse report (the LCP element, its request chain and the simulated timings) to see what
// bounds a figure. Usage: bun run build && bun bench/lighthouse.ts [--runs 5] [--work] [--ready]
// [--json out.json]
//   [--report file.json]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeSampleMedia, seedVideos } from '../testkit/sample-videos.ts'
import { startServer } from '../testkit/server.ts'

const ROOT = join(import.meta.dir, '..')
const DIST = join(ROOT, 'web', 'dist')
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
const args = process.argv.slice(2)
const option = (name: string) => {
  const index = args.indexOf(name)
  return index >= 0 ? args[index + 1] : undefined
}
const RUNS = Number(option('--runs') ?? 5)

// The targets (docs/performance.md) for the landing page and a work's page.
const TARGETS = { performance: 99, accessibility: 100, lcpMs: 1500, cls: 0, jsGzipKiB: 60 }

type Run = {
  performance: number
  accessibility: number
  lcpMs: number
  tbtMs: number
  cls: number
  jsTransferKiB: number
  jsGzipKiB: number
  totalKiB: number
}

type LighthouseResult = {
  categories: Record<string, { score: number | null }>
  audits: Record<
    string,
    {
      numericValue?: number
      details?: { items?: { url: string; resourceType?: string; transferSize?: number }[] }
    }
  >
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART); such a run is repeated. */
async function lighthouse(url: string, attempts = 3): Promise<LighthouseResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url)
    } catch (error) {
      if (attempt >= attempts) throw error
      console.warn(`  (retrying: ${(error as Error).message.split('\n').at(-2) ?? error})`)
    }
  }
}

async function lighthouseOnce(url: string): Promise<LighthouseResult> {
  const proc = Bun.spawn(
    [
      'node',
      join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js'),
      url,
      '--output=json',
      '--output-path=stdout',
      '--only-categories=performance,accessibility',
      '--quiet',
      // Same flags as the e2e browser; the default form factor is the mobile preset.
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-dev-shm-usage',
    ],
    { env: { ...process.env, CHROME_PATH }, stdout: 'pipe', stderr: 'pipe' },
  )
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  if (code !== 0) throw new Error(`lighthouse exited with ${code}:\n${err}`)
  return JSON.parse(out) as LighthouseResult
}

function summarise(result: LighthouseResult): Run {
  const audit = (id: string) => result.audits[id]?.numericValue ?? Number.NaN
  const scripts = (result.audits['network-requests']?.details?.items ?? []).filter(
    (item) => item.resourceType === 'Script',
  )
  // What the server sent, and what the same files weigh gzipped (the target's unit).
  const transfer = scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0)
  const gzip = scripts.reduce((sum, item) => {
    const file = join(DIST, new URL(item.url).pathname)
    return sum + Bun.gzipSync(readFileSync(file)).length
  }, 0)
  return {
    performance: Math.round((result.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((result.categories.accessibility?.score ?? 0) * 100),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: Number(audit('cumulative-layout-shift').toFixed(4)),
    jsTransferKiB: Number((transfer / 1024).toFixed(1)),
    jsGzipKiB: Number((gzip / 1024).toFixed(1)),
    totalKiB: Number((audit('total-byte-weight') / 1024).toFixed(1)),
  }
}

/** Waits until the public list shows `count` works, all processed (at most 10 minutes). */
async function allProcessed(url: string, count: number) {
  const deadline = Date.now() + 600_000
  for (;;) {
    const res = await fetch(`${url}/api/public/videos?limit=${count}`)
    const { videos } = ((await res.json()) as { data: { videos: { status: string }[] } }).data
    if (videos.length >= count && videos.every((video) => video.status === 'ready')) return
    if (Date.now() > deadline) throw new Error('the seeded videos were not processed in time')
    await Bun.sleep(1000)
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

async function main() {
  try {
    readFileSync(join(DIST, 'index.html'))
  } catch {
    throw new Error('web/dist is missing: run `bun run build` first')
  }
  const mediaDir = mkdtempSync(join(tmpdir(), 'lighthouse-media-'))
  const [server, samples] = await Promise.all([startServer(), makeSampleMedia(mediaDir, 12)])
  try {
    const { token } = await server.apiLogin()
    await seedVideos(server.url, token, samples)
    await allProcessed(server.url, samples.length)
    let path = '/'
    if (args.includes('--work')) {
      const list = (await (await fetch(`${server.url}/api/public/videos?limit=1`)).json()) as {
        data: { videos: { slug: string }[] }
      }
      path = `/work/${list.data.videos[0]!.slug}`
    }
    const url = `${server.url}${path}`
    console.log(`Lighthouse ${RUNS}× (mobile preset) on ${url} with ${samples.length} videos`)
    await lighthouse(url) // warm-up: server caches, Chromium profile; not counted

    const runs: Run[] = []
    const report = option('--report')
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(url)
      if (report && i === RUNS - 1) writeFileSync(report, JSON.stringify(result))
      const run = summarise(result)
      runs.push(run)
      console.log(`  run ${i + 1}: ${JSON.stringify(run)}`)
    }
    const keys = Object.keys(runs[0]!) as (keyof Run)[]
    const medians = Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) as Run

    const verdicts = [
      ['performance', medians.performance >= TARGETS.performance, `≥ ${TARGETS.performance}`],
      [
        'accessibility',
        medians.accessibility >= TARGETS.accessibility,
        `≥ ${TARGETS.accessibility}`,
      ],
      ['LCP', medians.lcpMs <= TARGETS.lcpMs, `≤ ${TARGETS.lcpMs} ms`],
      ['CLS', medians.cls <= TARGETS.cls, `≤ ${TARGETS.cls}`],
      ['initial JS (gzip)', medians.jsGzipKiB <= TARGETS.jsGzipKiB, `≤ ${TARGETS.jsGzipKiB} KiB`],
    ] as const
    console.log('\nMedians')
    console.log(`  performance        ${medians.performance}`)
    console.log(`  accessibility      ${medians.accessibility}`)
    console.log(`  LCP                ${medians.lcpMs} ms`)
    console.log(`  TBT                ${medians.tbtMs} ms`)
    console.log(`  CLS                ${medians.cls}`)
    console.log(`  JS gzip            ${medians.jsGzipKiB} KiB`)
    console.log(`  JS as transferred  ${medians.jsTransferKiB} KiB`)
    console.log(`  all transferred    ${medians.totalKiB} KiB`)
    console.log('\nTargets')
    for (const [name, ok, target] of verdicts)
      console.log(`  ${ok ? 'met ' : 'MISS'} ${name} ${target}`)

    const out = option('--json')
    if (out) writeFileSync(out, `${JSON.stringify({ runs, medians }, null, 2)}\n`)
    if (verdicts.some(([, ok]) => !ok)) process.exitCode = 1
  } finally {
    await server.stop()
    rmSync(mediaDir, { recursive: true, force: true })
  }
}

await main()
