// bench/upload: a 1 GiB (and 2 GiB) file through tus with tus-js-client (50 MiB chunks) against
// the real server, and the same bytes in one plain PUT to a bare Bun.serve writing them to disk.
// Prints both throughputs (median of UPLOAD_ROUNDS, each run after `sync` so none pays for the
// previous one's writeback), their ratio, and each server's peak RSS growth (VmHWM, the worst run).
// Targets: ratio >= 0.85, peak RSS growth <= 100 MB. `UPLOAD_SIZES_GIB=1,2` picks the sizes.
import { createReadStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtures } from '../testkit/media.ts'
import { startServer } from '../testkit/server.ts'
import { tusRaw, tusUpload } from '../testkit/tus.ts'

const GiB = 1024 ** 3
const MB = 1e6
// The dashboard's chunk size (web/src/app/videos/tus-uploads.ts); TUS_CHUNK_MB tries others.
const CHUNK = Number(process.env.TUS_CHUNK_MB ?? 50) * 1024 * 1024
const sizes = (process.env.UPLOAD_SIZES_GIB ?? '1,2').split(',').map(Number)
const work = await mkdtemp(join(tmpdir(), 'bench-upload-'))

const status = async (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(
    new RegExp(`${field}:\\s+(\\d+) kB`).exec(await Bun.file(`/proc/${pid}/status`).text())?.[1],
  ) * 1024

/** A real MP4 head, then 16 MiB of random bytes repeated: sniffs as a video, costs no CPU. */
async function makeSource(bytes: number): Promise<string> {
  const path = join(work, `source-${bytes}.mp4`)
  const block = crypto.getRandomValues(new Uint8Array(16 * 1024 * 1024).subarray(0, 65536))
  const pattern = new Uint8Array(16 * 1024 * 1024)
  for (let i = 0; i < pattern.length; i += block.length) pattern.set(block, i)
  pattern.set(await Bun.file((await fixtures()).mp4).bytes())
  const sink = Bun.file(path).writer()
  for (let done = 0; done < bytes; done += pattern.length) {
    sink.write(pattern.subarray(0, Math.min(pattern.length, bytes - done)))
    await sink.flush()
  }
  await sink.end()
  return path
}

async function baseline(source: string, bytes: number) {
  const proc = Bun.spawn(
    [
      process.execPath,
      join(import.meta.dir, 'upload-baseline-server.ts'),
      join(work, 'baseline.out'),
    ],
    {
      stdout: 'pipe',
      stderr: 'inherit',
    },
  )
  const reader = proc.stdout.getReader()
  const port = Number(new TextDecoder().decode((await reader.read()).value).trim())
  const before = await status(proc.pid, 'VmRSS')
  const started = performance.now()
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'PUT', body: Bun.file(source) })
  const seconds = (performance.now() - started) / 1000
  if (res.status !== 204) throw new Error(`baseline PUT: ${res.status}`)
  const growth = (await status(proc.pid, 'VmHWM')) - before
  proc.kill()
  await proc.exited
  if (Bun.file(join(work, 'baseline.out')).size !== bytes)
    throw new Error('baseline: size mismatch')
  await rm(join(work, 'baseline.out'))
  return { mbps: bytes / MB / seconds, growth }
}

/** A running server, signed in and warmed up with one small upload, as a long-lived one is. */
async function tusServer(warmUpSource: string) {
  const server = await startServer()
  const token = (await server.apiLogin()).token
  const upload = (source: string) =>
    tusUpload(createReadStream(source), {
      endpoint: `${server.url}/uploads/`,
      token,
      kind: 'video',
      chunkSize: CHUNK,
    })
  const remove = (url: string) => tusRaw(server.url, token).remove(new URL(url).pathname)
  await remove((await upload(warmUpSource)).url)
  return { server, upload, remove, rssBefore: await server.rss() }
}

async function viaTus(tus: Awaited<ReturnType<typeof tusServer>>, source: string, bytes: number) {
  const started = performance.now()
  const { url } = await tus.upload(source)
  const seconds = (performance.now() - started) / 1000
  const growth = (await tus.server.peakRss()) - tus.rssBefore
  const stored = Bun.file(join(tus.server.dataDir, 'uploads', url.split('/').pop()!)).size
  if (stored !== bytes) throw new Error(`tus: stored ${stored} of ${bytes} bytes`)
  await tus.remove(url)
  return { mbps: bytes / MB / seconds, growth }
}

/** Writes back dirty pages first, so no run pays for the one before it. */
const settle = () => Bun.spawnSync(['sync'])
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
const ROUNDS = Number(process.env.UPLOAD_ROUNDS ?? 5)

console.log(
  `bench/upload (${new Date().toISOString()}, Bun ${Bun.version}, tus chunk ${CHUNK / 1048576} MiB, median of ${ROUNDS})`,
)
let ok = true
for (const gib of sizes) {
  const bytes = gib * GiB
  const source = await makeSource(bytes)
  const warmUp = await makeSource(64 * 1024 * 1024)
  const tusSide = await tusServer(warmUp)
  await rm(warmUp)
  const plain: Awaited<ReturnType<typeof baseline>>[] = []
  const tus: Awaited<ReturnType<typeof viaTus>>[] = []
  for (let round = 0; round < ROUNDS; round++) {
    settle()
    plain.push(await baseline(source, bytes))
    settle()
    tus.push(await viaTus(tusSide, source, bytes))
  }
  await tusSide.server.stop()
  await rm(source)
  const plainMbps = median(plain.map((r) => r.mbps))
  const tusMbps = median(tus.map((r) => r.mbps))
  const tusGrowth = Math.max(...tus.map((r) => r.growth))
  const plainGrowth = Math.max(...plain.map((r) => r.growth))
  const ratio = tusMbps / plainMbps
  const pass = ratio >= 0.85 && tusGrowth <= 100 * MB
  ok &&= pass
  const each = (runs: { mbps: number }[]) => runs.map((r) => r.mbps.toFixed(0)).join('/')
  console.log(
    [
      `${gib} GiB:`,
      `plain PUT ${plainMbps.toFixed(0)} MB/s (${each(plain)}; peak RSS +${(plainGrowth / MB).toFixed(0)} MB)`,
      `tus ${tusMbps.toFixed(0)} MB/s (${each(tus)}; peak RSS +${(tusGrowth / MB).toFixed(0)} MB)`,
      `ratio ${ratio.toFixed(2)}`,
      pass ? 'PASS' : 'MISS (targets: ratio >= 0.85, RSS <= +100 MB)',
    ].join('  '),
  )
}
await rm(work, { recursive: true, force: true })
process.exit(ok ? 0 : 1)
