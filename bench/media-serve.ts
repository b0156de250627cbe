// bench/media-serve: how public media reach a player when the media live in a bucket
// (docs/decisions/073-public-media-stream-by-default-redirect-with-media-public-url.md). One bucket
// of its own on the real S3 server (testkit/s3.ts; dropped at the end) whose public prefixes anyone
// may read (a bucket policy), holding one stream folder of MEDIA_SERVE_SEGMENTS (32) segments of
// MEDIA_SERVE_SEGMENT_MB (2) MiB of random bytes under `streams/<folder>/1080p/`, with its
// playlists. /media serves only the folders of works visitors may see, so each server gets one
// work (a tiny upload) made ready with that folder, as the media worker would (markReady stores
// it). The real server runs twice on that bucket, no media worker:
//   stream:   without MEDIA_PUBLIC_URL; every segment through /media (today).
//   redirect: with MEDIA_PUBLIC_URL=<S3_ENDPOINT>/<bucket>; every segment asked of /media, which
//             answers 302, and fetched from the bucket (a client that addresses each file by the
//             app's URL: a progressive MP4, a thumbnail).
//   hls:      the same server; the player's way: the master playlist asked of /media (302), the
//             rendition playlist and every segment from the bucket by their relative URIs.
// Each of MEDIA_SERVE_CLIENTS (16) concurrent clients fetches every segment once, starting at its
// own offset. Printed: time to first byte (request to headers, the 302 hop included; median and
// p95), the aggregate throughput, the server's CPU time (utime + stime from /proc) and its peak
// RSS growth (VmRSS every 50 ms) over the round. Every answer's length is checked, and every 8th
// answer's bytes. Medians of MEDIA_SERVE_ROUNDS (3) interleaved rounds.
import { randomFillSync } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { videos } from '../db/schema.ts'
import type { MediaProbe } from '../src/videos/job.ts'
import { markReady } from '../src/videos/rows.ts'
import { fixtures } from '../testkit/media.ts'
import { memoryOf, sampleRss } from '../testkit/process-memory.ts'
import { onServer } from '../testkit/ready.ts'
import { dropBucket, makeBucket, publishPublicPrefixes, s3Available } from '../testkit/s3.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { uploadVideo } from '../testkit/upload.ts'

const MiB = 1024 * 1024
const MB = 1e6
const CLIENTS = Number(process.env.MEDIA_SERVE_CLIENTS ?? 16)
const SEGMENTS = Number(process.env.MEDIA_SERVE_SEGMENTS ?? 32)
const SEGMENT_BYTES = Number(process.env.MEDIA_SERVE_SEGMENT_MB ?? 2) * MiB
const ROUNDS = Number(process.env.MEDIA_SERVE_ROUNDS ?? 3)
const CHECK_EVERY = 8
const SAMPLE_MS = 50
const TICK_MS = 1000 / 100

const s3 = s3Available()
if (!s3.available) {
  console.log(`media-serve: skipped, ${s3.reason}`)
  process.exit(0)
}

const loadavg = async () => (await Bun.file('/proc/loadavg').text()).split(' ')[0]!
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!

/** CPU time of a process so far (user + system), in ms. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text()
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS
}

const segmentName = (i: number) => `seg_${String(i).padStart(3, '0')}.m4s`
const segments: Uint8Array[] = []
for (let i = 0; i < SEGMENTS; i++) {
  const bytes = new Uint8Array(SEGMENT_BYTES)
  randomFillSync(bytes)
  segments.push(bytes)
}

/** A run's outputs on disk: an init segment, the segments, a rendition playlist, a master. */
async function writeOutputs(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'media-serve-'))
  const put = (path: string, bytes: Uint8Array | string) => Bun.write(join(dir, path), bytes)
  for (let i = 0; i < SEGMENTS; i++) await put(`1080p/${segmentName(i)}`, segments[i]!)
  await put('1080p/init.mp4', new Uint8Array(1000))
  const index = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    '#EXT-X-TARGETDURATION:4',
    '#EXT-X-MAP:URI="init.mp4"',
    ...segments.flatMap((_, i) => ['#EXTINF:4.0,', segmentName(i)]),
    '#EXT-X-ENDLIST',
    '',
  ].join('\n')
  await put('1080p/index.m3u8', index)
  const master = [
    '#EXTM3U',
    '#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080',
    '1080p/index.m3u8',
    '',
  ].join('\n')
  await put('master.m3u8', master)
  return dir
}

const PROBE: MediaProbe = {
  duration: SEGMENTS * 4,
  width: 1920,
  height: 1080,
  frameRate: 25,
  videoCodec: 'h264',
  audioCodec: null,
  bitrate: 5_000_000,
  hasAudio: false,
}

/**
 * One work on `server` whose streams are the outputs in `outDir`, stored in the bucket by the
 * pipeline's own write; returns its stream folder once the server's public list names it.
 */
async function readyWork(server: E2EServer, outDir: string): Promise<string> {
  const { token } = await server.apiLogin()
  const video = await uploadVideo(server.url, token, `Bench ${server.url}`, await fixtures())
  await onServer(server, async (db, store) => {
    const [row] = await db
      .select({ videoKey: videos.videoKey })
      .from(videos)
      .where(eq(videos.id, video._id))
    const job = { videoId: video._id, sourceKey: row!.videoKey }
    if (!(await markReady(db, store, job, outDir, PROBE, false))) throw new Error('not made ready')
  })
  for (let i = 0; i < 100; i++) {
    const list = (await (await fetch(`${server.url}/api/public/videos`)).json()) as {
      data: { videos: { hlsUrl: string | null }[] }
    }
    const folder = /^\/media\/([0-9a-f]{32})\//.exec(list.data.videos[0]?.hlsUrl ?? '')?.[1]
    if (folder) return folder
    await Bun.sleep(100)
  }
  throw new Error('the work never showed in the public list')
}

/** Waits until /media sends this folder's segments to the bucket's public copy. */
async function untilRedirected(url: string, folder: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${url}/media/${folder}/1080p/${segmentName(0)}`, {
      redirect: 'manual',
    })
    await res.arrayBuffer()
    if (res.status === 302) return
    await Bun.sleep(100)
  }
  throw new Error('no public copy of the folder within a minute')
}

type Round = { ttfb: number[]; mbps: number; cpuMs: number; rssGrowth: number }

/** Every client fetches every segment URL `urlOf(i)` once; fetch follows a 302 itself. */
async function round(pid: number, urlOf: (i: number) => string): Promise<Round> {
  const ttfb: number[] = []
  let checked = 0
  Bun.gc(true)
  const rssBefore = await memoryOf(pid)
  const sampler = sampleRss(pid, SAMPLE_MS)
  const cpuBefore = await cpuMs(pid)
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let n = 0; n < SEGMENTS; n++) {
        const i = (c * 5 + n) % SEGMENTS
        const asked = performance.now()
        const res = await fetch(urlOf(i))
        ttfb.push(performance.now() - asked)
        if (res.status !== 200) throw new Error(`segment ${i}: ${res.status}`)
        const got = new Uint8Array(await res.arrayBuffer())
        if (got.length !== SEGMENT_BYTES) throw new Error(`segment ${i}: ${got.length} bytes`)
        if (checked++ % CHECK_EVERY === 0 && Buffer.compare(got, segments[i]!) !== 0) {
          throw new Error(`segment ${i}: wrong bytes`)
        }
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const cpu = (await cpuMs(pid)) - cpuBefore
  const peak = await sampler.stop()
  return {
    ttfb,
    mbps: (CLIENTS * SEGMENTS * SEGMENT_BYTES) / MB / seconds,
    cpuMs: cpu,
    rssGrowth: peak - rssBefore,
  }
}

/** The player's way: the master from the app (302), then relative URIs from where it landed. */
async function hlsUrls(appUrl: string, folder: string): Promise<(i: number) => string> {
  const master = await fetch(`${appUrl}/media/${folder}/master.m3u8`)
  if (master.status !== 200 || !master.redirected) throw new Error('master: no redirect')
  const rendition = (await master.text()).split('\n').find((l) => l.endsWith('.m3u8'))!
  const indexUrl = new URL(rendition, master.url)
  const index = await (await fetch(indexUrl)).text()
  const names = index.split('\n').filter((l) => l.endsWith('.m4s'))
  return (i) => new URL(names[i]!, indexUrl).href
}

const bucket = await makeBucket()
const results: Record<string, Round[]> = { stream: [], redirect: [], hls: [] }
try {
  const publicUrl = await publishPublicPrefixes(bucket)
  const outDir = await writeOutputs()
  const env = {
    S3_BUCKET: bucket.bucket,
    S3_ENDPOINT: bucket.endpoint ?? '',
    S3_REGION: bucket.region,
    S3_FORCE_PATH_STYLE: 'true',
    MEDIA_WORKERS: '0',
  }
  const streaming = await startServer(env)
  const redirecting = await startServer({ ...env, MEDIA_PUBLIC_URL: publicUrl })
  try {
    const streamed = await readyWork(streaming, outDir)
    const redirected = await readyWork(redirecting, outDir)
    await untilRedirected(redirecting.url, redirected)
    const appUrl = (url: string, folder: string) => (i: number) =>
      `${url}/media/${folder}/1080p/${segmentName(i)}`
    // Warm-up: the SDK's first import, connections, the JIT.
    await round(streaming.pid, appUrl(streaming.url, streamed))
    await round(redirecting.pid, appUrl(redirecting.url, redirected))
    for (let r = 0; r < ROUNDS; r++) {
      const load = await loadavg()
      results.stream!.push(await round(streaming.pid, appUrl(streaming.url, streamed)))
      results.redirect!.push(await round(redirecting.pid, appUrl(redirecting.url, redirected)))
      results.hls!.push(await round(redirecting.pid, await hlsUrls(redirecting.url, redirected)))
      console.log(`round ${r + 1} of ${ROUNDS} (load average ${load} → ${await loadavg()})`)
    }
  } finally {
    await streaming.stop()
    await redirecting.stop()
    await rm(outDir, { recursive: true, force: true })
  }
} finally {
  await dropBucket(bucket)
}

const segMiB = SEGMENT_BYTES / MiB
console.log(
  `\n${CLIENTS} clients × ${SEGMENTS} segments of ${segMiB} MiB (${(CLIENTS * SEGMENTS * segMiB) / 1024} GiB a round), median of ${ROUNDS} rounds`,
)
console.log('mode      TTFB median   TTFB p95   throughput   server CPU   server peak RSS growth')
for (const [mode, rounds] of Object.entries(results)) {
  const ttfb = rounds.flatMap((r) => r.ttfb)
  console.log(
    [
      mode.padEnd(8),
      `${median(ttfb).toFixed(1)} ms`.padStart(12),
      `${p95(ttfb).toFixed(1)} ms`.padStart(11),
      `${median(rounds.map((r) => r.mbps)).toFixed(0)} MB/s`.padStart(12),
      `${(median(rounds.map((r) => r.cpuMs)) / 1000).toFixed(2)} s`.padStart(12),
      `${(median(rounds.map((r) => r.rssGrowth)) / MiB).toFixed(0)} MiB`.padStart(14),
    ].join(' '),
  )
}
