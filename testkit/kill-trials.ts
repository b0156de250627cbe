// Kill trials shared by bench/kill-upload.ts and tests/uploads/killed-server.test.ts: the real server process is
// SIGKILLed (1) at a random point of a tus upload, then restarted on the same DATA_DIR while the
// client resumes, and (2) at a random moment of videos.create. Afterwards no byte is lost or
// corrupted, a create the kill stopped left its uploads usable (a new call with the same ids
// makes the video), and media files and rows agree (no orphan file, no half row).
// tests/videos/crash.test.ts kills at each named step instead of at random moments.
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fixtures } from './media.ts'
import { type E2EServer, startServer } from './server.ts'
import { tusRaw } from './tus.ts'

export type KillReport = {
  trials: number
  completed: number
  shaMismatches: number
  resentBytes: number[]
  createTrials: number
  createComplete: number
  createGone: number
  /** Creates the kill stopped whose uploads no longer worked afterwards (must be 0). */
  uploadsLost: number
  orphanFiles: string[]
  danglingRows: string[]
}

const sha = (b: Uint8Array) => new Bun.CryptoHasher('sha256').update(b).digest('hex')

/** One PATCH streaming `bytes` in 1 MiB pieces; `onSent` sees the running count. */
async function patch(
  server: E2EServer,
  token: string,
  path: string,
  offset: number,
  bytes: Uint8Array,
  onSent?: (n: number) => void,
) {
  let at = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close()
      const end = Math.min(bytes.length, at + 1024 * 1024)
      controller.enqueue(bytes.slice(at, end))
      at = end
      onSent?.(at)
    },
  })
  return tusRaw(server.url, token)
    .patch(path, offset, body)
    .then((r) => r.status)
    .catch(() => 0)
}

async function listMedia(server: E2EServer): Promise<string[]> {
  return (await readdir(join(server.dataDir, 'media')).catch(() => [] as string[])).filter(
    (n) => !n.startsWith('.'),
  )
}

type Video = {
  _id: string
  title: string
  videoUrl: string
  thumbnailUrl: string
  brandLogoUrl: string
}

async function allVideos(server: E2EServer, token: string): Promise<Video[]> {
  const res = await fetch(`${server.url}/api/videos?limit=100`, {
    headers: { authorization: `Bearer ${token}` },
  })
  return ((await res.json()) as { data: { videos: Video[] } }).data.videos
}

export async function runKillTrials(opts: {
  trials: number
  sizeMB: number
  createTrials: number
  log?: (s: string) => void
}): Promise<KillReport> {
  const log = opts.log ?? (() => {})
  const server = await startServer()
  let token = (await server.apiLogin()).token
  const source = new Uint8Array(opts.sizeMB * 1024 * 1024)
  for (let i = 0; i < source.length; i += 65536)
    crypto.getRandomValues(source.subarray(i, i + 65536))
  // A real MP4 head: a finished video upload is checked by its first bytes.
  source.set(await Bun.file((await fixtures()).mp4).bytes())
  const sourceSha = sha(source)
  const report: KillReport = {
    trials: opts.trials,
    completed: 0,
    shaMismatches: 0,
    resentBytes: [],
    createTrials: opts.createTrials,
    createComplete: 0,
    createGone: 0,
    uploadsLost: 0,
    orphanFiles: [],
    danglingRows: [],
  }
  try {
    for (let trial = 0; trial < opts.trials; trial++) {
      const created = await tusRaw(server.url, token).create(source.length, { kind: 'video' })
      if (created.status !== 201) throw new Error(`create: ${created.status}`)
      const path = created.headers.get('location')!
      const killAt = Math.floor(Math.random() * source.length)
      let sentBeforeKill = 0
      let killing: Promise<void> | undefined
      await patch(server, token, path, 0, source, (n) => {
        sentBeforeKill = n
        if (n >= killAt && !killing) killing = server.kill()
      })
      await killing
      await server.start()
      token = (await server.apiLogin()).token // sessions survive; a fresh one keeps the trial simple
      const head = await tusRaw(server.url, token).head(path)
      const offset = Number(head.headers.get('upload-offset'))
      if (head.status !== 200)
        throw new Error(`HEAD after restart: ${head.status} ${server.output.slice(-2000)}`)
      report.resentBytes.push(Math.max(0, sentBeforeKill - offset))
      const status = await patch(server, token, path, offset, source.subarray(offset))
      if (status === 204) report.completed++
      else
        log(
          `resume PATCH at ${offset}: status ${status}; uploads: ${(await readdir(join(server.dataDir, 'uploads'))).join(' ')}`,
        )
      const stored = await Bun.file(join(server.dataDir, 'uploads', path.split('/').pop()!)).bytes()
      if (sha(stored) !== sourceSha) report.shaMismatches++
      await tusRaw(server.url, token).remove(path)
      log(
        `upload trial ${trial + 1}: killed after ${(sentBeforeKill / 1048576).toFixed(1)} MiB sent, resumed at ${(offset / 1048576).toFixed(1)} MiB, ${status === 204 ? 'completed' : `status ${status}`}`,
      )
    }

    const f = await fixtures()
    const files = {
      video: await Bun.file(f.mp4).bytes(),
      thumbnail: await Bun.file(f.jpg).bytes(),
      brandLogo: await Bun.file(f.png).bytes(),
    }
    for (let trial = 0; trial < opts.createTrials; trial++) {
      const uploads: Record<string, string> = {}
      for (const [kind, bytes] of Object.entries(files)) {
        const c = await tusRaw(server.url, token).create(bytes.length, { kind })
        const p = c.headers.get('location')!
        await tusRaw(server.url, token).patch(p, 0, bytes)
        uploads[kind] = p.split('/').pop()!
      }
      const title = `Kill during create ${trial}`
      const create = () =>
        fetch(`${server.url}/trpc/videos.create`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title, description: 'x', uploads }),
        }).catch(() => null)
      const call = create()
      // videos.create takes tens of ms here: kill before, during or after it.
      await Bun.sleep(Math.random() * 150)
      await server.kill()
      await call
      await server.start()
      token = (await server.apiLogin()).token
      const found = (await allVideos(server, token)).find((v) => v.title === title)
      if (found) {
        const ok = await Promise.all(
          [found.videoUrl, found.thumbnailUrl, found.brandLogoUrl].map((u) =>
            fetch(`${server.url}${u}`, { method: 'HEAD' }).then((r) => r.status === 200),
          ),
        )
        if (ok.every(Boolean)) report.createComplete++
      } else {
        report.createGone++
        // Nothing was made, so what the admin uploaded must still make the video.
        const retry = await create()
        if (retry?.status !== 200) report.uploadsLost++
      }
      log(
        `create trial ${trial + 1}: ${found ? 'video complete' : 'nothing remains'}${report.uploadsLost ? ` (uploads lost so far: ${report.uploadsLost})` : ''}`,
      )
    }

    // Files and rows agree: every stored file belongs to a row and every row's files exist.
    const rows = await allVideos(server, token)
    const keys = new Set(
      rows.flatMap((v) =>
        [v.videoUrl, v.thumbnailUrl, v.brandLogoUrl].map((u) => u.split('/').pop()!),
      ),
    )
    // Stored files only: a stream folder is the processing's (a run still going has its growing
    // stream's), which the pipeline's own tests account for.
    const media = (await listMedia(server)).filter((n) => !/^[0-9a-f]{32}$/.test(n))
    report.orphanFiles = media.filter((n) => !keys.has(n))
    report.danglingRows = [...keys].filter((k) => !media.includes(k))
  } finally {
    await server.stop()
  }
  return report
}
