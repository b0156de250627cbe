// The curated portfolio (docs/decisions/050-curated-order-as-positions-handed-around.md): an order
// admins set and a 'Published' switch, through the real fetch handler (REST and tRPC) on a real
// database. New videos lead the order; hidden ones stay in the dashboard and leave the public list.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { prepareOutputs, readyWorks } from '../../testkit/ready.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { type Fixtures, fixtures, form, send } from '../../testkit/videos.ts'

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
  await t.app.database.db.execute(sql`truncate table activity_log`).catch(() => {})
  token = await t.login()
})

/** An uploaded work, processed: visitors see works once their streams exist. */
async function created(title: string): Promise<string> {
  const files = { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }
  const res = await send(t, 'POST', '/api/videos/upload', token, form({ title }, files))
  if (res.status !== 201) throw new Error(`${res.status} ${res.json.message}`)
  await readyWorks(t, [res.json.data.video._id])
  return res.json.data.video._id
}

/** Titles in the order the public page gets them. */
async function publicTitles(): Promise<string[]> {
  const res = await t.call('GET', '/api/public/videos')
  expect(res.status).toBe(200)
  return res.json.data.videos.map((v: { title: string }) => v.title)
}

async function manageTitles(order: 'newest' | 'curated'): Promise<string[]> {
  const res = await t.call('GET', `/api/videos?limit=100&order=${order}`, { token })
  expect(res.status).toBe(200)
  return res.json.data.videos.map((v: { title: string }) => v.title)
}

describe('the curated order', () => {
  test('a new video leads it; by default it is the newest-first order', async () => {
    const ids = [await created('One'), await created('Two'), await created('Three')]
    expect(ids).toHaveLength(3)
    expect(await publicTitles()).toEqual(['Three', 'Two', 'One'])
    expect(await manageTitles('curated')).toEqual(['Three', 'Two', 'One'])
    expect(await manageTitles('newest')).toEqual(['Three', 'Two', 'One'])
  })

  test('reorder: the videos take the places they held, in the order given; others stay', async () => {
    const [one, two, three, four] = [
      await created('One'),
      await created('Two'),
      await created('Three'),
      await created('Four'),
    ]
    // Curated today: Four, Three, Two, One. Swap Three and One (as a drag on a page would).
    const res = await t.call('POST', '/api/videos/reorder', {
      token,
      body: { ids: [one, two, three] },
    })
    expect(res.status).toBe(200)
    expect(res.json.data.reordered).toBe(2)
    expect(await publicTitles()).toEqual(['Four', 'One', 'Two', 'Three'])
    expect(await manageTitles('curated')).toEqual(['Four', 'One', 'Two', 'Three'])
    // The admins' list keeps its newest-first order, and stays the REST default.
    expect(await manageTitles('newest')).toEqual(['Four', 'Three', 'Two', 'One'])
    const plain = await t.call('GET', '/api/videos', { token })
    expect(plain.json.data.videos.map((v: { title: string }) => v.title)).toEqual([
      'Four',
      'Three',
      'Two',
      'One',
    ])
    // A new video still leads.
    await created('Five')
    expect(await publicTitles()).toEqual(['Five', 'Four', 'One', 'Two', 'Three'])
    expect(four).toBeString()
  })

  test('over tRPC, the order the dashboard sends is the order visitors see', async () => {
    const a = await created('Alpha')
    const b = await created('Beta')
    const c = await created('Gamma')
    const res = await t.fetch('/trpc/videos.reorder', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [a, b, c] }),
    })
    expect(res.status).toBe(200)
    expect(await publicTitles()).toEqual(['Alpha', 'Beta', 'Gamma'])
    const list = await t.fetch(
      `/trpc/videos.list?input=${encodeURIComponent(JSON.stringify({ page: 1, limit: 10, order: 'curated' }))}`,
      { headers: { authorization: `Bearer ${token}` } },
    )
    const body = (await list.json()) as { result: { data: { videos: { title: string }[] } } }
    expect(body.result.data.videos.map((v) => v.title)).toEqual(['Alpha', 'Beta', 'Gamma'])
  })

  test('videos created at one moment (one position) can still be put in any order', async () => {
    const ids = [await created('A'), await created('B'), await created('C')]
    await t.app.database.db.execute(sql`update videos set position = 7`)
    t.app.services.videos.invalidate()
    const res = await t.call('POST', '/api/videos/reorder', {
      token,
      body: { ids: [ids[1], ids[0], ids[2]] },
    })
    expect(res.status).toBe(200)
    expect(await publicTitles()).toEqual(['B', 'A', 'C'])
  })

  test('bad input changes nothing: unknown id 404, a repeated id or one id 400, no session 401', async () => {
    const a = await created('Alpha')
    const b = await created('Beta')
    const before = await publicTitles()
    const unknown = await t.call('POST', '/api/videos/reorder', {
      token,
      body: { ids: [a, '0b3f3c1e-1111-4222-8333-944445555666'] },
    })
    expect(unknown.status).toBe(404)
    expect(unknown.json.message).toBe('Video not found')
    const garbage = await t.call('POST', '/api/videos/reorder', { token, body: { ids: [a, 'x'] } })
    expect(garbage.status).toBe(404)
    const repeated = await t.call('POST', '/api/videos/reorder', { token, body: { ids: [a, a] } })
    expect(repeated.status).toBe(400)
    expect(repeated.json.message).toBe('Each video may appear only once')
    const single = await t.call('POST', '/api/videos/reorder', { token, body: { ids: [a] } })
    expect(single.status).toBe(400)
    const notList = await t.call('POST', '/api/videos/reorder', { token, body: { ids: 'a,b' } })
    expect(notList.status).toBe(400)
    const anonymous = await t.call('POST', '/api/videos/reorder', { body: { ids: [b, a] } })
    expect(anonymous.status).toBe(401)
    const badOrder = await t.call('GET', '/api/videos?order=random', { token })
    expect(badOrder.status).toBe(400)
    expect(badOrder.json.message).toBe('Order is newest or curated')
    expect(await publicTitles()).toEqual(before)
  })
})

describe('the Published switch', () => {
  test('a hidden video leaves the public list and the tRPC public list; the dashboard keeps it', async () => {
    const a = await created('Shown')
    const b = await created('Hidden')
    const res = await t.call('PUT', `/api/videos/${b}/published`, {
      token,
      body: { published: false },
    })
    expect(res.status).toBe(200)
    expect(res.json.data.video).toMatchObject({ _id: b, title: 'Hidden', published: false })
    expect(await publicTitles()).toEqual(['Shown'])
    const trpc = await t.fetch('/trpc/videos.publicList')
    const body = (await trpc.json()) as { result: { data: { videos: { _id: string }[] } } }
    expect(body.result.data.videos.map((v) => v._id)).toEqual([a])
    // Still listed, counted and editable in the dashboard.
    expect(await manageTitles('newest')).toEqual(['Hidden', 'Shown'])
    const one = await t.call('GET', `/api/videos/${b}`, { token })
    expect(one.json.data.video.published).toBe(false)
    const stats = await t.fetch('/trpc/videos.stats', {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(
      ((await stats.json()) as { result: { data: { totalVideos: number } } }).result.data,
    ).toEqual({ totalVideos: 2 })
    // Published again, it comes back at its place.
    await t.call('PUT', `/api/videos/${b}/published`, { token, body: { published: true } })
    expect(await publicTitles()).toEqual(['Hidden', 'Shown'])
  })

  test('bad input changes nothing: not a boolean 400, unknown id 404, no session 401', async () => {
    const a = await created('Alpha')
    const notBool = await t.call('PUT', `/api/videos/${a}/published`, {
      token,
      body: { published: 'no' },
    })
    expect(notBool.status).toBe(400)
    expect(notBool.json.message).toBe('Published is true or false')
    const unknown = await t.call(
      'PUT',
      '/api/videos/0b3f3c1e-1111-4222-8333-944445555666/published',
      { token, body: { published: false } },
    )
    expect(unknown.status).toBe(404)
    const anonymous = await t.call('PUT', `/api/videos/${a}/published`, {
      body: { published: false },
    })
    expect(anonymous.status).toBe(401)
    expect(await publicTitles()).toEqual(['Alpha'])
  })
})

describe('the activity log', () => {
  test('a reorder and a publish change are recorded with who and what', async () => {
    const a = await created('Alpha')
    const b = await created('Beta')
    await t.call('POST', '/api/videos/reorder', { token, body: { ids: [a, b] } })
    await t.call('PUT', `/api/videos/${a}/published`, { token, body: { published: false } })
    const res = await t.call('GET', '/api/activity?limit=10', { token })
    expect(res.status).toBe(200)
    const entries = res.json.data.entries as { kind: string; summary: string }[]
    const kinds = entries.map((e) => e.kind)
    expect(kinds).toContain('video.reorder')
    expect(kinds).toContain('video.publish')
    expect(entries.find((e) => e.kind === 'video.publish')?.summary).toBe(
      'Hid “Alpha” from the public page',
    )
    expect(entries.find((e) => e.kind === 'video.reorder')?.summary).toContain('“Alpha”')
  })
})
