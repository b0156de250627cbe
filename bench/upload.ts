// bench/upload: a 1 GiB (and 2 GiB) file through tus with tus-js-client (50 MiB chunks) against
// the real server, and the same bytes in one plain PUT to a bare Bun.serve writing them to disk.
// Prints both throughputs, their ratio, and each server's peak RSS growth (VmHWM).
// Targets: ratio >= 0.85, peak RSS growth <= 100 MB. `UPLOAD_SIZES_GIB=1,2` picks the sizes.
import { createReadStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../e2e/support/server.ts'
import { fixtures } from '../tests/fixtures/media.ts'
import { tusUpload } from '../tests/fixtures/tus.ts'

const GiB = 1024 ** 3
const MB = 1e6
// The dashboard's chunk size (web/src/app/lib/tus.ts); TUS_CHUNK_MB tries others.
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

async function viaTus(source: string, bytes: number) {
  const server = await startServer()
  try {
    const token = (await server.apiLogin()).token
    const before = await server.rss()
    const started = performance.now()
    const { url } = await tusUpload(createReadStream(source, { highWaterMark: 4 * 1024 * 1024 }), {
      endpoint: `${server.url}/uploads/`,
      token,
      kind: 'video',
      chunkSize: CHUNK,
    })
    const seconds = (performance.now() - started) / 1000
    const growth = (await server.peakRss()) - before
    const stored = Bun.file(join(server.dataDir, 'uploads', url.split('/').pop()!)).size
    if (stored !== bytes) throw new Error(`tus: stored ${stored} of ${bytes} bytes`)
    return { mbps: bytes / MB / seconds, growth }
  } finally {
    await server.stop()
  }
}

console.log(
  `bench/upload (${new Date().toISOString()}, Bun ${Bun.version}, tus chunk ${CHUNK / 1048576} MiB)`,
)
let ok = true
for (const gib of sizes) {
  const bytes = gib * GiB
  const source = await makeSource(bytes)
  const plain = await baseline(source, bytes)
  const tus = await viaTus(source, bytes)
  await rm(source)
  const ratio = tus.mbps / plain.mbps
  const pass = ratio >= 0.85 && tus.growth <= 100 * MB
  ok &&= pass
  console.log(
    [
      `${gib} GiB:`,
      `plain PUT ${plain.mbps.toFixed(0)} MB/s (peak RSS +${(plain.growth / MB).toFixed(0)} MB)`,
      `tus ${tus.mbps.toFixed(0)} MB/s (peak RSS +${(tus.growth / MB).toFixed(0)} MB)`,
      `ratio ${ratio.toFixed(2)}`,
      pass ? 'PASS' : 'MISS (targets: ratio >= 0.85, RSS <= +100 MB)',
    ].join('  '),
  )
}
await rm(work, { recursive: true, force: true })
process.exit(ok ? 0 : 1)
