// A new upload's stream while it is processed (docs/media.md#growing-streams), on the real server
// with its own media worker: the admin's answer names a growing master within seconds of the
// upload's end, its playlists grow as EVENT playlists without an end, nothing of it is cached as
// immutable or given to a visitor, and once the work is ready the final folder replaces it (the
// growing one is gone, the final playlists are VOD as always).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeClip, settled, uploadVideo, watchVideo } from '../../testkit/pipeline.ts'
import { type E2EServer, startServer } from '../../testkit/server.ts'

type Growing = {
  hlsUrl: string
  rungs: string[]
  planned: string[]
  seconds: number
  duration: number | null
}

const KEEP_SECONDS = 4

/** Until `url` answers 404, within `withinMs`; how long that took. */
async function goneWithin(url: string, withinMs: number): Promise<number> {
  const started = Date.now()
  while ((await get(url)).status !== 404) {
    if (Date.now() - started > withinMs)
      throw new Error(`${url} still answers after ${withinMs} ms`)
    await Bun.sleep(100)
  }
  return Date.now() - started
}

let server: E2EServer
let clips: string
let clip: string
let token: string
/** The final media playlists of the uninterrupted run, by rung. */
const finalPlaylists = new Map<string, string>()
const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init)
const asAdmin = (path: string) => get(path, { headers: { authorization: `Bearer ${token}` } })

beforeAll(async () => {
  clips = await mkdtemp(join(tmpdir(), 'growing-'))
  // Long enough that the ladder is still being made when its start is published.
  ;[server, clip] = await Promise.all([
    startServer({
      WEB_DIST: '/nonexistent',
      MEDIA_POLL_SECONDS: '1',
      // A killed process's job comes back within seconds.
      MEDIA_HEARTBEAT_SECONDS: '10',
      MEDIA_SUPERVISE_SECONDS: '2',
      // Players on a growing stream get this long to move to the final one.
      MEDIA_GROWING_KEEP_SECONDS: String(KEEP_SECONDS),
    }),
    makeClip(clips, 'long.mp4', { seconds: 40, width: 854, height: 480 }),
  ])
  token = (await server.apiLogin()).token
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await rm(clips, { recursive: true, force: true })
})

/** The growing stream once the admin's answer names one (within 60 s of the upload). */
async function waitForGrowing(id: string): Promise<Growing> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const video = await growingOf(id)
    expect(video.status === 'queued' || video.status === 'processing').toBe(true)
    if (video.growing) return video.growing
    if (Date.now() > deadline) throw new Error('no growing stream within 60 s')
    await Bun.sleep(100)
  }
}

const growingOf = async (id: string) => {
  const answer = (await (await asAdmin(`/api/videos/${id}`)).json()) as {
    data: { video: { status: string; growing: Growing | null; hlsUrl: string | null } }
  }
  return answer.data.video
}

test('a growing stream plays while the work processes, never cached as immutable, and the final one replaces it', async () => {
  const created = await uploadVideo(get, token, clip, 'Growing')
  const uploadedAt = Date.now()

  const growing = await waitForGrowing(created._id)
  console.log(`[growing] playable ${((Date.now() - uploadedAt) / 1000).toFixed(1)} s after upload`)
  expect(growing.planned).toEqual(['360p', '480p'])
  expect(growing.rungs).toEqual(growing.planned)
  expect(growing.seconds).toBeGreaterThan(0)
  // What it grows to, known from the probe before any of it is made.
  expect(growing.duration).toBeCloseTo(40, 0)
  // Signed, as a hidden work's files are: the folder itself answers no visitor.
  expect(growing.hlsUrl).toMatch(/^\/media\/s\/\d+\/[\w-]{43}\/[0-9a-f]{32}\/master\.m3u8$/)
  const folder = /([0-9a-f]{32})\/master\.m3u8$/.exec(growing.hlsUrl)![1]!
  expect((await get(`/media/${folder}/master.m3u8`)).status).toBe(404)
  const publicList = (await (await get('/api/public/videos')).json()) as {
    data: { videos: { _id: string }[] }
  }
  expect(publicList.data.videos.map((v) => v._id)).not.toContain(created._id)

  const master = await get(growing.hlsUrl)
  expect(master.status).toBe(200)
  expect(master.headers.get('cache-control')).toBe('private, no-cache')
  const masterText = await master.text()
  expect(masterText.match(/#EXT-X-STREAM-INF/g)?.length).toBe(2)
  expect(masterText).toContain('#EXT-X-MEDIA:TYPE=AUDIO')

  const base = growing.hlsUrl.slice(0, growing.hlsUrl.lastIndexOf('/') + 1)
  const playlist = await get(`${base}360p/index.m3u8`)
  expect(playlist.headers.get('cache-control')).toBe('private, no-cache')
  const first = await playlist.text()
  expect(first).toContain('#EXT-X-PLAYLIST-TYPE:EVENT')
  expect(first).not.toContain('#EXT-X-ENDLIST')
  const segments = first.split('\n').filter((line) => line.startsWith('seg_'))
  expect(segments.length).toBeGreaterThan(0)
  for (const path of ['360p/init.mp4', `360p/${segments[0]}`, 'audio/init.mp4']) {
    const res = await get(`${base}${path}`)
    expect(`${path} ${res.status} ${res.headers.get('cache-control')}`).toBe(
      `${path} 200 private, no-cache`,
    )
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0)
  }
  const audio = await (await get(`${base}audio/index.m3u8`)).text()
  expect(audio).toContain('#EXT-X-PLAYLIST-TYPE:EVENT')
  expect(audio).toMatch(/\nseg_000\.m4s\n/)

  // It grows: a later look lists more of the stream, and what was listed stays as it was.
  let later = first
  const growBy = Date.now() + 30_000
  while (later === first && Date.now() < growBy) {
    await Bun.sleep(250)
    const res = await get(`${base}360p/index.m3u8`)
    if (res.status !== 200) break // the run finished meanwhile
    later = await res.text()
  }
  if (later !== first) expect(later.startsWith(first.trimEnd())).toBe(true)

  const { video } = await watchVideo(get, token, created._id, settled, {
    timeoutMs: 180_000,
    everyMs: 250,
  })
  expect(video.status).toBe('ready')
  const after = await growingOf(created._id)
  expect(after.growing).toBeNull()
  // A player still on the growing stream finds it for a few seconds more (it moves to the final
  // streams at its next look at the work); then it is gone.
  expect((await get(growing.hlsUrl)).status).toBe(200)
  await goneWithin(growing.hlsUrl, (KEEP_SECONDS + 10) * 1000)
  // The final streams are as they always were.
  const final = await get(after.hlsUrl!.replace('master.m3u8', '360p/index.m3u8'))
  const finalText = await final.text()
  expect(finalText).toContain('#EXT-X-PLAYLIST-TYPE:VOD')
  expect(finalText).toContain('#EXT-X-ENDLIST')
  const segment = finalText.split('\n').find((line) => line.startsWith('seg_'))!
  const finalSegment = await get(after.hlsUrl!.replace('master.m3u8', `360p/${segment}`))
  expect(finalSegment.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  for (const rung of ['360p', '480p', 'audio']) {
    const res = await get(after.hlsUrl!.replace('master.m3u8', `${rung}/index.m3u8`))
    finalPlaylists.set(rung, await res.text())
  }
}, 300_000)

test('a server killed (SIGKILL) while the stream grows: the next attempt removes it and ends with the same final streams', async () => {
  expect(finalPlaylists.size).toBe(3)
  const created = await uploadVideo(get, token, clip, 'Growing, then killed')
  const growing = await waitForGrowing(created._id)
  await server.kill()
  await server.start()

  const { video } = await watchVideo(get, token, created._id, settled, {
    timeoutMs: 180_000,
    everyMs: 250,
  })
  expect(video.status).toBe('ready')
  expect((await growingOf(created._id)).growing).toBeNull()
  // The killed attempt's stream is gone (the next attempt removed it), not left for a day.
  expect((await get(growing.hlsUrl)).status).toBe(404)
  expect((await get(growing.hlsUrl.replace('master.m3u8', '360p/init.mp4'))).status).toBe(404)
  for (const [rung, text] of finalPlaylists) {
    const res = await get(video.hlsUrl!.replace('master.m3u8', `${rung}/index.m3u8`))
    expect(`${rung}:\n${await res.text()}`).toBe(`${rung}:\n${text}`)
  }
}, 300_000)

test('a server stopped before a ready work’s growing stream was removed: housekeeping removes it at the next start', async () => {
  const created = await uploadVideo(get, token, clip, 'Growing, then stopped')
  const growing = await waitForGrowing(created._id)
  await watchVideo(get, token, created._id, settled, { timeoutMs: 180_000, everyMs: 250 })
  // Stopped within the few seconds the stream stays: its removal was still to come.
  await server.restart()
  const left = await goneWithin(growing.hlsUrl, (KEEP_SECONDS + 10) * 1000)
  console.log(`[growing] the stopped server's stream gone ${left} ms after the restart`)
  expect((await growingOf(created._id)).growing).toBeNull()
}, 300_000)
