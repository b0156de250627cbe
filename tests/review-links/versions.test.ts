// A review link and the versions of its work (docs/review.md#versions): the link's page offers
// every ready version (the current one first in its player), and an earlier version's streams
// answer under the link's own media path, but never a master, another work's files, a version
// still processing or one that was deleted; a revoked link stops them as it stops the current
// one's. A client's note belongs to the version it was made on: it stays under that version once
// another becomes current, and keeps its number once its version is deleted. Runs on both
// pairings (embedded database and disk; PostgreSQL and the bucket).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { VERSION_DELETED, VERSION_NOT_PLAYABLE } from '../../src/review-notes/version.ts'
import { callerAs } from '../../testkit/caller.ts'
import { plainMediaUrl } from '../../testkit/media.ts'
import { prepareOutputs, readyVersion, readyWorks } from '../../testkit/ready.ts'
import { type Json, startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { bytesOf, type Fixtures, fixtures, form, send, tusVia } from '../../testkit/videos.ts'
import { webShell } from '../../testkit/web-shell.ts'

let t: TestApp
let f: Fixtures
let token: string
const shell = webShell()

beforeAll(async () => {
  t = await startTestApp({ WEB_DIST: shell.dir })
  f = await fixtures()
  await Promise.all([prepareOutputs(f.mp4), prepareOutputs(f.webm)])
}, 120_000)
afterAll(async () => {
  await t?.stop()
  shell.remove()
}, 60_000)
beforeEach(async () => {
  await t.reset()
  await t.app.database.db.execute(sql`truncate table rate_limits`)
  token = await t.login()
})

type Video = { _id: string; hlsUrl: string; videoUrl: string; mp4Url: string }
type Version = { _id: string; number: number; current: boolean }
type PageVersion = {
  id: string
  number: number
  current: boolean
  video: { hlsUrl: string; mp4Url: string; videoUrl: string; duration: number }
}

/** A ready work, hidden (its links keep working). */
async function readyWork(title: string): Promise<Video> {
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
  const hidden = await t.call('PUT', `/api/videos/${id}/published`, {
    token,
    body: { published: false },
  })
  expect(hidden.status).toBe(200)
  return (await t.call('GET', `/api/videos/${id}`, { token })).json.data.video
}

async function addVersion(id: string, path = f.webm): Promise<Version> {
  const upload = await tusVia(t, token).upload(await bytesOf(path), 'video')
  const r = await t.call('POST', `/api/videos/${id}/versions`, { token, body: { upload } })
  expect(r.status).toBe(201)
  return r.json.data.version
}

const versionsOf = async (id: string): Promise<Version[]> =>
  (await t.call('GET', `/api/videos/${id}/versions`, { token })).json.data.versions

async function makeLink(videoId: string): Promise<string> {
  const r = await t.call('POST', `/api/videos/${videoId}/links`, { token, body: {} })
  expect(r.status).toBe(201)
  return new URL(r.json.data.link.url).pathname
}

/** The stream folder an address names, plain, signed or under a link. */
const folderOf = (url: string | null) => /\/([0-9a-f]{32})\//.exec(url ?? '')?.[1] ?? ''
const statusOf = async (path: string) => {
  const res = await t.fetch(path, { redirect: 'manual' })
  await res.arrayBuffer()
  return res.status
}
const pageData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html)![1]!)
async function pageVersions(linkPath: string): Promise<PageVersion[]> {
  const res = await t.fetch(linkPath)
  expect(res.status).toBe(200)
  return pageData(await res.text()).versions
}

/** Every playlist and segment a player fetches from an HLS master. */
async function crawl(master: string): Promise<string[]> {
  const seen: string[] = []
  const queue = [master]
  while (queue.length) {
    const url = queue.shift()!
    seen.push(url)
    if (!url.endsWith('.m3u8')) continue
    const res = await t.fetch(url)
    expect([url, res.status]).toEqual([url, 200])
    const text = await res.text()
    const uris = [
      ...text.split('\n').filter((line) => line.trim() && !line.startsWith('#')),
      ...[...text.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!),
    ]
    for (const uri of uris) {
      const next = new URL(uri.trim(), `http://localhost${url}`).pathname
      if (!seen.includes(next) && !queue.includes(next)) queue.push(next)
    }
  }
  return seen
}

describe('a link and the versions of its work', () => {
  test('the page offers every ready version; an earlier one’s streams play under the link’s own path', async () => {
    const video = await readyWork('Night Drive')
    const linkPath = await makeLink(video._id)
    const first = folderOf(video.hlsUrl)
    // One version: the page offers it alone, current.
    const only = await pageVersions(linkPath)
    expect(only.map((v) => [v.number, v.current])).toEqual([[1, true]])
    expect(folderOf(only[0]!.video.hlsUrl)).toBe(first)

    const v2 = await addVersion(video._id)
    // Still processing: not offered, the page plays version 1.
    expect((await pageVersions(linkPath)).map((v) => v.number)).toEqual([1])
    expect(await readyVersion(t, v2._id)).toBe(true)
    const [v1] = await versionsOf(video._id)
    const offered = await pageVersions(linkPath)
    expect(offered.map((v) => [v.id, v.number, v.current])).toEqual([
      [v1!._id, 1, false],
      [v2._id, 2, true],
    ])
    const [older, now] = offered
    expect(folderOf(older!.video.hlsUrl)).toBe(first)
    expect(folderOf(now!.video.hlsUrl)).not.toBe(first)
    // Every address the page names is under the link's path; none is a master.
    for (const version of offered) {
      for (const url of [version.video.hlsUrl, version.video.mp4Url, version.video.videoUrl]) {
        expect(url).toStartWith(`${linkPath}/media/`)
      }
      expect(version.video.videoUrl).toBe(version.video.mp4Url)
    }
    // The earlier cut's whole stream tree answers through the link, its MP4 too.
    const urls = await crawl(older!.video.hlsUrl)
    expect(urls.length).toBeGreaterThanOrEqual(4)
    for (const url of [...urls, older!.video.mp4Url]) {
      expect([url, await statusOf(url)]).toEqual([url, 200])
    }
    // Nobody gets it by its plain address: it is an admin's file.
    expect(await statusOf(`/media/${first}/master.m3u8`)).toBe(404)
  })

  test('never a master, another work’s files, a version still processing or a deleted one', async () => {
    const video = await readyWork('Night Drive')
    const other = await readyWork('Other Work')
    const v2 = await addVersion(video._id)
    await readyVersion(t, v2._id)
    const v3 = await addVersion(video._id, f.mp4) // queued, never processed here
    const linkPath = await makeLink(video._id)
    const [v1] = await versionsOf(video._id)
    const offered = await pageVersions(linkPath)
    expect(offered.map((v) => v.number)).toEqual([1, 2])
    const older = offered[0]!.video
    const segment = (await crawl(older.hlsUrl)).find((url) => url.endsWith('.m4s'))!
    expect(await statusOf(segment)).toBe(200)

    const under = (name: string) => `${linkPath}/media/${name}`
    const current = (await t.call('GET', `/api/videos/${video._id}`, { token })).json.data.video
    const masters = [video.videoUrl, current.videoUrl].map((url: string) =>
      plainMediaUrl(url).slice('/media/'.length),
    )
    expect(masters[0]).not.toBe(masters[1])
    const stored = await t.app.database.db.execute<{ master_key: string }>(
      sql`select master_key from video_versions where id = ${v3._id}`,
    )
    masters.push([...stored][0]!.master_key)
    for (const master of masters)
      expect([master, await statusOf(under(master))]).toEqual([master, 404])
    // Another work's current folder, its poster and its master: nothing through this link.
    for (const url of [other.hlsUrl, other.mp4Url, other.videoUrl]) {
      const name = plainMediaUrl(url).slice('/media/'.length)
      expect([name, await statusOf(under(name))]).toEqual([name, 404])
    }
    // A note cannot name a version still processing (it has nothing to play).
    const onQueued = await t.call('POST', `${linkPath}/notes`, {
      body: { versionId: v3._id, at: 0.2, text: 'Too early', name: 'Ada' },
    })
    expect([onQueued.status, onQueued.json.message]).toEqual([409, VERSION_NOT_PLAYABLE])

    // Version 1 deleted: no longer offered, and its segments answer nothing, at once.
    const removed = await t.call('DELETE', `/api/videos/${video._id}/versions/${v1!._id}`, {
      token,
    })
    expect(removed.status).toBe(200)
    expect((await pageVersions(linkPath)).map((v) => v.number)).toEqual([2])
    expect(await statusOf(older.hlsUrl)).toBe(404)
    expect(await statusOf(segment)).toBe(404)

    // A revoked link stops every version's streams with a 410.
    const live = (await pageVersions(linkPath)).at(-1)!
    const liveSegment = (await crawl(live.video.hlsUrl)).find((url) => url.endsWith('.m4s'))!
    const links = (await t.call('GET', `/api/videos/${video._id}/links`, { token })).json.data
      .links as { id: string }[]
    await t.call('DELETE', `/api/videos/${video._id}/links/${links[0]!.id}`, { token })
    expect(await statusOf(liveSegment)).toBe(410)
  })
})

describe('notes and versions', () => {
  type Note = { id: string; versionId: string | null; versionNumber: number; text: string }
  const notesOf = async (linkPath: string): Promise<Note[]> =>
    (await t.call('GET', `${linkPath}/notes`)).json.data.notes

  test('a note on version 1 stays under version 1 once version 2 is current, and keeps its number once version 1 is deleted', async () => {
    const video = await readyWork('Night Drive')
    const linkPath = await makeLink(video._id)
    const made = await t.call('POST', `${linkPath}/notes`, {
      body: { at: 0.4, text: 'Swell here', name: 'Ada' },
    })
    expect(made.status).toBe(201)
    const device = made.json.data.device as string
    const [v1] = await versionsOf(video._id)
    expect(made.json.data.note).toMatchObject({ versionId: v1!._id, versionNumber: 1 })

    const v2 = await addVersion(video._id)
    await readyVersion(t, v2._id)
    // Version 2 is current; the note is still version 1's.
    expect((await notesOf(linkPath)).map((n) => [n.text, n.versionId, n.versionNumber])).toEqual([
      ['Swell here', v1!._id, 1],
    ])
    // The client, shown version 1 again by the switcher, notes on it; shown version 2, on 2.
    const onOld = await t.call('POST', `${linkPath}/notes`, {
      headers: { 'x-review-device': device },
      body: { versionId: v1!._id, at: 0.6, text: 'Still on the old cut', name: 'Ada' },
    })
    expect(onOld.status).toBe(201)
    expect(onOld.json.data.note).toMatchObject({ versionId: v1!._id, versionNumber: 1 })
    const onNew = await t.call('POST', `${linkPath}/notes`, {
      headers: { 'x-review-device': device },
      body: { versionId: v2._id, at: 0.5, text: 'Better now', name: 'Ada' },
    })
    expect(onNew.json.data.note).toMatchObject({ versionId: v2._id, versionNumber: 2 })
    const byDefault = await t.call('POST', `${linkPath}/notes`, {
      headers: { 'x-review-device': device },
      body: { at: 0.1, text: 'Current by default', name: 'Ada' },
    })
    expect(byDefault.json.data.note).toMatchObject({ versionNumber: 2 })
    // The studio's filter by version.
    const admin = async (version: number) =>
      (
        await t.call('GET', `/api/videos/${video._id}/notes?version=${version}`, { token })
      ).json.data.notes.map((n: Note) => n.text)
    expect(await admin(1)).toEqual(['Swell here', 'Still on the old cut'])
    expect(await admin(2)).toEqual(['Current by default', 'Better now'])
    // A time change is checked against the note's own version, and allowed.
    const moved = await t.call('PATCH', `${linkPath}/notes/${onOld.json.data.note.id}`, {
      headers: { 'x-review-device': device },
      body: { at: 0.7 },
    })
    expect(moved.status).toBe(200)

    // Version 1 deleted: its notes stay, with their number and no version id.
    const removed = await t.call('DELETE', `/api/videos/${video._id}/versions/${v1!._id}`, {
      token,
    })
    expect(removed.status).toBe(200)
    const after = await notesOf(linkPath)
    expect(after.filter((n) => n.versionNumber === 1).map((n) => [n.text, n.versionId])).toEqual([
      ['Swell here', null],
      ['Still on the old cut', null],
    ])
    expect(await admin(1)).toEqual(['Swell here', 'Still on the old cut'])
    // Its text may change; its times, with no version left to measure them by, may not.
    const noteId = made.json.data.note.id
    const retimed = await t.call('PATCH', `${linkPath}/notes/${noteId}`, {
      headers: { 'x-review-device': device },
      body: { at: 0.2 },
    })
    expect([retimed.status, retimed.json.message]).toEqual([409, VERSION_DELETED])
    const retexted = await t.call('PATCH', `${linkPath}/notes/${noteId}`, {
      headers: { 'x-review-device': device },
      body: { text: 'Swell here, please' },
    })
    expect(retexted.status).toBe(200)
    expect(retexted.json.data.note).toMatchObject({ versionNumber: 1, versionId: null })
    // A new note cannot name the deleted version, nor another work's.
    const onGone = await t.call('POST', `${linkPath}/notes`, {
      body: { versionId: v1!._id, at: 0.2, text: 'Late', name: 'Bo' },
    })
    expect(onGone.status).toBe(404)
    const elsewhere = await readyWork('Other Work')
    const [foreign] = await versionsOf(elsewhere._id)
    const onForeign = await t.call('POST', `${linkPath}/notes`, {
      body: { versionId: foreign!._id, at: 0.2, text: 'Wrong work', name: 'Bo' },
    })
    expect(onForeign.status).toBe(404)
  })
})

describe('the studio’s player of a version', () => {
  test('an earlier version plays from signed addresses; refusals are 404 and 401', async () => {
    const video = await readyWork('Night Drive')
    const v2 = await addVersion(video._id)
    await readyVersion(t, v2._id)
    const [v1] = await versionsOf(video._id)
    const r = await t.call('GET', `/api/videos/${video._id}/versions/${v1!._id}`, { token })
    expect(r.status).toBe(200)
    const answer = r.json.data as { version: Json; video: { hlsUrl: string } }
    expect(answer.version).toMatchObject({ number: 1, current: false })
    expect(folderOf(answer.video.hlsUrl)).toBe(folderOf(video.hlsUrl))
    expect(answer.video.hlsUrl).toMatch(/^\/media\/s\/\d+\/[\w-]{43}\/[0-9a-f]{32}\/master\.m3u8$/)
    expect(await statusOf(answer.video.hlsUrl)).toBe(200)
    const caller = await callerAs(t.app.services, token)
    const current = await caller.versions.get({ id: video._id, versionId: v2._id })
    expect(current.video.version).toBe(2)
    expect(current.version.current).toBe(true)
    for (const path of [
      `/api/videos/${video._id}/versions/nope`,
      `/api/videos/${video._id}/versions/00000000-0000-4000-8000-000000000000`,
    ]) {
      expect((await t.call('GET', path, { token })).status).toBe(404)
    }
    expect((await t.call('GET', `/api/videos/${video._id}/versions/${v1!._id}`)).status).toBe(401)
  })
})
