// A second version through the server's own worker (real ffmpeg): it is processed while the
// first keeps playing, then becomes current with its own streams, duration and loudness; the
// first keeps its own and can be made current again; a version whose master cannot be read fails
// on its own row, and the work plays on.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getVideo, makeClip, settled, uploadVideo, watchVideo } from '../../testkit/pipeline.ts'
import { pollUntil } from '../../testkit/poll.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { bytesOf, fixtures, tusVia } from '../../testkit/videos.ts'

let t: TestApp
let token: string
let clips: string
const fetch = (path: string, init?: RequestInit) => t.fetch(path, init)

type Version = {
  _id: string
  number: number
  status: string
  progress: number
  duration: number | null
  current: boolean
  error: string | null
}

beforeAll(async () => {
  t = await startTestApp({ MEDIA_WORKERS: '1', MEDIA_POLL_SECONDS: '1' })
  token = await t.login()
  clips = await mkdtemp(join(tmpdir(), 'version-clips-'))
}, 60_000)
afterAll(async () => {
  await t.stop()
  await rm(clips, { recursive: true, force: true })
})

const versionsOf = async (id: string): Promise<Version[]> =>
  (await t.call('GET', `/api/videos/${id}/versions`, { token })).json.data.versions
const folderOf = (url: string | null) => /\/media\/([0-9a-f]{32})\//.exec(url ?? '')?.[1] ?? ''

async function newVersion(id: string, path: string): Promise<Version> {
  const upload = await tusVia(t, token).upload(await bytesOf(path), 'video')
  const r = await t.call('POST', `/api/videos/${id}/versions`, { token, body: { upload } })
  expect(r.status).toBe(201)
  return r.json.data.version
}

test('a second version is processed while the first plays, then becomes current with its own media', async () => {
  const first = await makeClip(clips, 'first.mp4', { seconds: 2, width: 320, height: 180 })
  const second = await makeClip(clips, 'second.mp4', { seconds: 4, width: 480, height: 270 })
  const created = await uploadVideo(fetch, token, first, 'Two Cuts')
  const { video: v1 } = await watchVideo(fetch, token, created._id, settled)
  expect(v1).toMatchObject({ status: 'ready', width: 320, height: 180 })
  expect(v1.duration).toBeCloseTo(2, 0)

  const added = await newVersion(created._id, second)
  // While it is queued or processing, the work answers as version 1 everywhere.
  const states = new Set<string>()
  const done = await pollUntil(
    async () => {
      const [video, versions] = await Promise.all([
        getVideo(fetch, token, created._id),
        versionsOf(created._id),
      ])
      const v2 = versions.find((v) => v._id === added._id)!
      states.add(v2.status)
      if (v2.status !== 'ready') {
        expect(video).toMatchObject({ status: 'ready', hlsUrl: v1.hlsUrl, width: 320 })
        expect((video as unknown as { version: number }).version).toBe(1)
      }
      return { video, versions, current: v2.current }
    },
    (read) => read.current,
    { what: 'version 2 current', timeoutMs: 90_000, everyMs: 100 },
  )
  expect(states.has('processing') || states.has('queued')).toBe(true)
  const { video, versions } = done
  expect(video).toMatchObject({ status: 'ready', width: 480, height: 270 })
  expect(video.duration).toBeCloseTo(4, 0)
  expect(folderOf(video.hlsUrl)).not.toBe(folderOf(v1.hlsUrl))
  expect(versions.map((v) => [v.number, v.current, v.status])).toEqual([
    [1, false, 'ready'],
    [2, true, 'ready'],
  ])
  expect(versions[0]!.duration).toBeCloseTo(2, 0)
  expect(versions[1]!.duration).toBeCloseTo(4, 0)
  // Both runs' folders are kept: each version has its own streams.
  const folders = new Set(
    (await t.storedKeys()).filter((k) => k.startsWith('streams/')).map((k) => k.split('/')[1]),
  )
  expect(folders).toEqual(new Set([folderOf(v1.hlsUrl), folderOf(video.hlsUrl)]))
  const res = await t.fetch(video.hlsUrl!)
  expect(res.status).toBe(200)
  expect(await res.text()).toContain('RESOLUTION=480x270')

  // Version 1 again: its own streams and length, unprocessed again by nobody.
  const back = await t.call(
    'PUT',
    `/api/videos/${created._id}/versions/${versions[0]!._id}/current`,
    {
      token,
    },
  )
  expect(back.status).toBe(200)
  const now = await getVideo(fetch, token, created._id)
  expect(now).toMatchObject({ status: 'ready', hlsUrl: v1.hlsUrl, width: 320 })
  expect(now.duration).toBeCloseTo(2, 0)
}, 150_000)

test('a version whose file cannot be played fails on its own row; the work plays on', async () => {
  const f = await fixtures()
  const clip = await makeClip(clips, 'third.mp4', { seconds: 2, width: 320, height: 180 })
  const created = await uploadVideo(fetch, token, clip, 'Broken Cut')
  const { video } = await watchVideo(fetch, token, created._id, settled)
  // A truncated MP4: its first bytes pass the type check, ffmpeg cannot read it.
  const bytes = await bytesOf(f.mp4)
  const broken = join(clips, 'broken.mp4')
  await Bun.write(broken, bytes.slice(0, 2048))
  const added = await newVersion(created._id, broken)
  const failed = await pollUntil(
    async () => {
      return (await versionsOf(created._id)).find((x) => x._id === added._id)!
    },
    (v) => v.status === 'failed',
    { what: 'the broken version failed', timeoutMs: 60_000, everyMs: 200 },
  )
  expect(failed.current).toBe(false)
  expect(failed.error).toBeTruthy()
  const still = await getVideo(fetch, token, created._id)
  expect(still).toMatchObject({ status: 'ready', hlsUrl: video.hlsUrl })
  const refused = await t.call('PUT', `/api/videos/${created._id}/versions/${added._id}/current`, {
    token,
  })
  expect(refused.status).toBe(409)
}, 120_000)
