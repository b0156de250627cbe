// The media pipeline in the server process (its own worker), on the embedded database or on
// TEST_DATABASE_URL's server, with real ffmpeg on clips of a few seconds: what an admin and a
// visitor see through the API, and what is left on disk.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { type Job, type JobWithMetadata, PgBoss } from 'pg-boss'
import { retryNotFailed } from '../../src/contract/video.ts'
import { deadLetterReason, markDeadLettered } from '../../src/processing/jobs/dead-letter.ts'
import { processVideoJob } from '../../src/processing/jobs/process-video.ts'
import { MEDIA_FAILED_QUEUE } from '../../src/processing/queue.ts'
import { mediaStore } from '../../src/storage/store.ts'
import type { ProcessVideoPayload } from '../../src/videos/job.ts'
import {
  getVideo,
  makeAudioOnly,
  makeClip,
  settled,
  uploadVideo,
  type VideoAnswer,
  watchVideo,
} from '../../testkit/pipeline.ts'
import { testSkipIf } from '../../testkit/skip.ts'
import { diskOnly, startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
let token: string
let clips: string
let clip: string
const fetch = (path: string, init?: RequestInit) => t.fetch(path, init)

beforeAll(async () => {
  t = await startTestApp({ MEDIA_WORKERS: '1', MEDIA_POLL_SECONDS: '1' })
  token = await t.login()
  clips = await mkdtemp(join(tmpdir(), 'pipeline-clips-'))
  clip = await makeClip(clips, 'clip.mp4', { seconds: 4, width: 640, height: 360 })
}, 60_000)
afterAll(async () => {
  await t.stop()
  await rm(clips, { recursive: true, force: true })
})

const mediaDir = () => join(t.dataDir, 'media')
const folderOf = (url: string) => /^\/media\/([0-9a-f]{32})\//.exec(url)?.[1] ?? ''
/** The run folders the store holds (on disk also anything dotted left in the media folder). */
const derivedEntries = async () => {
  const folders = new Set(
    (await t.storedKeys()).filter((k) => k.startsWith('streams/')).map((k) => k.split('/')[1]!),
  )
  if (t.engine === 'disk') {
    for (const name of await readdir(mediaDir())) if (name.startsWith('.')) folders.add(name)
  }
  return [...folders].sort()
}

async function run(argv: string[]) {
  const proc = Bun.spawn(argv, { stdout: 'pipe', stderr: 'pipe' })
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ])
  return { code, out, err }
}

/** The URIs a playlist names, in order (init segments from EXT-X-MAP, then the media lines). */
function urisOf(playlist: string): { init: string | undefined; uris: string[] } {
  const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(playlist)?.[1]
  const uris = playlist.split('\n').filter((line) => line && !line.startsWith('#'))
  return { init, uris }
}

async function fetchOk(url: string, type: string) {
  const res = await t.fetch(url)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe(type)
  return res
}

describe('processing in the server process', () => {
  let ready: VideoAnswer

  test('a created video goes queued → processing → ready, with a master that plays', async () => {
    const created = await uploadVideo(fetch, token, clip, 'Night Run')
    expect(created).toMatchObject({ status: 'queued', progress: 0, hlsUrl: null, error: null })
    const { video, seen } = await watchVideo(fetch, token, created._id, settled)
    ready = video
    // The Manage page polls these: processing (with its progress) before ready.
    expect(seen.at(-1)).toBe('ready:100')
    expect(seen.some((s) => s.startsWith('processing:'))).toBe(true)
    expect(video).toMatchObject({ status: 'ready', progress: 100, width: 640, height: 360 })
    expect(video.duration).toBeCloseTo(4, 0)
    expect(video.error).toBeNull()
    const folder = folderOf(video.hlsUrl ?? '')
    expect(video.hlsUrl).toBe(`/media/${folder}/master.m3u8`)
    expect(video.mp4Url).toBe(`/media/${folder}/video.mp4`)
    expect(video.previewUrl).toBe(`/media/${folder}/preview.mp4`)
    // Admins keep the master; "Updated" is the last edit, not the last progress write.
    expect(video.videoUrl).toBe(created.videoUrl)
    expect(video.updatedAt).toBe(created.updatedAt)

    const master = await fetchOk(video.hlsUrl!, 'application/vnd.apple.mpegurl')
    expect(master.headers.get('cache-control')).toBe('public, max-age=60')
    const text = await master.text()
    const audio = /#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="([^"]+)".*URI="([^"]+)"/.exec(text)
    expect(audio).not.toBeNull()
    const [, group, audioUri] = audio!
    const variants = [...text.matchAll(/#EXT-X-STREAM-INF:([^\n]+)\n([^\n]+)/g)]
    expect(variants.length).toBeGreaterThan(0)
    for (const [, attributes, uri] of variants) {
      expect(attributes).toContain(`AUDIO="${group}"`)
      // Never above the source: 640×360 in, nothing larger out.
      const [w, h] = (/RESOLUTION=(\d+)x(\d+)/.exec(attributes!) ?? []).slice(1).map(Number)
      expect(w).toBeLessThanOrEqual(640)
      expect(h).toBeLessThanOrEqual(360)
      expect(uri).toMatch(/^\d{2,4}p\/index\.m3u8$/)
    }
    // Every playlist, init and segment is served with its type.
    for (const uri of [...variants.map((v) => v[2]!), audioUri!]) {
      const base = `/media/${folder}/${uri.slice(0, uri.lastIndexOf('/') + 1)}`
      const playlist = await (
        await fetchOk(`/media/${folder}/${uri}`, 'application/vnd.apple.mpegurl')
      ).text()
      const { init, uris } = urisOf(playlist)
      expect(init).toBeDefined()
      const initRes = await fetchOk(`${base}${init}`, 'video/mp4')
      expect(initRes.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(uris.length).toBeGreaterThan(0)
      for (const segment of uris) {
        const res = await fetchOk(`${base}${segment}`, 'video/iso.segment')
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      }
    }
    // The segments decode: the whole lowest rung with the audio rendition, as a player would,
    // from the files as stored (copied out of the store, whichever engine holds them).
    const onDisk = join(clips, `stored-${folder}`)
    for (const key of await t.storedKeys()) {
      if (!key.startsWith(`streams/${folder}/`)) continue
      const stored = await t.storage.read(key)
      await Bun.write(
        join(onDisk, key.slice(`streams/${folder}/`.length)),
        new Response(stored!.body),
      )
    }
    const decode = await run([
      ...['ffmpeg', '-v', 'error', '-i', join(onDisk, 'master.m3u8')],
      ...['-map', '0:v:0', '-map', '0:a:0', '-f', 'null', '-'],
    ])
    expect(decode.err).toBe('')
    expect(decode.code).toBe(0)
    // The MP4 has picture and sound; the preview is short, silent and small.
    const probe = async (file: string) =>
      JSON.parse(
        (
          await run([
            ...['ffprobe', '-v', 'error', '-print_format', 'json'],
            ...['-show_format', '-show_streams', join(onDisk, file)],
          ])
        ).out,
      ) as {
        format: { duration: string; size: string }
        streams: { codec_type: string; width?: number }[]
      }
    const mp4 = await probe('video.mp4')
    expect(mp4.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video'])
    expect(Number(mp4.format.duration)).toBeCloseTo(4, 0)
    const preview = await probe('preview.mp4')
    expect(preview.streams.map((s) => s.codec_type)).toEqual(['video'])
    expect(preview.streams[0]!.width).toBeLessThanOrEqual(480)
    expect(Number(preview.format.duration)).toBeLessThanOrEqual(4.1)
    expect(Number(preview.format.size)).toBeLessThanOrEqual(500_000)
    expect(await derivedEntries()).toEqual([folder])
  }, 120_000)

  test('visitors get the MP4 once streams exist, never the master', async () => {
    const master = ready.videoUrl.slice('/media/'.length)
    const rest = await t.call('GET', '/api/public/videos')
    const [video] = rest.json.data.videos
    expect(video).toMatchObject({
      _id: ready._id,
      status: 'ready',
      videoUrl: ready.mp4Url,
      hlsUrl: ready.hlsUrl,
      mp4Url: ready.mp4Url,
      previewUrl: ready.previewUrl,
      width: 640,
      height: 360,
    })
    expect(JSON.stringify(rest.json)).not.toContain(master)
    const trpc = await t.fetch('/trpc/videos.publicList')
    const body = await trpc.text()
    expect(body).toContain(ready.hlsUrl!)
    expect(body).not.toContain(master)
  })

  test('a job delivered again for a file already processed leaves the work as it is', async () => {
    // As a stop or a lost heartbeat can leave it: the row was written ready, the job not yet
    // completed, so pg-boss runs it again.
    const [row] = await t.app.database.db.execute<{ key: string }>(
      sql`select video_key as key from videos where id = ${ready._id}`,
    )
    const handle = processVideoJob({ db: t.app.database.db, store: t.app.services.media })
    await handle({
      id: crypto.randomUUID(),
      data: { videoId: ready._id, sourceKey: row!.key },
      signal: new AbortController().signal,
    } as Job<ProcessVideoPayload>)
    const after = await getVideo(fetch, token, ready._id)
    expect(after).toMatchObject({ status: 'ready', progress: 100, hlsUrl: ready.hlsUrl })
    const shown = (await t.call('GET', '/api/public/videos')).json.data.videos
    expect(shown.map((v: VideoAnswer) => v._id)).toContain(ready._id)
  })

  test('a file that sniffs as video but has no video stream fails with a reason; Retry re-queues it', async () => {
    const sound = await makeAudioOnly(clips)
    const created = await uploadVideo(fetch, token, sound, 'Only Sound')
    expect(created.status).toBe('queued')
    const { video } = await watchVideo(fetch, token, created._id, settled)
    expect(video.status).toBe('failed')
    expect(video.error).toMatch(/no video stream/i)
    expect(video).toMatchObject({ hlsUrl: null, mp4Url: null, previewUrl: null })
    // Visitors never see a failed video (tests/media/masters.test.ts has every public answer).
    const pub = await t.call('GET', '/api/public/videos')
    expect(pub.json.data.videos.map((v: { _id: string }) => v._id)).not.toContain(video._id)

    const retried = await t.call('POST', `/api/videos/${video._id}/retry`, { token })
    expect(retried.status).toBe(200)
    expect(retried.json.data.video).toMatchObject({
      _id: video._id,
      status: 'queued',
      progress: 0,
      error: null,
    })
    // It really ran again: processing, then the same reason.
    const again = await watchVideo(fetch, token, video._id, settled)
    expect(again.video.status).toBe('failed')
    expect(again.video.error).toMatch(/no video stream/i)

    // Retry is for failed videos only; unknown ids and anonymous callers as everywhere else.
    const notFailed = await t.call('POST', `/api/videos/${ready._id}/retry`, { token })
    expect(notFailed).toMatchObject({ status: 409, json: { message: retryNotFailed } })
    const unknown = await t.call('POST', `/api/videos/${crypto.randomUUID()}/retry`, { token })
    expect(unknown.status).toBe(404)
    expect((await t.call('POST', `/api/videos/${video._id}/retry`)).status).toBe(401)
    expect((await getVideo(fetch, token, ready._id)).status).toBe('ready')
    await t.call('DELETE', `/api/videos/${video._id}`, { token })
    expect(await derivedEntries()).toEqual([folderOf(ready.hlsUrl!)])
  }, 120_000)

  test('replacing the video file removes its streams and makes new ones; deleting removes them all', async () => {
    const old = folderOf(ready.hlsUrl!)
    const small = await makeClip(clips, 'small.mp4', { seconds: 2, width: 320, height: 180 })
    const body = new FormData()
    body.append('video', Bun.file(small), 'new-master.mp4')
    const put = await t.fetch(`/api/videos/${ready._id}/video`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
      body,
    })
    expect(put.status).toBe(200)
    const replaced = ((await put.json()) as { data: { video: VideoAnswer } }).data.video
    // Nothing of the old file describes the new one.
    expect(replaced).toMatchObject({
      status: 'queued',
      progress: 0,
      duration: null,
      width: null,
      height: null,
      hlsUrl: null,
      mp4Url: null,
      previewUrl: null,
    })
    expect(await t.storedNames()).not.toContain(old)
    const { video } = await watchVideo(fetch, token, ready._id, settled)
    expect(video).toMatchObject({ status: 'ready', width: 320, height: 180 })
    const fresh = folderOf(video.hlsUrl!)
    expect(fresh).not.toBe(old)
    expect(await derivedEntries()).toEqual([fresh])

    const gone = await t.call('DELETE', `/api/videos/${ready._id}`, { token })
    expect(gone.status).toBe(200)
    expect(await derivedEntries()).toEqual([])
    expect((await t.fetch(video.hlsUrl!)).status).toBe(404)
  }, 120_000)

  test('a job that used every attempt is dead-lettered: the video fails with a reason', async () => {
    const created = await uploadVideo(fetch, token, clip, 'Gave Up')
    const { video } = await watchVideo(fetch, token, created._id, settled)
    // As a job killed on its last attempt leaves it: processing, partial outputs on disk.
    await t.app.database.db.execute(
      sql`update videos set status = 'processing' where id = ${video._id}`,
    )
    const [row] = await t.app.database.db.execute<{ key: string }>(
      sql`select video_key as key from videos where id = ${video._id}`,
    )
    // pg-boss moves such a job to media-failed with its data; the server's worker takes it.
    const boss = new PgBoss({
      ...t.app.database.poolTarget,
      max: 1,
      supervise: false,
      schedule: false,
    })
    await boss.start()
    try {
      await boss.send(MEDIA_FAILED_QUEUE, { videoId: video._id, sourceKey: row!.key })
    } finally {
      await boss.stop()
    }
    const failed = await watchVideo(fetch, token, video._id, (v) => v.status === 'failed', {
      everyMs: 200,
    })
    expect(failed.video.error).toBe(
      'Processing did not finish after 1 attempt: the worker stopped or stopped responding. Retry to try again.',
    )

    // A job dead-lettered after three attempts: its last error (without the stack) and its
    // partial outputs, which no retry will clear now.
    await t.app.database.db.execute(
      sql`update videos set status = 'processing' where id = ${video._id}`,
    )
    const sourceId = crypto.randomUUID()
    const partial = join(t.dataDir, 'tmp', `job-${sourceId}`, 'out')
    await Bun.write(join(partial, '360p', 'seg_000.m4s'), 'half')
    const lastOutput = {
      message: 'ffmpeg exited with code 1: Conversion failed!',
      stack: 'Error: …\n    at run',
    }
    await markDeadLettered(
      { db: t.app.database.db, store: t.app.services.media },
      {
        data: { videoId: video._id, sourceKey: row!.key },
        sourceId,
        sourceRetryCount: 2,
      } as JobWithMetadata<ProcessVideoPayload>,
      async (id) => (id === sourceId ? { output: lastOutput, retryCount: 2 } : undefined),
    )
    expect(await Bun.file(join(partial, '360p', 'seg_000.m4s')).exists()).toBe(false)
    expect((await getVideo(fetch, token, video._id)).error).toBe(
      'Processing failed after 3 attempts. Last error: ffmpeg exited with code 1: Conversion failed!',
    )
    expect(deadLetterReason(3, { value: { message: 'job heartbeat timeout' } })).toBe(
      'Processing did not finish after 3 attempts: the worker stopped or stopped responding. Retry to try again.',
    )
    // A video Retried or replaced since has its own job: a late dead letter leaves it alone.
    await t.app.database.db.execute(sql`update videos set status = 'ready' where id = ${video._id}`)
    await markDeadLettered(
      { db: t.app.database.db, store: t.app.services.media },
      { data: { videoId: video._id, sourceKey: row!.key } } as JobWithMetadata<ProcessVideoPayload>,
      async () => undefined,
    )
    expect((await getVideo(fetch, token, video._id)).status).toBe('ready')
    await t.call('DELETE', `/api/videos/${video._id}`, { token })
  }, 120_000)

  testSkipIf(diskOnly('the disk engine with its local paths withheld'))(
    'an engine without local files: the master is fetched to scratch, the outputs stored',
    async () => {
      const created = await uploadVideo(fetch, token, clip, 'Fetched First')
      const { video } = await watchVideo(fetch, token, created._id, settled)
      expect(video.status).toBe('ready')
      const [row] = await t.app.database.db.execute<{ key: string }>(
        sql`select video_key as key from videos where id = ${video._id}`,
      )
      // The disk engine with its local paths withheld reads and writes as an object store does.
      const disk = t.app.services.media.storage
      const store = mediaStore(t.dataDir, { ...disk, localPath: () => undefined })
      const jobId = crypto.randomUUID()
      const scratchSeen: string[][] = []
      // Queued again, as `media:reprocess` leaves it before its job runs.
      await t.app.database.db.execute(
        sql`update videos set status = 'queued' where id = ${video._id}`,
      )
      const handle = processVideoJob({ db: t.app.database.db, store })
      const watching = setInterval(async () => {
        const entries = await readdir(join(t.dataDir, 'tmp', `job-${jobId}`)).catch(() => [])
        if (entries.length > 0) scratchSeen.push(entries)
      }, 20)
      try {
        await handle({
          id: jobId,
          data: { videoId: video._id, sourceKey: row!.key },
          signal: new AbortController().signal,
        } as Job<ProcessVideoPayload>)
      } finally {
        clearInterval(watching)
      }
      // The master was fetched beside the outputs, and nothing is left of the run's scratch.
      expect(scratchSeen.some((entries) => entries.includes(row!.key))).toBe(true)
      expect(await readdir(join(t.dataDir, 'tmp'))).not.toContain(`job-${jobId}`)
      const again = await getVideo(fetch, token, video._id)
      expect(again.status).toBe('ready')
      expect(folderOf(again.hlsUrl!)).not.toBe(folderOf(video.hlsUrl!))
      expect(await derivedEntries()).not.toContain(folderOf(video.hlsUrl!))
      const master = await fetchOk(again.hlsUrl!, 'application/vnd.apple.mpegurl')
      const { uris } = urisOf(await master.text())
      expect(uris.length).toBeGreaterThan(0)
      for (const uri of uris) {
        const base = again.hlsUrl!.slice(0, again.hlsUrl!.lastIndexOf('/') + 1)
        expect((await t.fetch(`${base}${uri}`)).status).toBe(200)
      }
      await t.call('DELETE', `/api/videos/${video._id}`, { token })
    },
    120_000,
  )

  testSkipIf(
    diskOnly('a stray folder is swept at once; on s3 the sweep keeps keys younger than a day'),
  )(
    'start-up removes streams folders no row names and partial outputs of finished jobs',
    async () => {
      const created = await uploadVideo(fetch, token, clip, 'Kept')
      const { video } = await watchVideo(fetch, token, created._id, settled)
      const kept = folderOf(video.hlsUrl!)
      const orphan = join(mediaDir(), 'f'.repeat(32))
      const partial = join(t.dataDir, 'tmp', `job-${crypto.randomUUID()}`, 'out')
      for (const dir of [orphan, partial])
        await Bun.write(join(dir, '360p', 'index.m3u8'), '#EXTM3U\n')
      await t.restart()
      expect(await derivedEntries()).toEqual([kept])
      expect(await readdir(join(t.dataDir, 'tmp'))).toEqual([])
      expect((await fetchOk(video.hlsUrl!, 'application/vnd.apple.mpegurl')).status).toBe(200)
    },
    120_000,
  )
})
