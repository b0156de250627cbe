// /media serving of a derived folder (streams, MP4, preview): types, cache lifetimes, Range on
// segments and MP4s, and nothing outside the names the pipeline writes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { handleMediaPaths } from '../../src/media/serve.ts'
import { streamsUrls } from '../../src/storage/layout.ts'
import { type MediaStore, mediaStore } from '../../src/storage/store.ts'

let dataDir: string
let store: MediaStore
const folder = 'a1'.repeat(16)
const segment = crypto.getRandomValues(new Uint8Array(20_000))
const mp4 = crypto.getRandomValues(new Uint8Array(30_000))

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'derived-'))
  store = mediaStore(dataDir)
  const dir = join(dataDir, 'media', folder)
  await mkdir(join(dir, '360p'), { recursive: true })
  await Bun.write(join(dir, 'master.m3u8'), '#EXTM3U\n')
  await Bun.write(join(dir, 'video.mp4'), mp4)
  await Bun.write(join(dir, 'preview.mp4'), mp4)
  await Bun.write(join(dir, '360p', 'index.m3u8'), '#EXTM3U\n')
  await Bun.write(join(dir, '360p', 'init.mp4'), mp4)
  await Bun.write(join(dir, '360p', 'init_0.mp4'), mp4)
  await Bun.write(join(dir, '360p', 'seg_000.m4s'), segment)
  await Bun.write(join(dir, 'audio', 'seg_012.m4s'), segment)
  // Things that exist on disk but are not for anyone.
  await Bun.write(
    join(dataDir, 'media', `.partial-${crypto.randomUUID()}`, 'master.m3u8'),
    '#EXTM3U\n',
  )
  await Bun.write(join(dir, '360p', 'notes.txt'), 'private')
  await Bun.write(join(dataDir, 'db.lock'), '')
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

// A shown work's derived files never ask who is calling: nobody may.
const nobody = {
  privateNames: async () => new Set<string>(),
  signed: async () => false,
  prefixSigned: async () => false,
  admin: async () => false,
  captions: async () => undefined,
}
const get = (path: string, headers: HeadersInit = {}, method = 'GET') =>
  handleMediaPaths(
    new Request(`http://localhost${path}`, { headers, method }),
    path,
    store,
    nobody,
  )!

describe('a derived folder under /media', () => {
  test.each([
    ['master.m3u8', 'application/vnd.apple.mpegurl', 'public, max-age=60'],
    ['360p/index.m3u8', 'application/vnd.apple.mpegurl', 'public, max-age=60'],
    ['360p/init.mp4', 'video/mp4', 'public, max-age=31536000, immutable'],
    ['360p/init_0.mp4', 'video/mp4', 'public, max-age=31536000, immutable'],
    ['360p/seg_000.m4s', 'video/iso.segment', 'public, max-age=31536000, immutable'],
    ['audio/seg_012.m4s', 'video/iso.segment', 'public, max-age=31536000, immutable'],
    ['video.mp4', 'video/mp4', 'public, max-age=31536000, immutable'],
    ['preview.mp4', 'video/mp4', 'public, max-age=31536000, immutable'],
  ])('%s: %s, %s', async (file, type, cache) => {
    const res = await get(`/media/${folder}/${file}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(type)
    expect(res.headers.get('cache-control')).toBe(cache)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('accept-ranges')).toBe('bytes')
  })

  test('the answers name these URLs', () => {
    expect(streamsUrls(folder)).toEqual({
      hls: `/media/${folder}/master.m3u8`,
      mp4: `/media/${folder}/video.mp4`,
      preview: `/media/${folder}/preview.mp4`,
    })
  })

  test('Range on a segment and on the MP4: 206 with the exact bytes; 416 past the end', async () => {
    const part = await get(`/media/${folder}/360p/seg_000.m4s`, { range: 'bytes=100-199' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${segment.length}`)
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(segment.subarray(100, 200))
    const tail = await get(`/media/${folder}/video.mp4`, { range: 'bytes=-1000' })
    expect(tail.status).toBe(206)
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(mp4.subarray(mp4.length - 1000))
    const past = await get(`/media/${folder}/video.mp4`, { range: `bytes=${mp4.length}-` })
    expect(past.status).toBe(416)
    const head = await get(`/media/${folder}/video.mp4`, {}, 'HEAD')
    expect(head.headers.get('content-length')).toBe(String(mp4.length))
    expect((await get(`/media/${folder}/video.mp4`, {}, 'POST')).status).toBe(405)
  })

  test.each([
    [`/media/${folder}`],
    [`/media/${folder}/`],
    [`/media/${folder}/../db.lock`],
    [`/media/${folder}/360p/../../../db.lock`],
    [`/media/${folder}/%2e%2e/%2e%2e/db.lock`],
    [`/media/${folder}/360p/notes.txt`],
    [`/media/${folder}/360p/seg_000.m4s/`],
    [`/media/${folder}/360p/seg_000.m4s/x`],
    [`/media/${folder}/360p/.seg_000.m4s`],
    [`/media/${folder}/360p//seg_000.m4s`],
    [`/media/${folder}//master.m3u8`],
    [`/media/${folder}/audio/master.m3u8`],
    [`/media/${folder}/other/index.m3u8`],
    [`/media/${folder}/360p/index.m3u8.bak`],
    [`/media/${folder.toUpperCase()}/master.m3u8`],
    [`/media/${folder.slice(1)}/master.m3u8`],
    [`/media/.partial-${crypto.randomUUID()}/master.m3u8`],
    [`/media/${folder}/360p/seg_1.m4s`],
    ['/media/../db.lock'],
    ['/media//etc/passwd'],
  ])('%s is not served', async (path) => {
    expect((await get(path)).status).toBe(404)
  })
})
