// SIGKILL of the real server at every named step of videos.create and videos.update (tus uploads)
// and of the REST multipart upload; after each restart, what the admin relied on still holds:
// the uploads are still usable (their ids make the video in a new call) or the change is there
// whole. Media files and rows agree at the end (no orphan, no row pointing at a missing file).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CrashPoint } from '../../src/uploads/crash-points.ts'
import { type Fixtures, fixtures } from '../../testkit/media.ts'
import { type E2EServer, startServer } from '../../testkit/server.ts'
import { tusRaw } from '../../testkit/tus.ts'

let server: E2EServer
let f: Fixtures
let token: string
let crashFile: string
let trial = 0

beforeAll(async () => {
  f = await fixtures()
  crashFile = join(await mkdtemp(join(tmpdir(), 'crash-')), 'armed')
  server = await startServer({
    BUN_OPTIONS: `--preload ${join(import.meta.dir, '..', '..', 'testkit', 'crash-hook.ts')}`,
    CRASH_FILE: crashFile,
    // The media pipeline's own crash safety is tests/processing/across-processes.test.ts; here its
    // outputs would only be more entries beside the files these steps are about.
    MEDIA_WORKERS: '0',
  })
  token = (await server.apiLogin()).token
}, 120_000)
afterAll(() => server?.stop())

const sources = async () => ({
  video: await Bun.file(f.mp4).bytes(),
  thumbnail: await Bun.file(f.jpg).bytes(),
  brandLogo: await Bun.file(f.png).bytes(),
})
type Kind = 'video' | 'thumbnail' | 'brandLogo'

async function tusUpload(bytes: Uint8Array<ArrayBuffer>, kind: Kind): Promise<string> {
  const tus = tusRaw(server.url, token)
  const path = (await tus.create(bytes.length, { kind })).headers.get('location')!
  expect((await tus.patch(path, 0, bytes)).status).toBe(204)
  return path.split('/').pop()!
}

async function trpc(procedure: string, input: unknown) {
  const res = await fetch(`${server.url}/trpc/${procedure}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  })
  return { status: res.status, json: (await res.json()) as { result?: { data: { video: Video } } } }
}

type Video = {
  _id: string
  title: string
  videoUrl: string
  thumbnailUrl: string
  brandLogoUrl: string
}

async function videoTitled(title: string): Promise<Video | undefined> {
  const res = await fetch(`${server.url}/api/videos?limit=100`, {
    headers: { authorization: `Bearer ${token}` },
  })
  const body = (await res.json()) as { data: { videos: Video[] } }
  return body.data.videos.find((v) => v.title === title)
}

const served = async (url: string) =>
  new Uint8Array(await (await fetch(`${server.url}${url}`)).arrayBuffer())

/** Arms `point` (its nth hit), runs `call`, which must die with the server, then restarts. */
async function crashDuring(point: CrashPoint, nth: number, call: () => Promise<unknown>) {
  await Bun.write(crashFile, `${++trial} ${point} ${nth}`)
  const answered = await call().then(
    () => true,
    () => false,
  )
  expect({ point, nth, answered }).toEqual({ point, nth, answered: false })
  await server.kill()
  await server.start()
  token = (await server.apiLogin()).token
}

const CREATE_STEPS: [CrashPoint, number][] = [
  ['intake:verified', 1],
  ['intake:linked', 1],
  ['intake:linked', 2],
  ['intake:linked', 3],
  ['intake:flushed', 1],
  ['videos:written', 1],
  ['intake:released', 1],
  ['intake:released', 3],
]

test('a crash at any step of videos.create: the uploads still work, or the video is whole', async () => {
  const bytes = await sources()
  const outcomes: string[] = []
  for (const [point, nth] of CREATE_STEPS) {
    const uploads = {
      video: await tusUpload(bytes.video, 'video'),
      thumbnail: await tusUpload(bytes.thumbnail, 'thumbnail'),
      brandLogo: await tusUpload(bytes.brandLogo, 'brandLogo'),
    }
    const title = `Crash at ${point} ${nth}`
    await crashDuring(point, nth, () => trpc('videos.create', { title, uploads }))
    const found = await videoTitled(title)
    if (found) {
      expect(await served(found.videoUrl)).toEqual(bytes.video)
      expect(await served(found.thumbnailUrl)).toEqual(bytes.thumbnail)
      expect(await served(found.brandLogoUrl)).toEqual(bytes.brandLogo)
      outcomes.push(`${point} ${nth}: video whole`)
    } else {
      const retry = await trpc('videos.create', { title, uploads })
      expect({ point, nth, status: retry.status }).toEqual({ point, nth, status: 200 })
      outcomes.push(`${point} ${nth}: uploads usable`)
    }
  }
  // Before the row commits nothing is made; from then on the video is there.
  expect(outcomes).toEqual([
    'intake:verified 1: uploads usable',
    'intake:linked 1: uploads usable',
    'intake:linked 2: uploads usable',
    'intake:linked 3: uploads usable',
    'intake:flushed 1: uploads usable',
    'videos:written 1: video whole',
    'intake:released 1: video whole',
    'intake:released 3: video whole',
  ])
  await expectFilesMatchRows()
}, 300_000)

test('a crash at any step of videos.update: the new upload still works, or the edit is whole', async () => {
  const bytes = await sources()
  const base = await trpc('videos.create', {
    title: 'Edited under fire',
    uploads: {
      video: await tusUpload(bytes.video, 'video'),
      thumbnail: await tusUpload(bytes.thumbnail, 'thumbnail'),
      brandLogo: await tusUpload(bytes.brandLogo, 'brandLogo'),
    },
  })
  const id = base.json.result!.data.video._id
  const webp = await Bun.file(f.webp).bytes()
  for (const [point, nth] of [
    ['intake:linked', 1],
    ['intake:flushed', 1],
    ['videos:written', 1],
  ] as [CrashPoint, number][]) {
    const before = (await videoTitled('Edited under fire'))!
    const thumbnail = await tusUpload(webp, 'thumbnail')
    await crashDuring(point, nth, () => trpc('videos.update', { id, uploads: { thumbnail } }))
    const after = (await videoTitled('Edited under fire'))!
    if (after.thumbnailUrl === before.thumbnailUrl) {
      expect(point).not.toBe('videos:written')
      expect((await trpc('videos.update', { id, uploads: { thumbnail } })).status).toBe(200)
    } else {
      expect(await served(after.thumbnailUrl)).toEqual(webp)
    }
    // The replaced file is gone (the start-up sweep removes what no row names).
    expect((await fetch(`${server.url}${before.thumbnailUrl}`)).status).toBe(404)
  }
  await expectFilesMatchRows()
}, 300_000)

test('a crash during a REST multipart upload: the video is whole or absent, and a retry works', async () => {
  const form = (title: string) => {
    const body = new FormData()
    body.append('title', title)
    body.append('video', Bun.file(f.mp4), 'v.mp4')
    body.append('thumbnail', Bun.file(f.jpg), 't.jpg')
    body.append('brandLogo', Bun.file(f.png), 'l.png')
    return body
  }
  const post = (title: string) =>
    fetch(`${server.url}/api/videos/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form(title),
    })
  for (const [point, nth] of [
    ['rest:registered', 1],
    ['rest:registered', 3],
    ['intake:linked', 2],
    ['intake:flushed', 1],
    ['videos:written', 1],
  ] as [CrashPoint, number][]) {
    const title = `REST crash at ${point} ${nth}`
    await crashDuring(point, nth, () => post(title))
    const found = await videoTitled(title)
    if (found) {
      expect(point).toBe('videos:written')
      expect(await served(found.videoUrl)).toEqual(await Bun.file(f.mp4).bytes())
    } else {
      expect((await post(title)).status).toBe(201)
    }
  }
  await expectFilesMatchRows()
}, 300_000)

async function expectFilesMatchRows() {
  const res = await fetch(`${server.url}/api/videos?limit=100`, {
    headers: { authorization: `Bearer ${token}` },
  })
  const videos = ((await res.json()) as { data: { videos: Video[] } }).data.videos
  const keys = videos
    .flatMap((v) => [v.videoUrl, v.thumbnailUrl, v.brandLogoUrl])
    .map((u) => u.split('/').pop()!)
    .sort()
  const files = (await readdir(join(server.dataDir, 'media'))).sort()
  expect(files).toEqual(keys)
}
