// A work's versions (docs/review.md#versions) through the REST paths and the tRPC procedures of
// the real app: the list, a new version from a tus upload or a multipart body, the switch of
// current version (the work's page, embed, review link and public list play the new cut at the
// same addresses), an older version made current again, deletion with its media leaving the
// store (disk or bucket), and every refusal.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { versionMessages } from '../../src/contract/version.ts'
import { STOPPED_BY_SWITCH } from '../../src/videos/version-switch.ts'
import { callerAs } from '../../testkit/caller.ts'
import { plainMediaUrl } from '../../testkit/media.ts'
import { prepareOutputs, readyVersion, readyWorks } from '../../testkit/ready.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { bytesOf, type Fixtures, fixtures, form, send, tusVia } from '../../testkit/videos.ts'
import { webShell } from '../../testkit/web-shell.ts'

let t: TestApp
let f: Fixtures
let token: string
// The work's page and embed are rendered into the web app's shell.
const shell = webShell()

beforeAll(async () => {
  t = await startTestApp({ WEB_DIST: shell.dir })
  f = await fixtures()
  await Promise.all([prepareOutputs(f.mp4), prepareOutputs(f.webm)])
}, 120_000)
afterAll(async () => {
  await t.stop()
  shell.remove()
})
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

type Version = {
  _id: string
  number: number
  createdAt: string
  duration: number | null
  status: string
  current: boolean
  uploadedBy: { _id: string | null; name: string | null }
}

/** A shown, ready work made through the multipart path. */
async function readyWork(title = 'Night Drive') {
  const res = await send(
    t,
    'POST',
    '/api/videos/upload',
    token,
    form({ title }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
  )
  expect(res.status).toBe(201)
  const id = res.json.data.video._id as string
  await readyWorks(t, [id])
  return (await t.call('GET', `/api/videos/${id}`, { token })).json.data.video
}

const versionsOf = async (id: string): Promise<Version[]> => {
  const r = await t.call('GET', `/api/videos/${id}/versions`, { token })
  expect(r.status).toBe(200)
  return r.json.data.versions
}

/** A new version from a finished tus upload of `path`. */
async function addVersion(id: string, path = f.webm): Promise<Version> {
  const upload = await tusVia(t, token).upload(await bytesOf(path), 'video')
  const r = await t.call('POST', `/api/videos/${id}/versions`, { token, body: { upload } })
  expect(r.status).toBe(201)
  return r.json.data.version
}

const folderOf = (url: string | null) => /\/media\/([0-9a-f]{32})\//.exec(url ?? '')?.[1] ?? ''
const html = async (path: string) => {
  const res = await t.fetch(path)
  expect(res.status).toBe(200)
  return res.text()
}
const objectsUnder = async (name: string) =>
  (await t.storedKeys()).filter((key) => key.includes(name))

describe('the versions of a work', () => {
  test('a new work is its own version 1, current, with its uploader and date', async () => {
    const video = await readyWork()
    expect(video.version).toBe(1)
    const [only, ...rest] = await versionsOf(video._id)
    expect(rest).toEqual([])
    expect(only).toMatchObject({ number: 1, current: true, status: 'ready' })
    expect(only!.uploadedBy.name).toBe('owner')
    expect(only!.duration).toBeCloseTo(1, 0)
    expect(Date.parse(only!.createdAt)).toBe(Date.parse(video.createdAt))
  })

  test('a second version processes while the first keeps playing, then becomes current at the same addresses', async () => {
    const video = await readyWork()
    const link = await t.call('POST', `/api/videos/${video._id}/links`, { token, body: {} })
    const linkPath = new URL(link.json.data.link.url).pathname
    const first = folderOf(video.hlsUrl)
    expect(first).not.toBe('')

    const added = await addVersion(video._id)
    expect(added).toMatchObject({ number: 2, current: false, status: 'queued' })
    // Until it is ready, everything plays version 1.
    const during = (await t.call('GET', `/api/videos/${video._id}`, { token })).json.data.video
    expect(during).toMatchObject({ version: 1, status: 'ready', hlsUrl: video.hlsUrl })
    expect(await html(`/work/${video.slug}`)).toContain(first)

    expect(await readyVersion(t, added._id)).toBe(true)
    const after = (await t.call('GET', `/api/videos/${video._id}`, { token })).json.data.video
    expect(after).toMatchObject({ version: 2, status: 'ready', slug: video.slug })
    const second = folderOf(after.hlsUrl)
    expect(second).not.toBe('')
    expect(second).not.toBe(first)
    // The admin's master is the new one; the first master is kept for version 1.
    expect(plainMediaUrl(after.videoUrl)).not.toBe(plainMediaUrl(video.videoUrl))

    const listed = await versionsOf(video._id)
    expect(listed.map((v) => [v.number, v.current, v.status])).toEqual([
      [1, false, 'ready'],
      [2, true, 'ready'],
    ])

    // The public list, the work's page, its embed and the review link: same addresses, new cut.
    const pub = (await t.call('GET', '/api/public/videos')).json.data.videos
    expect(pub).toHaveLength(1)
    expect(pub[0]).toMatchObject({ _id: video._id, slug: video.slug })
    expect(folderOf(pub[0].hlsUrl)).toBe(second)
    for (const page of [`/work/${video.slug}`, `/work/${video.slug}/embed`]) {
      const text = await html(page)
      expect(text).toContain(second)
      expect(text).not.toContain(first)
    }
    // The link's player plays the new cut; its switcher offers the first one beside it.
    const data = JSON.parse(
      /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(
        await html(linkPath),
      )![1]!,
    )
    expect(JSON.stringify(data.video)).toContain(second)
    expect(JSON.stringify(data.video)).not.toContain(first)
    expect(
      data.versions.map((v: { number: number; current: boolean }) => [v.number, v.current]),
    ).toEqual([
      [1, false],
      [2, true],
    ])
    // What a review link may show of each version: the current one by default, an earlier one
    // by its id (its own streams, never its master), nothing for another work's.
    const services = t.app.services
    const asCurrent = await services.videos.forReview(video._id)
    expect(folderOf(asCurrent!.video.hlsUrl)).toBe(second)
    const [v1, v2] = listed
    const earlier = await services.videos.forReview(video._id, v1!._id)
    expect(earlier!.video).toMatchObject({ _id: video._id, slug: video.slug, title: video.title })
    expect(folderOf(earlier!.video.hlsUrl)).toBe(first)
    expect(earlier!.names.has(first)).toBe(true)
    expect(earlier!.names.has(plainMediaUrl(video.videoUrl).slice('/media/'.length))).toBe(false)
    expect(folderOf((await services.videos.forReview(video._id, v2!._id))!.video.hlsUrl)).toBe(
      second,
    )
    expect(await services.videos.forReview(video._id, 'nope')).toBeNull()
    expect(
      await services.videos.forReview(video._id, '00000000-0000-4000-8000-000000000000'),
    ).toBeNull()

    // The new cut's streams answer visitors; the old one's only admins.
    expect((await t.fetch(`/media/${second}/master.m3u8`)).status).toBe(200)
    expect((await t.fetch(`/media/${first}/master.m3u8`)).status).toBe(404)
    const asAdmin = await t.fetch(`/media/${first}/master.m3u8`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(asAdmin.status).toBe(200)
  })

  test('an older ready version becomes current again; the activity log records each change', async () => {
    const video = await readyWork()
    const v2 = await addVersion(video._id)
    await readyVersion(t, v2._id)
    const [v1] = await versionsOf(video._id)
    const r = await t.call('PUT', `/api/videos/${video._id}/versions/${v1!._id}/current`, {
      token,
    })
    expect(r.status).toBe(200)
    expect(r.json.data.version).toMatchObject({ number: 1, current: true })
    const back = (await t.call('GET', `/api/videos/${video._id}`, { token })).json.data.video
    expect(back).toMatchObject({ version: 1, hlsUrl: video.hlsUrl, videoUrl: video.videoUrl })
    expect(await html(`/work/${video.slug}`)).toContain(folderOf(video.hlsUrl))
    // Again: nothing changes, nothing is recorded.
    const again = await t.call('PUT', `/api/videos/${video._id}/versions/${v1!._id}/current`, {
      token,
    })
    expect(again.status).toBe(200)

    const entries = await t.app.database.db.execute<{ kind: string; summary: string }>(
      sql`select kind, summary from activity_log
          where kind like 'version.%' and target_id = ${video._id} order by id`,
    )
    expect([...entries]).toEqual([
      { kind: 'version.create', summary: 'Uploaded version 2 of “Night Drive”' },
      { kind: 'version.current', summary: 'Made version 1 of “Night Drive” current' },
    ])
  })

  test('deleting a version that is not current removes its master and streams from the store', async () => {
    const video = await readyWork()
    const v2 = await addVersion(video._id)
    await readyVersion(t, v2._id)
    const current = (await t.call('GET', `/api/videos/${video._id}`, { token })).json.data.video
    const [v1] = await versionsOf(video._id)
    const oldFolder = folderOf(video.hlsUrl)
    const oldMaster = plainMediaUrl(video.videoUrl).slice('/media/'.length)
    expect(await objectsUnder(oldFolder)).not.toEqual([])
    expect(await objectsUnder(oldMaster)).not.toEqual([])

    const refused = await t.call('DELETE', `/api/videos/${video._id}/versions/${v2._id}`, {
      token,
    })
    expect(refused.status).toBe(409)
    expect(refused.json.message).toBe(versionMessages.deleteCurrent)

    const r = await t.call('DELETE', `/api/videos/${video._id}/versions/${v1!._id}`, { token })
    expect(r.status).toBe(200)
    expect(r.json.data).toEqual({ deleted: 1 })
    expect(await objectsUnder(oldFolder)).toEqual([])
    expect(await objectsUnder(oldMaster)).toEqual([])
    expect((await versionsOf(video._id)).map((v) => v.number)).toEqual([2])
    // The work plays on, untouched; a next version is 3 (a number is never given twice).
    const still = (await t.call('GET', `/api/videos/${video._id}`, { token })).json.data.video
    expect(still).toMatchObject({ version: 2, hlsUrl: current.hlsUrl })
    expect((await addVersion(video._id)).number).toBe(3)
    const entries = await t.app.database.db.execute<{ summary: string }>(
      sql`select summary from activity_log
          where kind = 'version.delete' and target_id = ${video._id}`,
    )
    expect([...entries].map((e) => e.summary)).toEqual(['Deleted version 1 of “Night Drive”'])
  })

  test('deleting the work removes every version’s files', async () => {
    const video = await readyWork()
    const v2 = await addVersion(video._id)
    await readyVersion(t, v2._id)
    await addVersion(video._id, f.mp4) // a third, still queued
    expect((await t.storedKeys()).some((key) => key.startsWith('streams/'))).toBe(true)
    const r = await t.call('DELETE', `/api/videos/${video._id}`, { token })
    expect(r.status).toBe(200)
    const left = await t.storedKeys()
    expect(left.filter((key) => !key.startsWith('images/'))).toEqual([])
  })

  test('a first version still waiting when a newer one is ready is stopped, with the reason', async () => {
    const res = await send(
      t,
      'POST',
      '/api/videos/upload',
      token,
      form({ title: 'Never Processed' }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
    )
    const id = res.json.data.video._id as string
    const v2 = await addVersion(id)
    expect(await readyVersion(t, v2._id)).toBe(true)
    const [v1, now] = await versionsOf(id)
    expect(now).toMatchObject({ number: 2, current: true, status: 'ready' })
    expect(v1).toMatchObject({
      number: 1,
      current: false,
      status: 'failed',
      error: STOPPED_BY_SWITCH,
    })
    // The work plays version 2; version 1 cannot come back, and can be deleted.
    const video = (await t.call('GET', `/api/videos/${id}`, { token })).json.data.video
    expect(video).toMatchObject({ version: 2, status: 'ready' })
    const back = await t.call('PUT', `/api/videos/${id}/versions/${v1!._id}/current`, { token })
    expect(back.status).toBe(409)
    const gone = await t.call('DELETE', `/api/videos/${id}/versions/${v1!._id}`, { token })
    expect(gone.status).toBe(200)
  })

  test('a new version from a multipart body, as on /api/videos/upload', async () => {
    const video = await readyWork()
    const res = await send(
      t,
      'POST',
      `/api/videos/${video._id}/versions`,
      token,
      form({}, { video: f.webm }),
    )
    expect(res.status).toBe(201)
    expect(res.json.data.version).toMatchObject({ number: 2, status: 'queued', current: false })
  })
})

describe('refusals', () => {
  test('unknown or malformed ids answer 404, another work’s version too', async () => {
    const a = await readyWork('First Work')
    const b = await readyWork('Second Work')
    const bv2 = await addVersion(b._id)
    const missing = '00000000-0000-4000-8000-000000000000'
    for (const [method, path] of [
      ['GET', `/api/videos/${missing}/versions`],
      ['GET', '/api/videos/not-an-id/versions'],
      ['PUT', `/api/videos/${a._id}/versions/${bv2._id}/current`],
      ['DELETE', `/api/videos/${a._id}/versions/${bv2._id}`],
      ['PUT', `/api/videos/${a._id}/versions/nope/current`],
      ['DELETE', `/api/videos/${a._id}/versions/${missing}`],
    ] as const) {
      const r = await t.call(method, path, { token })
      expect([path, r.status]).toEqual([path, 404])
      expect(r.json.status).toBe('error')
    }
    const r = await t.call('PUT', `/api/videos/${a._id}/versions/${bv2._id}/current`, { token })
    expect(r.json.message).toBe(versionMessages.notFound)
    // Nothing of b's was touched.
    expect((await versionsOf(b._id)).map((v) => v.number)).toEqual([1, 2])
  })

  test('a version still processing cannot be made current (409)', async () => {
    const video = await readyWork()
    const v2 = await addVersion(video._id)
    const r = await t.call('PUT', `/api/videos/${video._id}/versions/${v2._id}/current`, {
      token,
    })
    expect(r.status).toBe(409)
    expect(r.json.message).toBe(versionMessages.notReady)
  })

  test('no session 401; no upload, a spent upload or an image as the master: 400 or 415', async () => {
    const video = await readyWork()
    const anon = await t.call('GET', `/api/videos/${video._id}/versions`)
    expect(anon.status).toBe(401)
    const none = await t.call('POST', `/api/videos/${video._id}/versions`, { token, body: {} })
    expect(none.status).toBe(400)
    expect(none.json.message).toBe(versionMessages.uploadRequired)
    const gone = await t.call('POST', `/api/videos/${video._id}/versions`, {
      token,
      body: { upload: 'deadbeefdeadbeef' },
    })
    expect(gone.status).toBe(400)
    const image = await tusVia(t, token).upload(await bytesOf(f.jpg), 'thumbnail')
    const wrong = await t.call('POST', `/api/videos/${video._id}/versions`, {
      token,
      body: { upload: image },
    })
    expect(wrong.status).toBe(415)
    const fake = await send(
      t,
      'POST',
      `/api/videos/${video._id}/versions`,
      token,
      form({}, { video: f.fakeMp4 }),
    )
    expect(fake.status).toBe(415)
    const empty = await send(t, 'POST', `/api/videos/${video._id}/versions`, token, form({}))
    expect(empty.status).toBe(400)
    expect((await versionsOf(video._id)).map((v) => v.number)).toEqual([1])
  })
})

describe('over tRPC', () => {
  test('the same procedures, typed from the router', async () => {
    const video = await readyWork()
    const caller = await callerAs(t.app.services, token)
    const upload = await tusVia(t, token).upload(await bytesOf(f.webm), 'video')
    const added = await caller.versions.add({ id: video._id, upload })
    const number: number = added.version.number
    expect(number).toBe(2)
    await readyVersion(t, added.version._id)
    const { versions } = await caller.versions.list({ id: video._id })
    expect(versions.find((v) => v.current)?.number).toBe(2)
    const v1 = versions.find((v) => v.number === 1)!
    await caller.versions.makeCurrent({ id: video._id, versionId: v1._id })
    await caller.versions.delete({ id: video._id, versionId: added.version._id })
    expect((await caller.versions.list({ id: video._id })).versions.map((v) => v.number)).toEqual([
      1,
    ])
    // What the notes refer to: a version by id, or the current one.
    const videos = t.app.services.videos
    expect((await videos.findVersion(video._id)).number).toBe(1)
    expect((await videos.findVersion(video._id, v1._id)).current).toBe(true)
    await expect(videos.findVersion(video._id, added.version._id)).rejects.toThrow(
      versionMessages.notFound,
    )
    const anon = await callerAs(t.app.services, null)
    await expect(anon.versions.list({ id: video._id })).rejects.toThrow()
  })
})
