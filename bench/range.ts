// bench/range: 16 parallel readers fetch a large stored video by HTTP Range (8 MiB requests) from
// the real server's /media path; every answer must be a 206 with the right Content-Range and
// length. Prints the aggregate throughput against 16 readers of the same file straight from disk.
import { join } from 'node:path'
import { fixtures } from '../testkit/media.ts'
import { multipartStream } from '../testkit/multipart-stream.ts'
import { startServer } from '../testkit/server.ts'

const READERS = 16
const PIECE = 8 * 1024 * 1024
const SIZE = Number(process.env.RANGE_SIZE_MB ?? 1024) * 1024 * 1024
const MB = 1e6

/** Splits [0, SIZE) among the readers; each walks its share in PIECE-sized ranges. */
async function readAll(read: (start: number, end: number) => Promise<number>) {
  const share = Math.ceil(SIZE / READERS)
  const started = performance.now()
  await Promise.all(
    Array.from({ length: READERS }, async (_, r) => {
      for (let at = r * share; at < Math.min(SIZE, (r + 1) * share); at += PIECE) {
        const end = Math.min(SIZE, (r + 1) * share, at + PIECE) - 1
        const got = await read(at, end)
        if (got !== end - at + 1) throw new Error(`range ${at}-${end}: ${got} bytes`)
      }
    }),
  )
  return SIZE / MB / ((performance.now() - started) / 1000)
}

const server = await startServer()
try {
  const token = (await server.apiLogin()).token
  const f = await fixtures()
  const { body, contentType, length } = multipartStream([
    { name: 'title', value: 'Range bench' },
    { name: 'video', filename: 'v.mp4', head: await Bun.file(f.mp4).bytes(), size: SIZE },
    { name: 'thumbnail', filename: 't.jpg', head: await Bun.file(f.jpg).bytes(), size: 4000 },
    { name: 'brandLogo', filename: 'l.png', head: await Bun.file(f.png).bytes(), size: 4000 },
  ])
  const created = await fetch(`${server.url}/api/videos/upload`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': contentType,
      'content-length': String(length),
    },
    body,
  })
  if (created.status !== 201) throw new Error(`upload: ${created.status} ${await created.text()}`)
  const { videoUrl } = ((await created.json()) as { data: { video: { videoUrl: string } } }).data
    .video
  const path = join(server.dataDir, videoUrl)
  let checked = 0

  const disk = await readAll(
    async (start, end) =>
      (
        await Bun.file(path)
          .slice(start, end + 1)
          .arrayBuffer()
      ).byteLength,
  )
  const http = await readAll(async (start, end) => {
    // As an admin: this file fails processing, and a failed video's master is theirs
    // (docs/decisions/059-a-master-for-admins-once-streams-exist-signed-links.md).
    const res = await fetch(`${server.url}${videoUrl}`, {
      headers: { Range: `bytes=${start}-${end}`, authorization: `Bearer ${token}` },
    })
    const body = new Uint8Array(await res.arrayBuffer())
    const bytes = body.byteLength
    // Content, not just length: every 8th answer is compared with the file itself.
    if (checked % 8 === 0) {
      const want = await Bun.file(path)
        .slice(start, end + 1)
        .bytes()
      if (Bun.hash(want) !== Bun.hash(body)) throw new Error(`range ${start}-${end}: wrong bytes`)
    }
    if (res.status !== 206) throw new Error(`expected 206, got ${res.status}`)
    if (res.headers.get('content-range') !== `bytes ${start}-${end}/${SIZE}`) {
      throw new Error(`bad Content-Range: ${res.headers.get('content-range')}`)
    }
    checked++
    return bytes
  })
  console.log(
    `bench/range (${new Date().toISOString()}, Bun ${Bun.version}, ${SIZE / 1048576} MiB file, ${READERS} readers, ${PIECE / 1048576} MiB ranges)`,
  )
  console.log(
    `disk ${disk.toFixed(0)} MB/s  HTTP Range ${http.toFixed(0)} MB/s  ratio ${(http / disk).toFixed(2)}  206 answers checked: ${checked}`,
  )
} finally {
  await server.stop()
}
