// Every REST video path of docs/api.md through the real fetch handler and a real database.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { msg } from '../../src/contract/messages.ts'
import { signedMediaUrl } from '../../testkit/media.ts'
import { prepareOutputs, readyWorks } from '../../testkit/ready.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { type Fixtures, fixtures, form, mediaAndRows, send } from '../../testkit/videos.ts'

let t: TestApp
let f: Fixtures
let token: string

beforeAll(async () => {
  t = await startTestApp()
  f = await fixtures()
  await prepareOutputs(f.mp4)
}, 120_000)
afterAll(() => t.stop())
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

const trio = () => ({ video: f.mp4, thumbnail: f.jpg, brandLogo: f.png })
async function upload(title: string, files: Record<string, string> = trio(), description = 'd') {
  return send(t, 'POST', '/api/videos/upload', token, form({ title, description }, files))
}
async function created(title: string) {
  const res = await upload(title)
  if (res.status !== 201) throw new Error(`${res.status} ${res.json.message}`)
  return res.json.data.video
}

describe('POST /api/videos/upload', () => {
  test('201 with the video answer; URLs point at /media with generated names', async () => {
    const res = await upload('  First Cut  ', trio(), '  about it ')
    expect(res.status).toBe(201)
    expect(res.json.status).toBe('success')
    const video = res.json.data.video
    expect(Object.keys(video).sort()).toEqual(
      [
        '_id',
        'title',
        'description',
        'videoUrl',
        'thumbnailUrl',
        'brandLogoUrl',
        'createdAt',
        'updatedAt',
        'status',
        'progress',
        'duration',
        'width',
        'height',
        'hlsUrl',
        'mp4Url',
        'previewUrl',
        'error',
        'published',
        'slug',
        'loudness',
        'hasAudio',
        'captions',
        'version',
        'growing',
      ].sort(),
    )
    // Processing starts in the background: queued, nothing derived yet.
    expect(video).toMatchObject({
      status: 'queued',
      progress: 0,
      loudness: null,
      hasAudio: null,
      duration: null,
      width: null,
      height: null,
      hlsUrl: null,
      mp4Url: null,
      previewUrl: null,
      error: null,
    })
    expect(video.title).toBe('First Cut')
    expect(video.description).toBe('about it')
    // The master under a signed prefix: its own address closes to visitors once streams exist.
    expect(video.videoUrl).toMatch(signedMediaUrl('[0-9a-f]{32}\\.mp4'))
    expect(video.thumbnailUrl).toMatch(/^\/media\/[0-9a-f]{32}\.jpg$/)
    expect(video.brandLogoUrl).toMatch(/^\/media\/[0-9a-f]{32}\.png$/)
    expect(video.videoUrl).not.toContain('client')
    expect(new Date(video.createdAt).toISOString()).toBe(video.createdAt)
    const served = await t.fetch(video.videoUrl)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('video/mp4')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(await Bun.file(f.mp4).bytes())
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
    expect(files.length).toBe(3)
  })

  test('WebM and Ogg videos and a WebP thumbnail are accepted', async () => {
    const webm = await upload('webm', { ...trio(), video: f.webm, thumbnail: f.webp })
    expect(webm.status).toBe(201)
    expect(webm.json.data.video.videoUrl).toMatch(/\.webm$/)
    expect(webm.json.data.video.thumbnailUrl).toMatch(/\.webp$/)
    const ogv = await upload('ogg', { ...trio(), video: f.ogv })
    expect(ogv.status).toBe(201)
    expect(ogv.json.data.video.videoUrl).toMatch(/\.ogv$/)
  })

  test('401 without a session, before the body is read', async () => {
    const res = await send(t, 'POST', '/api/videos/upload', null, form({ title: 'x' }, trio()))
    expect(res.status).toBe(401)
    expect(res.json.status).toBe('error')
  })

  test('400: missing title or files, with their messages and fields', async () => {
    const noTitle = await upload('')
    expect(noTitle).toMatchObject({
      status: 400,
      json: { message: msg.titleRequired, field: 'title' },
    })
    for (const [kind, message] of [
      ['video', msg.videoRequired],
      ['thumbnail', msg.thumbnailRequired],
      ['brandLogo', msg.brandLogoRequired],
    ] as const) {
      const files: Record<string, string> = trio()
      delete files[kind]
      const res = await upload(`missing ${kind}`, files)
      expect(res).toMatchObject({ status: 400, json: { status: 'error', message, field: kind } })
    }
    const notMultipart = await t.call('POST', '/api/videos/upload', { token, body: { title: 'x' } })
    expect(notMultipart.status).toBe(400)
  })

  test('415: renamed text or HTML files, judged by their bytes', async () => {
    const video = await upload('fake video', { ...trio(), video: f.fakeMp4 })
    expect(video).toMatchObject({ status: 415, json: { message: msg.videoType, field: 'video' } })
    const thumb = await upload('fake thumb', { ...trio(), thumbnail: f.fakePng })
    expect(thumb).toMatchObject({
      status: 415,
      json: { message: msg.imageType, field: 'thumbnail' },
    })
    const logo = await upload('video as logo', { ...trio(), brandLogo: f.mp4 })
    expect(logo).toMatchObject({
      status: 415,
      json: { message: msg.imageType, field: 'brandLogo' },
    })
    expect(await mediaAndRows(t)).toEqual({ files: [], keys: [] })
  })

  test('413: a brand logo over 10 MB, with its message', async () => {
    const big = join(f.dir, 'big-logo.png')
    await Bun.write(big, new Blob([await Bun.file(f.png).bytes(), new Uint8Array(10_000_001)]))
    const res = await upload('big logo', { ...trio(), brandLogo: big })
    expect(res).toMatchObject({
      status: 413,
      json: { message: msg.brandLogoSize, field: 'brandLogo' },
    })
  })

  test('409: a duplicate title, case-insensitive and trimmed', async () => {
    await created('Summer Campaign')
    const res = await upload('  summer CAMPAIGN ')
    expect(res).toMatchObject({ status: 409, json: { message: msg.titleTaken, field: 'title' } })
    const { files } = await mediaAndRows(t)
    expect(files.length).toBe(3)
  })
})

describe('reading', () => {
  test('GET /api/videos: newest first, total and totalPages; page and limit edges', async () => {
    for (const title of ['one', 'two', 'three']) await created(title)
    const first = await t.call('GET', '/api/videos?page=1&limit=2', { token })
    expect(first.status).toBe(200)
    expect(first.json.data).toMatchObject({ total: 3, totalPages: 2, page: 1, limit: 2 })
    expect(first.json.data.videos.map((v: { title: string }) => v.title)).toEqual(['three', 'two'])
    const second = await t.call('GET', '/api/videos?page=2&limit=2', { token })
    expect(second.json.data.videos.map((v: { title: string }) => v.title)).toEqual(['one'])
    const beyond = await t.call('GET', '/api/videos?page=9&limit=2', { token })
    expect(beyond.status).toBe(200)
    expect(beyond.json.data).toMatchObject({ videos: [], total: 3, totalPages: 2, page: 9 })
    const defaults = await t.call('GET', '/api/videos', { token })
    expect(defaults.json.data).toMatchObject({ page: 1, limit: 10, total: 3, totalPages: 1 })
    expect((await t.call('GET', '/api/videos?limit=100', { token })).status).toBe(200)
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=-1', 'page=abc', 'limit=2.5']) {
      const res = await t.call('GET', `/api/videos?${query}`, { token })
      expect(res.status).toBe(400)
      expect(res.json.status).toBe('error')
    }
    expect((await t.call('GET', '/api/videos')).status).toBe(401)
  })

  test('an empty list has one page', async () => {
    const res = await t.call('GET', '/api/videos', { token })
    expect(res.json.data).toMatchObject({ videos: [], total: 0, totalPages: 1 })
  })

  test('GET /api/videos/:id: the video, 404 for unknown or malformed ids, 401 without session', async () => {
    const video = await created('Findable')
    const res = await t.call('GET', `/api/videos/${video._id}`, { token })
    expect(res).toMatchObject({ status: 200, json: { status: 'success', data: { video } } })
    for (const id of [crypto.randomUUID(), 'not-a-uuid', '..%2F..']) {
      const missing = await t.call('GET', `/api/videos/${id}`, { token })
      expect(missing).toMatchObject({ status: 404, json: { message: msg.videoNotFound } })
    }
    expect((await t.call('GET', `/api/videos/${video._id}`)).status).toBe(401)
  })

  test('GET /api/public/videos: no sign-in, only what the page needs', async () => {
    const { _id } = await created('Public one')
    // Visitors see a work once its streams exist
    // (docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md).
    expect((await t.call('GET', '/api/public/videos')).json.data.videos).toEqual([])
    await readyWorks(t, [_id])
    const res = await t.call('GET', '/api/public/videos')
    expect(res.status).toBe(200)
    const [video] = res.json.data.videos
    expect(Object.keys(video).sort()).toEqual(
      [
        '_id',
        'title',
        'description',
        'videoUrl',
        'thumbnailUrl',
        'brandLogoUrl',
        'createdAt',
        'status',
        'duration',
        'width',
        'height',
        'hlsUrl',
        'mp4Url',
        'previewUrl',
        'slug',
        'loudness',
        'captions',
        'streamStart',
      ].sort(),
    )
    // `videoUrl` is the MP4, never the master (docs/media.md).
    expect(video.videoUrl).toMatch(/^\/media\/[0-9a-f]{32}\/video\.mp4$/)
    expect(video).toMatchObject({
      _id,
      status: 'ready',
      mp4Url: video.videoUrl,
      hlsUrl: expect.stringMatching(/^\/media\/[0-9a-f]{32}\/master\.m3u8$/),
      captions: [],
    })
    expect(video.streamStart).not.toBeNull()
  })

  test('POST /api/videos/check-title: case-insensitive and trimmed', async () => {
    await created('Night Drive')
    const check = (title: unknown) =>
      t.call('POST', '/api/videos/check-title', { token, body: { title } })
    expect((await check('night drive')).json.data).toEqual({ available: false })
    expect((await check('  NIGHT DRIVE ')).json.data).toEqual({ available: false })
    expect((await check('Night Drive 2')).json.data).toEqual({ available: true })
    expect((await check('')).status).toBe(400)
    expect((await check(42)).status).toBe(400)
    expect((await t.call('POST', '/api/videos/check-title', { body: { title: 'x' } })).status).toBe(
      401,
    )
  })
})

describe('editing', () => {
  test('PATCH /api/videos/:id: title and description, trimmed; rules and conflicts', async () => {
    const video = await created('Original')
    await created('Taken')
    const patch = (body: unknown, id = video._id) =>
      t.call('PATCH', `/api/videos/${id}`, { token, body })
    const res = await patch({ title: '  Renamed ', description: ' new words ' })
    expect(res.status).toBe(200)
    expect(res.json.data.video).toMatchObject({ title: 'Renamed', description: 'new words' })
    expect(res.json.data.video.videoUrl).toBe(video.videoUrl)
    expect(res.json.data.video.updatedAt > video.updatedAt).toBe(true)
    expect(await patch({ title: 'ab' })).toMatchObject({
      status: 400,
      json: { message: msg.titleMin, field: 'title' },
    })
    expect(await patch({ title: '   ' })).toMatchObject({ status: 400, json: { field: 'title' } })
    expect(await patch({ title: 'TAKEN' })).toMatchObject({
      status: 409,
      json: { message: msg.titleTaken, field: 'title' },
    })
    // Its own title in another case is not a conflict.
    expect((await patch({ title: 'RENAMED' })).status).toBe(200)
    expect((await patch({ title: 'Whatever' }, crypto.randomUUID())).status).toBe(404)
    expect(
      (await t.call('PATCH', `/api/videos/${video._id}`, { body: { title: 'x' } })).status,
    ).toBe(401)
    expect((await patch('not json')).status).toBe(400)
  })

  test('PUT update-all: without files keeps them; with files replaces them and removes the old', async () => {
    const video = await created('Full edit')
    const put = (fields: Record<string, string>, files: Record<string, string> = {}) =>
      send(t, 'PUT', `/api/videos/${video._id}/update-all`, token, form(fields, files))
    const plain = await put({ title: 'Full edit 2', description: 'x' })
    expect(plain.status).toBe(200)
    expect(plain.json.data.video).toMatchObject({
      title: 'Full edit 2',
      videoUrl: video.videoUrl,
      thumbnailUrl: video.thumbnailUrl,
      brandLogoUrl: video.brandLogoUrl,
    })
    const swapped = await put(
      { title: 'Full edit 3', description: 'y' },
      { video: f.webm, brandLogo: f.webp },
    )
    expect(swapped.status).toBe(200)
    const after = swapped.json.data.video
    expect(after.videoUrl).toMatch(/\.webm$/)
    expect(after.brandLogoUrl).toMatch(/\.webp$/)
    expect(after.thumbnailUrl).toBe(video.thumbnailUrl)
    expect((await t.fetch(video.videoUrl)).status).toBe(404)
    expect((await t.fetch(after.videoUrl)).status).toBe(200)
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
  })

  test('PUT update-all: the brand logo limit is 5 MB here; wrong types 415; bad ids 404', async () => {
    const video = await created('Logo limit')
    const logo = join(f.dir, 'six-mb-logo.png')
    await Bun.write(logo, new Blob([await Bun.file(f.png).bytes(), new Uint8Array(6_000_000)]))
    const put = (files: Record<string, string>, id = video._id) =>
      send(t, 'PUT', `/api/videos/${id}/update-all`, token, form({ title: 'Logo limit' }, files))
    expect(await put({ brandLogo: logo })).toMatchObject({
      status: 413,
      json: { message: msg.brandLogoSizeEdit, field: 'brandLogo' },
    })
    expect(await put({ thumbnail: f.fakePng })).toMatchObject({
      status: 415,
      json: { message: msg.imageType, field: 'thumbnail' },
    })
    expect((await put({}, crypto.randomUUID())).status).toBe(404)
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
  })

  test('PUT /video and /thumbnail replace one file', async () => {
    const video = await created('Single swaps')
    const newVideo = await send(
      t,
      'PUT',
      `/api/videos/${video._id}/video`,
      token,
      form({}, { video: f.ogv }),
    )
    expect(newVideo.status).toBe(200)
    expect(newVideo.json.data.video.videoUrl).toMatch(/\.ogv$/)
    const newThumb = await send(
      t,
      'PUT',
      `/api/videos/${video._id}/thumbnail`,
      token,
      form({}, { file: f.webp }),
    )
    expect(newThumb.status).toBe(200)
    expect(newThumb.json.data.video.thumbnailUrl).toMatch(/\.webp$/)
    const none = await send(t, 'PUT', `/api/videos/${video._id}/video`, token, form({}))
    expect(none).toMatchObject({
      status: 400,
      json: { message: msg.videoRequired, field: 'video' },
    })
    const wrong = await send(
      t,
      'PUT',
      `/api/videos/${video._id}/video`,
      token,
      form({}, { video: f.png }),
    )
    expect(wrong).toMatchObject({ status: 415, json: { message: msg.videoType } })
    const anon = await send(
      t,
      'PUT',
      `/api/videos/${video._id}/video`,
      null,
      form({}, { video: f.ogv }),
    )
    expect(anon.status).toBe(401)
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
  })
})

describe('what a multipart request leaves behind', () => {
  test('a file under both its kind and `file`: one is used, neither is left as an upload', async () => {
    const video = await created('Both names')
    const before = await readdir(join(t.dataDir, 'uploads'))
    const res = await send(
      t,
      'PUT',
      `/api/videos/${video._id}/thumbnail`,
      token,
      form({}, { thumbnail: f.jpg, file: f.webp }),
    )
    expect(res.status).toBe(200)
    expect(await readdir(join(t.dataDir, 'uploads'))).toEqual(before)
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
  })
})

describe('deleting', () => {
  test('DELETE /api/videos/:id: deleted 1, files gone; 404 after; 401 without session', async () => {
    const video = await created('Short lived')
    expect((await t.call('DELETE', `/api/videos/${video._id}`)).status).toBe(401)
    const res = await t.call('DELETE', `/api/videos/${video._id}`, { token })
    expect(res).toMatchObject({ status: 200, json: { status: 'success', data: { deleted: 1 } } })
    expect(await t.call('DELETE', `/api/videos/${video._id}`, { token })).toMatchObject({
      status: 404,
      json: { message: msg.videoNotFound },
    })
    expect((await t.fetch(video.videoUrl)).status).toBe(404)
    expect(await mediaAndRows(t)).toEqual({ files: [], keys: [] })
  })

  test('POST bulk-delete: a mix of existing and unknown ids', async () => {
    const a = await created('Bulk A')
    const b = await created('Bulk B')
    const keep = await created('Bulk keep')
    const res = await t.call('POST', '/api/videos/bulk-delete', {
      token,
      body: { ids: [a._id, crypto.randomUUID(), b._id, 'garbage', a._id] },
    })
    expect(res).toMatchObject({ status: 200, json: { data: { deleted: 2 } } })
    const left = await t.call('GET', '/api/videos', { token })
    expect(left.json.data.videos.map((v: { _id: string }) => v._id)).toEqual([keep._id])
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
    expect(files.length).toBe(3)
    expect(
      (await t.call('POST', '/api/videos/bulk-delete', { token, body: { ids: [] } })).status,
    ).toBe(400)
    expect((await t.call('POST', '/api/videos/bulk-delete', { token, body: {} })).status).toBe(400)
    expect(
      (await t.call('POST', '/api/videos/bulk-delete', { body: { ids: [keep._id] } })).status,
    ).toBe(401)
  })
})
