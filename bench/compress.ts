// bench/compress: what compression saves on the wire and costs the server. For 100 and 500
// published videos: the bytes of `GET /api/public/videos` as identity, brotli and gzip, and wrk's
// req/s for each (cached answers: encoded once, so a hit should cost the same in any coding);
// the same for the admins' 100-a-page list, which is encoded per request; and what each brotli
// quality and gzip level takes on the public answer, the figures behind src/http/compress.ts.
// Rows are written straight into the database (server stopped), so no media are processed.
import { request } from 'node:http'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { videos } from '../db/schema.ts'
import { openDatabase } from '../src/db/database.ts'
import { createTestDatabase } from '../testkit/database.ts'
import { startServer } from '../testkit/server.ts'
import { ensureWrk, wrk } from './wrk.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const SIZES = (process.env.COMPRESS_SIZES ?? '100,500').split(',').map(Number)
ensureWrk()

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
console.log(`bench/compress — ${new Date().toISOString()}, load average ${load()}`)

const db = await createTestDatabase()
const env = { DATA_DIR: db.dataDir, ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}) }
const server = await startServer(env)
const where = db.databaseUrl ? 'PostgreSQL' : 'embedded database'

const BRANDS = ['STRIDE', 'Lumen', 'HARVEST', 'Tidal', 'NORTHWIND', 'Atlas', 'KITE', 'Ember']
const TITLES = ['Night Run', 'First Light', 'The Long Table', 'Open Water', 'Signal', 'Overtime']
const hex = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
// Descriptions of 0–60 words of prose (the project's README and decision records), as admins
// write them.
const PROSE = [
  'README.md',
  ...new Bun.Glob('docs/decisions/*.md').scanSync({ cwd: join(import.meta.dir, '..') }),
]
const WORDS = (
  await Promise.all(PROSE.sort().map((p) => Bun.file(join(import.meta.dir, '..', p)).text()))
)
  .join('\n')
  .split(/\s+/)
  .filter((w) => /^[A-Za-z,.'’-]+$/.test(w))
const prose = (i: number) => {
  const length = (i * 37) % 61
  const start = (i * 7919) % (WORDS.length - length)
  return WORDS.slice(start, start + length).join(' ')
}

/** Adds rows until there are `total` videos; the server is stopped meanwhile (one owner of DATA_DIR). */
async function growTo(total: number, have: number): Promise<void> {
  await server.terminate()
  const database = await openDatabase({ databaseUrl: db.databaseUrl, dataDir: db.dataDir })
  const rows = Array.from({ length: total - have }, (_, k) => {
    const i = have + k
    const brand = BRANDS[i % BRANDS.length]!
    return {
      title: `${TITLES[i % TITLES.length]} ${i + 1}`,
      description: `${brand} — ${prose(i)}`.trim(),
      videoKey: `${hex()}.mp4`,
      videoType: 'video/mp4',
      videoSize: 1_000_000 + i,
      thumbnailKey: `${hex()}.jpg`,
      thumbnailType: 'image/jpeg',
      thumbnailSize: 40_000 + i,
      brandLogoKey: `${hex()}.png`,
      brandLogoType: 'image/png',
      brandLogoSize: 4_000 + i,
      createdAt: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000),
      slug: `work-${i}`,
      // Visitors see a work once its streams exist
      // (docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md); the list reads no file.
      status: 'ready' as const,
      streamsKey: hex(),
    }
  })
  for (let i = 0; i < rows.length; i += 200) {
    await database.db.insert(videos).values(rows.slice(i, i + 200))
  }
  await database.close()
  await server.start()
}

/** The body as it crossed the wire: node:http asks for exactly `accept` and decodes nothing. */
function wireBytes(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers }, (res) => {
      let n = 0
      res.on('data', (c: Buffer) => {
        n += c.byteLength
      })
      res.on('end', () => resolve(n))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

function median(runs: number, f: () => void): number {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    f()
    times.push(performance.now() - t)
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!
}

const CODINGS = { identity: 'identity', br: 'br', gzip: 'gzip' } as const
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

async function measure(name: string, path: string, headers: Record<string, string> = {}) {
  console.log(`\n${name}`)
  console.log('coding     body on the wire   req/s   p50 ms   p99 ms   bytes/answer (wrk)  errors')
  for (const [label, accept] of Object.entries(CODINGS)) {
    const h = { ...headers, 'Accept-Encoding': accept }
    const bytes = await wireBytes(path, h)
    const url = `${server.url}${path}`
    await wrk(url, { connections: 16, seconds: 2, threads: 1, headers: h })
    const r = await wrk(url, { connections: 64, seconds: SECONDS, threads: 1, headers: h })
    console.log(
      `${label.padEnd(10)} ${kb(bytes).padStart(16)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${kb(r.bytesPerSec / r.rps).padStart(20)} ${String(r.errors).padStart(7)}`,
    )
  }
}

function codecTable(body: Uint8Array) {
  console.log(`\ncodec cost on this ${kb(body.byteLength)} answer (median, main thread)`)
  const br = (q: number) => () =>
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: q,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    })
  const gz = (level: number) => () => gzipSync(body, { level })
  const rows: [string, () => Uint8Array, number][] = [
    ['brotli q1', br(1), 9],
    ['brotli q2', br(2), 9],
    ['brotli q3', br(3), 9],
    ['brotli q4', br(4), 9],
    ['brotli q5', br(5), 9],
    ['brotli q6', br(6), 9],
    ['brotli q9', br(9), 5],
    ['brotli q11', br(11), 3],
    ['gzip 1', gz(1), 9],
    ['gzip 6', gz(6), 9],
    ['gzip 9', gz(9), 5],
  ]
  for (const [name, f, runs] of rows) {
    const size = f().byteLength
    console.log(
      `${name.padEnd(11)} ${kb(size).padStart(9)}  ${median(runs, f).toFixed(2).padStart(7)} ms`,
    )
  }
}

let have = 0
for (const n of SIZES) {
  await growTo(n, have)
  have = n
  const { token } = await server.apiLogin()
  console.log(`\n=== ${n} videos (${where}) ===`)
  await measure(`GET /api/public/videos (cached answer)`, '/api/public/videos')
  await measure(
    'GET /api/videos?limit=100 (admin page, encoded per request)',
    '/api/videos?page=1&limit=100',
    { Authorization: `Bearer ${token}` },
  )
  const plain = await fetch(`${server.url}/api/public/videos`, {
    headers: { 'Accept-Encoding': 'identity' },
  })
  const identity = await plain.bytes()
  codecTable(identity)
}
console.log(`\nload average at the end ${load()}`)
await server.stop()
await db.drop()
