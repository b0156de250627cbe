// Uploads given twice: one id for two kinds in one call, or the same uploads in parallel calls.
// Every answer is a clear 4xx, never a 500, and no call leaves a half-made video or a lost upload.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import {
  bytesOf,
  type Fixtures,
  fixtures,
  mediaAndRows,
  tusVia,
  uploadTrio,
} from '../../testkit/videos.ts'

let t: TestApp
let f: Fixtures
let token: string

beforeAll(async () => {
  t = await startTestApp()
  f = await fixtures()
}, 120_000)
afterAll(() => t.stop())
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

type TrpcAnswer = {
  status: number
  error?: { message: string; data: { field: string | null } }
  result?: { data: { video: { _id: string } } }
}

async function trpc(procedure: string, input: unknown): Promise<TrpcAnswer> {
  const r = await t.call('POST', `/trpc/${procedure}`, { token, body: input })
  return { status: r.status, ...(r.json as Omit<TrpcAnswer, 'status'>) }
}

/** The tRPC error as the web app reads it. */
const refusalOf = (r: TrpcAnswer) => ({
  status: r.status,
  message: r.error?.message,
  field: r.error?.data.field,
})

async function videoCount() {
  const r = await t.call('GET', '/api/videos?limit=100', { token })
  return r.json.data.total as number
}

describe('one upload given for two kinds', () => {
  test('the same image as thumbnail and brand logo: 400 on the second, nothing made', async () => {
    const uploads = await uploadTrio(t, token, f)
    const r = await trpc('videos.create', {
      title: 'Twice',
      uploads: { ...uploads, brandLogo: uploads.thumbnail },
    })
    expect(refusalOf(r)).toEqual({
      status: 400,
      message: 'The same upload cannot be used for two files',
      field: 'brandLogo',
    })
    expect(await videoCount()).toBe(0)
    expect(await mediaAndRows(t)).toEqual({ files: [], keys: [] })
    // Nothing was spent: the uploads make the video once each is given once.
    const ok = await trpc('videos.create', { title: 'Once', uploads })
    expect(ok.status).toBe(200)
  })

  test('the same upload as video and thumbnail: the same 400, not a type error', async () => {
    const uploads = await uploadTrio(t, token, f)
    const r = await trpc('videos.create', {
      title: 'Twice',
      uploads: { ...uploads, thumbnail: uploads.video },
    })
    expect(refusalOf(r)).toEqual({
      status: 400,
      message: 'The same upload cannot be used for two files',
      field: 'thumbnail',
    })
    expect((await tusVia(t, token).head(`/uploads/${uploads.video}`)).status).toBe(200)
  })

  test('on edit too', async () => {
    const created = await trpc('videos.create', {
      title: 'Edit twice',
      uploads: await uploadTrio(t, token, f),
    })
    const id = created.result!.data.video._id
    const logo = await tusVia(t, token).upload(await bytesOf(f.png), 'brandLogo')
    const r = await trpc('videos.update', { id, uploads: { thumbnail: logo, brandLogo: logo } })
    expect(refusalOf(r)).toMatchObject({ status: 400, field: 'brandLogo' })
    expect((await tusVia(t, token).head(`/uploads/${logo}`)).status).toBe(200)
  })
})

describe('the same uploads in parallel calls', () => {
  test('parallel creates with one set of uploads: one video, the rest 409 or 400, no 500', async () => {
    const uploads = await uploadTrio(t, token, f)
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => trpc('videos.create', { title: `Racer ${i}`, uploads })),
    )
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 200)) {
      const refusal = refusalOf(r)
      expect([400, 409]).toContain(refusal.status)
      expect(refusal.field).toMatch(/^(video|thumbnail|brandLogo)$/)
      expect(refusal.message).toMatch(
        /^(This upload is already being saved with another request|The uploaded file was not found or has expired\. Please upload it again)$/,
      )
    }
    expect(await videoCount()).toBe(1)
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
    expect(files).toHaveLength(3)
  })

  test('parallel creates sharing only the thumbnail: exactly one wins, the others keep theirs', async () => {
    const shared = await tusVia(t, token).upload(await bytesOf(f.jpg), 'thumbnail')
    const sets = await Promise.all(
      Array.from({ length: 4 }, async () => ({
        ...(await uploadTrio(t, token, f)),
        thumbnail: shared,
      })),
    )
    const results = await Promise.all(
      sets.map((uploads, i) => trpc('videos.create', { title: `Share ${i}`, uploads })),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 200)) {
      expect([400, 409]).toContain(r.status)
      expect(refusalOf(r).field).toBe('thumbnail')
    }
    // A loser's own video and logo were not spent: with a new thumbnail they make a video.
    const loser = sets[results.findIndex((r) => r.status !== 200)]!
    const thumbnail = await tusVia(t, token).upload(await bytesOf(f.jpg), 'thumbnail')
    expect(
      (await trpc('videos.create', { title: 'Loser', uploads: { ...loser, thumbnail } })).status,
    ).toBe(200)
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
  })

  test('parallel edits of two videos with one new thumbnail: one takes it, no 500', async () => {
    const ids = []
    for (const title of ['Edit A', 'Edit B']) {
      const r = await trpc('videos.create', { title, uploads: await uploadTrio(t, token, f) })
      ids.push(r.result!.data.video._id)
    }
    const thumb = await tusVia(t, token).upload(await bytesOf(f.webp), 'thumbnail')
    const results = await Promise.all(
      ids.map((id) => trpc('videos.update', { id, uploads: { thumbnail: thumb } })),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    const lost = results.find((r) => r.status !== 200)!
    expect([400, 409]).toContain(lost.status)
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
  })
})
