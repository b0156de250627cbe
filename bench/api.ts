// bench/api: the public video list and the tRPC list query under 64 connections for 30 s (wrk),
// beside a bare Bun.serve answering the same JSON bytes from memory; then 200 public clients for
// 60 s while a tus upload runs. Targets: ratio ≥ 0.5, p99 ≤ 20 ms, 0 errors; the upload completes.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readyServerWorks } from '../testkit/ready.ts'
import { makeSampleMedia, seedVideos } from '../testkit/sample-videos.ts'
import { startServer } from '../testkit/server.ts'
import { tusRaw } from '../testkit/tus.ts'
import { ensureWrk, type WrkResult, wrk } from './wrk.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30)
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 60)
ensureWrk()

const server = await startServer()
const { token } = await server.apiLogin()
const samples = await makeSampleMedia(mkdtempSync(join(tmpdir(), 'bench-api-')), 12)
// 20 videos: the 12 samples and 8 more under other titles.
await seedVideos(server.url, token, [
  ...samples,
  ...samples.slice(0, 8).map((s, i) => ({ ...s, title: `${s.title} (cut ${i + 2})` })),
])
// Visitors see a work once its streams exist
// (docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md): made ready at once, not after
// the server's worker has processed all 20.
await readyServerWorks(server)

const publicUrl = `${server.url}/api/public/videos`
const trpcUrl = `${server.url}/trpc/videos.list?input=${encodeURIComponent(JSON.stringify({ page: 1, limit: 10 }))}`
const bytesPath = join(tmpdir(), `bench-api-${process.pid}.json`)
await Bun.write(bytesPath, await (await fetch(publicUrl)).arrayBuffer())

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = ''
  for await (const chunk of stream) {
    text += new TextDecoder().decode(chunk)
    if (text.includes('\n')) break
  }
  return text.split('\n')[0]!.trim()
}

const baseline = Bun.spawn(
  [process.execPath, join(import.meta.dir, 'baseline-server.ts'), bytesPath],
  {
    stdout: 'pipe',
  },
)
const baselineUrl = `http://127.0.0.1:${await firstLine(baseline.stdout as ReadableStream<Uint8Array>)}/`

// One wrk thread: the other core is the server's (2 cores in all).
const load = { connections: 64, seconds: SECONDS, threads: 1 }
const row = (name: string, r: WrkResult & { steal: number }, base?: WrkResult) =>
  `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms  errors ${r.errors}  cpu steal ${r.steal.toFixed(0).padStart(2)} %${base ? `  ratio ${(r.rps / base.rps).toFixed(2)}` : ''}`

/** CPU time the hypervisor gave to others (/proc/stat); a run with much of it measures the host. */
async function cpuTimes(): Promise<{ steal: number; total: number }> {
  const line = (await Bun.file('/proc/stat').text()).split('\n')[0]!
  const values = line.trim().split(/\s+/).slice(1, 9).map(Number)
  return { steal: values[7] ?? 0, total: values.reduce((a, b) => a + b, 0) }
}
async function withSteal<T>(run: () => Promise<T>): Promise<T & { steal: number }> {
  const before = await cpuTimes()
  const result = await run()
  const after = await cpuTimes()
  const steal = (100 * (after.steal - before.steal)) / Math.max(1, after.total - before.total)
  return { ...result, steal }
}

// Each in turn (one at a time: two cores are shared by server and wrk), each right after 3 s of
// warm-up on the same URL. This VM is slow to wake: after ~30 s without load, even the bare
// baseline shows a p99 near 100 ms in its first seconds (measured: 95 ms, max 190 ms, against
// 4.8 ms when warm), so an unwarmed run measures the machine, not the server.
const measure = async (url: string, headers?: Record<string, string>) => {
  await wrk(url, { connections: 16, seconds: 3, headers })
  return withSteal(() => wrk(url, { ...load, headers }))
}
const base = await measure(baselineUrl)
const pub = await measure(publicUrl)
const list = await measure(trpcUrl, { Authorization: `Bearer ${token}` })
baseline.kill()

console.log(
  `\nbench/api — 64 connections, ${SECONDS} s each, 20 videos (${new Date().toISOString()})`,
)
console.log(row('baseline (bare Bun.serve)', base))
console.log(row('GET /api/public/videos', pub, base))
console.log(row('tRPC videos.list', list, base))

// 200 public clients for SOAK_SECONDS while one admin uploads a file through tus.
const UPLOAD_BYTES = Number(process.env.SOAK_UPLOAD_MB ?? 256) * 1024 * 1024
const CHUNK = 8 * 1024 * 1024
async function tusUpload(): Promise<{ ok: boolean; seconds: number }> {
  const started = performance.now()
  const tus = tusRaw(server.url, token)
  const created = await tus.create(UPLOAD_BYTES, { kind: 'video', filename: 'soak.mp4' })
  if (created.status !== 201) return { ok: false, seconds: 0 }
  const path = created.headers.get('location')!
  const chunk = new Uint8Array(CHUNK).fill(7)
  // A real MP4 head: a finished video upload is checked by its first bytes.
  const first = chunk.slice()
  first.set(await Bun.file(samples[0]!.video).bytes())
  for (let offset = 0; offset < UPLOAD_BYTES; offset += CHUNK) {
    const body = (offset === 0 ? first : chunk).subarray(0, Math.min(CHUNK, UPLOAD_BYTES - offset))
    const res = await tus.patch(path, offset, body)
    if (res.status !== 204) return { ok: false, seconds: 0 }
    // Pace the upload over the soak so that it overlaps the whole load.
    await Bun.sleep(((SOAK_SECONDS * 1000) / (UPLOAD_BYTES / CHUNK)) * 0.6)
  }
  return { ok: true, seconds: (performance.now() - started) / 1000 }
}
const [soak, upload] = await Promise.all([
  withSteal(() => wrk(publicUrl, { connections: 200, seconds: SOAK_SECONDS, threads: 1 })),
  tusUpload(),
])
console.log(row(`200 clients + upload (${SOAK_SECONDS} s)`, soak))
console.log(
  `upload of ${UPLOAD_BYTES / 1024 / 1024} MiB during the soak: ${upload.ok ? `completed in ${upload.seconds.toFixed(1)} s` : 'FAILED'}`,
)

await server.stop()
// Both measured paths are held to the targets, not only the public one.
const meets = (r: WrkResult) => r.rps / base.rps >= 0.5 && r.p99 <= 20 && r.errors === 0
const pass = meets(pub) && meets(list) && soak.errors === 0 && upload.ok
console.log(
  `targets (ratio ≥ 0.5, p99 ≤ 20 ms, 0 errors, upload completes): ${pass ? 'met' : 'NOT met'}`,
)
process.exit(pass ? 0 : 1)
