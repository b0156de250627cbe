// The media pipeline across processes, with the real server (`bun src/server.ts`) as a child:
// a SIGKILL in the middle of a transcode, `bun run worker` doing the work while the server's own
// worker is off, and `bun run media:reprocess` while the server runs. On the embedded database
// (workers reach it through the server's socket) or on TEST_DATABASE_URL's server.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  getVideo,
  makeClip,
  settled,
  uploadVideo,
  type VideoAnswer,
  watchVideo,
} from '../../testkit/pipeline.ts'
import { type E2EServer, startServer } from '../../testkit/server.ts'
import { testSkipIf } from '../../testkit/skip.ts'

const ROOT = join(import.meta.dir, '..', '..')
const onPostgres = !!process.env.TEST_DATABASE_URL

// Recovery from a killed worker takes the heartbeat plus a supervise pass, then the retry delay.
const FAST = {
  MEDIA_HEARTBEAT_SECONDS: '10',
  MEDIA_SUPERVISE_SECONDS: '2',
  MEDIA_POLL_SECONDS: '1',
  // The deploys below test a run ended mid-way and given back: none may finish on its own.
  MEDIA_STOP_FINISH_SECONDS: '0',
  // A growing stream goes with its run, not 30 s after it.
  MEDIA_GROWING_KEEP_SECONDS: '0',
  WEB_DIST: '/nonexistent',
}

let clips: string
beforeAll(async () => {
  clips = await mkdtemp(join(tmpdir(), 'pipeline-processes-'))
})
afterAll(() => rm(clips, { recursive: true, force: true }))

const fetchOn = (server: E2EServer) => (path: string, init?: RequestInit) =>
  fetch(`${server.url}${path}`, init)

const folderOf = (url: string) => /^\/media\/([0-9a-f]{32})\//.exec(url)?.[1] ?? ''
const derivedEntries = async (dataDir: string) =>
  (await readdir(join(dataDir, 'media'))).filter((n) => !n.includes('.') || n.startsWith('.'))

/**
 * The stream folders in the data folder once the run's growing stream is gone: its run removes
 * it just after the row says ready (at once here: MEDIA_GROWING_KEEP_SECONDS 0).
 */
async function foldersSettled(dataDir: string, final: string): Promise<string[]> {
  const deadline = Date.now() + 5_000
  let entries = await derivedEntries(dataDir)
  while (entries.some((e) => e !== final) && Date.now() < deadline) {
    await Bun.sleep(50)
    entries = await derivedEntries(dataDir)
  }
  return entries
}

const scratchJobs = async (dataDir: string) =>
  (await readdir(join(dataDir, 'tmp'))).filter((n) => n.startsWith('job-'))

/** Pids of the ffmpeg processes writing into this data folder (they run in a job's scratch). */
async function ffmpegsWriting(dataDir: string): Promise<number[]> {
  const partials = join(dataDir, 'tmp', 'job-')
  const pids: number[] = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => '')
    const isFfmpeg = cmdline.split('\0')[0]?.endsWith('ffmpeg')
    if (isFfmpeg && (cwd.startsWith(partials) || cmdline.includes(partials))) {
      pids.push(Number(entry))
    }
  }
  return pids
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(50)
  }
}

/** A process beside the server, with the server's data folder and database. */
function spawnBeside(server: Pick<E2EServer, 'dataDir' | 'databaseUrl'>, argv: string[]) {
  return Bun.spawn([process.execPath, ...argv], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: server.dataDir,
      DATABASE_URL: server.databaseUrl ?? '',
      MEDIA_POLL_SECONDS: '1',
      MEDIA_GROWING_KEEP_SECONDS: '0',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
}

async function outputOf(proc: ReturnType<typeof spawnBeside>) {
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout as ReadableStream).text(),
    new Response(proc.stderr as ReadableStream).text(),
  ])
  return { code, out, err }
}

describe('a server killed in the middle of a transcode', () => {
  let server: E2EServer
  afterAll(() => server?.stop())

  test('after the restart the job finishes and no partial output remains', async () => {
    server = await startServer(FAST)
    const fetch = fetchOn(server)
    const { token } = await server.apiLogin()
    const clip = await makeClip(clips, 'long.mp4', { seconds: 10, width: 640, height: 360 })
    const created = await uploadVideo(fetch, token, clip, 'Interrupted')
    const ffmpegs = await until('ffmpeg to run', async () => {
      const pids = await ffmpegsWriting(server.dataDir)
      return pids.length > 0 ? pids : undefined
    })
    expect((await getVideo(fetch, token, created._id)).status).toBe('processing')
    await server.kill()
    const killedAt = Date.now()
    // ffmpeg dies with its parent (setpriv --pdeathsig KILL), it does not run on unowned.
    await until(
      'ffmpeg to die with the server',
      async () => {
        const alive = ffmpegs.filter((pid) => Bun.spawnSync(['kill', '-0', String(pid)]).success)
        return alive.length === 0 ? true : undefined
      },
      5000,
    )
    expect((await scratchJobs(server.dataDir)).length).toBeGreaterThan(0)

    await server.start()
    const { video } = await watchVideo(fetch, token, created._id, settled, {
      timeoutMs: 60_000,
      everyMs: 200,
    })
    const recoveredMs = Date.now() - killedAt
    console.log(`[pipeline] ready ${(recoveredMs / 1000).toFixed(1)} s after the kill`)
    expect(video.status).toBe('ready')
    expect(video.duration).toBeCloseTo(10, 0)
    expect(await foldersSettled(server.dataDir, folderOf(video.hlsUrl!))).toEqual([
      folderOf(video.hlsUrl!),
    ])
    // The job's scratch goes when its attempt ends, just after the row says ready.
    const deadline = Date.now() + 5_000
    while ((await scratchJobs(server.dataDir)).length > 0 && Date.now() < deadline) {
      await Bun.sleep(50)
    }
    expect(await scratchJobs(server.dataDir)).toEqual([])
    const master = await fetch(video.hlsUrl!)
    expect(master.status).toBe(200)
    expect(await master.text()).toContain('#EXT-X-STREAM-INF')
  }, 120_000)
})

describe('a transcode interrupted by four deploys', () => {
  let server: E2EServer
  afterAll(() => server?.stop())

  // A deploy stops the server gracefully (SIGTERM) and starts the new one on the same data: the
  // job in hand must be given back or recovered each time, and the fifth run still ends ready.
  test('SIGTERM in the middle of the transcode, four times: the video still ends ready', async () => {
    server = await startServer(FAST)
    const fetch = fetchOn(server)
    const { token } = await server.apiLogin()
    const clip = await makeClip(clips, 'deploys.mp4', { seconds: 10, width: 640, height: 360 })
    const created = await uploadVideo(fetch, token, clip, 'Deployed four times')
    for (let deploy = 1; deploy <= 4; deploy++) {
      const state = await until(
        `ffmpeg to run before deploy ${deploy}`,
        async () => {
          if ((await ffmpegsWriting(server.dataDir)).length > 0) return 'transcoding'
          const now = await getVideo(fetch, token, created._id)
          return settled(now) ? `${now.status}: ${now.error}` : undefined
        },
        90_000,
      )
      expect(`deploy ${deploy}: ${state}`).toBe(`deploy ${deploy}: transcoding`)
      await server.restart()
    }
    const { video } = await watchVideo(fetch, token, created._id, settled, {
      timeoutMs: 120_000,
      everyMs: 250,
    })
    expect(video.status).toBe('ready')
    expect(video.error ?? null).toBeNull()
    expect(await foldersSettled(server.dataDir, folderOf(video.hlsUrl!))).toEqual([
      folderOf(video.hlsUrl!),
    ])
    const master = await fetch(video.hlsUrl!)
    expect(master.status).toBe(200)
    expect(await master.text()).toContain('#EXT-X-STREAM-INF')
  }, 480_000)
})

describe('a deploy while a short clip is processed', () => {
  let server: E2EServer
  afterAll(() => server?.stop())

  // A stop lets the runs in hand finish for MEDIA_STOP_FINISH_SECONDS before it gives them back:
  // a short clip's run ends before the process does, and the next start finds the work ready.
  test('SIGTERM mid-run: the run finishes before the exit; the work is ready at the next start', async () => {
    server = await startServer({ ...FAST, MEDIA_STOP_FINISH_SECONDS: '30' })
    const fetch = fetchOn(server)
    const { token } = await server.apiLogin()
    const clip = await makeClip(clips, 'short.mp4', { seconds: 2 })
    const created = await uploadVideo(fetch, token, clip, 'Deployed mid-run')
    const state = await until(
      'ffmpeg to run',
      async () => {
        if ((await ffmpegsWriting(server.dataDir)).length > 0) return 'transcoding'
        const now = await getVideo(fetch, token, created._id)
        return settled(now) ? `${now.status}: ${now.error}` : undefined
      },
      90_000,
    )
    expect(state).toBe('transcoding')
    await server.restart()
    const video = await getVideo(fetch, token, created._id)
    expect([video.status, video.error ?? null]).toEqual(['ready', null])
    expect(await foldersSettled(server.dataDir, folderOf(video.hlsUrl!))).toEqual([
      folderOf(video.hlsUrl!),
    ])
  }, 180_000)
})

describe('`bun run worker` beside a server whose own worker is off', () => {
  let server: E2EServer
  let worker: ReturnType<typeof spawnBeside> | undefined
  afterAll(async () => {
    worker?.kill('SIGKILL')
    await server?.stop()
  })

  test('the worker process takes the jobs; the server’s cached answers follow it', async () => {
    server = await startServer({ ...FAST, MEDIA_WORKERS: '0' })
    const fetch = fetchOn(server)
    const { token } = await server.apiLogin()
    const clip = await makeClip(clips, 'clip.mp4', { seconds: 3 })

    // With no worker anywhere, a video waits.
    const waiting = await uploadVideo(fetch, token, clip, 'Waiting')
    await Bun.sleep(2500)
    expect((await getVideo(fetch, token, waiting._id)).status).toBe('queued')

    worker = spawnBeside(server, ['run', '--silent', 'worker'])
    let said = ''
    const reader = (async () => {
      for await (const chunk of worker!.stdout as ReadableStream<Uint8Array>) {
        said += new TextDecoder().decode(chunk)
      }
    })()
    const where = onPostgres ? 'DATABASE_URL' : 'embedded database, through the server'
    await until('the worker to start', async () => (said.includes(where) ? true : undefined))

    // The job queued before the worker started is taken, and the server's cached public list
    // (an ETag'd answer kept until the videos change) shows it within about a second.
    const first = await watchVideo(fetch, token, waiting._id, settled, { everyMs: 100 })
    const readyAt = Date.now()
    expect(first.video.status).toBe('ready')
    const lagMs = await until('the cached public list to show ready', async () => {
      const res = await fetch('/api/public/videos')
      const body = (await res.json()) as { data: { videos: VideoAnswer[] } }
      const tile = body.data.videos.find((v) => v._id === waiting._id)
      return tile?.status === 'ready' ? Date.now() - readyAt : undefined
    })
    console.log(`[pipeline] cached public list followed the worker in ${lagMs} ms`)
    expect(lagMs).toBeLessThan(2500)

    // `media:reprocess` while the server runs: the same video again, into a new folder.
    const before = folderOf(first.video.hlsUrl!)
    const reprocess = await outputOf(
      spawnBeside(server, ['run', '--silent', 'media:reprocess', waiting._id]),
    )
    expect(reprocess.err).toBe('')
    expect(reprocess.code).toBe(0)
    expect(reprocess.out).toContain(`${waiting._id}  Waiting: queued`)
    const again = await watchVideo(
      fetch,
      token,
      waiting._id,
      (v) => v.status === 'ready' && folderOf(v.hlsUrl ?? '') !== before,
      { everyMs: 100 },
    )
    // The previous folder is removed once the new one is live (after the row says ready), and the
    // run's growing stream with its run, so either may still be there for a moment; then only the
    // new one is left.
    const kept = folderOf(again.video.hlsUrl!)
    const left = await until(
      'the previous streams folder to be removed',
      async () => {
        const entries = await derivedEntries(server.dataDir)
        return entries.length === 1 && entries[0] === kept ? entries : undefined
      },
      5_000,
    )
    expect(left).toEqual([kept])

    worker.kill('SIGTERM')
    expect(await worker.exited).toBe(0)
    await reader
    worker = undefined
  }, 120_000)

  testSkipIf(onPostgres && 'about the embedded database; this run is on PostgreSQL')(
    'on the embedded database, worker and reprocess need the server: one line says so',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'pipeline-no-server-'))
      try {
        for (const argv of [
          ['run', '--silent', 'worker'],
          ['run', '--silent', 'media:reprocess'],
        ]) {
          const run = await outputOf(spawnBeside({ dataDir, databaseUrl: undefined }, argv))
          expect(run.code).toBe(1)
          expect(run.err.trim()).toBe(
            'The embedded database is served by the server: start it first, or set DATABASE_URL',
          )
        }
        // Neither opened the data folder's database on its own.
        expect(await readdir(dataDir)).not.toContain('db')
      } finally {
        await rm(dataDir, { recursive: true, force: true })
      }
    },
    30_000,
  )
})
