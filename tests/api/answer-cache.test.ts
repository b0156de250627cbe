// Cached video reads stay behind the same access rules and show every write at once.
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
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
afterAll(() => t?.stop(), 60_000)
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

const list = `/trpc/videos.list?input=${encodeURIComponent(JSON.stringify({ page: 1, limit: 10 }))}`
const titles = async (tk: string | null) => {
  const res = await t.fetch(list, { headers: tk ? { authorization: `Bearer ${tk}` } : {} })
  if (res.status !== 200) return res.status
  const body = (await res.json()) as { result: { data: { videos: { title: string }[] } } }
  return body.result.data.videos.map((v) => v.title)
}
/** An uploaded work, processed: visitors see works once their streams exist. */
async function upload(title: string) {
  const res = await send(
    t,
    'POST',
    '/api/videos/upload',
    token,
    form({ title }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
  )
  await readyWorks(t, [res.json.data.video._id])
  return res
}

test('a cached tRPC list still needs a session: 401 without one, even right after a hit', async () => {
  await upload('Cached One')
  expect(await titles(token)).toEqual(['Cached One'])
  expect(await titles(token)).toEqual(['Cached One'])
  expect(await titles(null)).toBe(401)
  expect(await titles('not-a-token')).toBe(401)
  await t.call('POST', '/api/auth/logout', { token })
  expect(await titles(token)).toBe(401)
})

test('writes show at once in cached lists (tRPC and public REST)', async () => {
  await upload('First')
  expect(await titles(token)).toEqual(['First'])
  const pub1 = await t.call('GET', '/api/public/videos')
  expect(pub1.json.data.videos.map((v: { title: string }) => v.title)).toEqual(['First'])
  const second = await upload('Second')
  expect(await titles(token)).toEqual(['Second', 'First'])
  await t.call('PATCH', `/api/videos/${second.json.data.video._id}`, {
    token,
    body: { title: 'Renamed' },
  })
  expect(await titles(token)).toEqual(['Renamed', 'First'])
  await t.call('DELETE', `/api/videos/${second.json.data.video._id}`, { token })
  expect(await titles(token)).toEqual(['First'])
  const pub2 = await t.call('GET', '/api/public/videos')
  expect(pub2.json.data.videos.map((v: { title: string }) => v.title)).toEqual(['First'])
})

test('the public list answers 304 to a matching If-None-Match', async () => {
  await upload('Etag')
  const first = await t.fetch('/api/public/videos')
  const etag = first.headers.get('etag')!
  expect(first.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate')
  const again = await t.fetch('/api/public/videos', { headers: { 'if-none-match': etag } })
  expect(again.status).toBe(304)
})
