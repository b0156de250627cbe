import { expect, test } from 'bun:test'
import { ReadCache } from '../../src/db/read-cache.ts'

test('answers are reused until invalidated', async () => {
  const cache = new ReadCache()
  let loads = 0
  const load = async () => ++loads
  expect(await cache.get('k', load)).toBe(1)
  expect(await cache.get('k', load)).toBe(1)
  cache.invalidate()
  expect(await cache.get('k', load)).toBe(2)
})

test('a read that began before a write finished is not kept', async () => {
  const cache = new ReadCache()
  let release!: () => void
  const slow = cache.get('k', () => new Promise<string>((r) => (release = () => r('stale'))))
  cache.invalidate() // a write commits while the read is in flight
  release()
  expect(await slow).toBe('stale')
  expect(await cache.get('k', async () => 'fresh')).toBe('fresh')
})

test('the number of kept answers is bounded', async () => {
  const cache = new ReadCache(3)
  for (let i = 0; i < 10; i++) await cache.get(`k${i}`, async () => i)
  let loads = 0
  await cache.get('k0', async () => ++loads)
  expect(loads).toBe(1)
})

test('answers are cached as bytes per key, revalidate by ETag and change with the version', async () => {
  const { AnswerCache } = await import('../../src/http/response-cache.ts')
  let version = 1
  let produced = 0
  const cache = new AnswerCache(() => version)
  const produce = async () => Response.json({ n: ++produced })
  const a = await cache.answer('k', new Request('http://x/'), produce)
  expect(await a.json()).toEqual({ n: 1 })
  const etag = a.headers.get('etag')!
  expect((await cache.answer('k', new Request('http://x/'), produce)).headers.get('etag')).toBe(
    etag,
  )
  expect(produced).toBe(1)
  expect(await (await cache.answer('other', new Request('http://x/'), produce)).json()).toEqual({
    n: 2,
  })
  const revalidated = await cache.answer(
    'k',
    new Request('http://x/', { headers: { 'if-none-match': etag } }),
    produce,
  )
  expect(revalidated.status).toBe(304)
  version = 2
  const b = await cache.answer(
    'k',
    new Request('http://x/', { headers: { 'if-none-match': etag } }),
    produce,
  )
  expect(b.status).toBe(200)
  expect(await b.json()).toEqual({ n: 3 })
  const failed = await cache.answer(
    'bad',
    new Request('http://x/'),
    async () => new Response('no', { status: 404 }),
  )
  expect(failed.status).toBe(404)
})

test('upload slots: at most the limit per session, released once', async () => {
  const { UploadSlots } = await import('../../src/uploads/upload-slots.ts')
  const slots = new UploadSlots(2)
  const a = slots.acquire('s1')
  slots.acquire('s1')
  expect(() => slots.acquire('s1')).toThrow('Too many uploads at once')
  expect(() => slots.acquire('s2')).not.toThrow()
  a()
  a()
  expect(() => slots.acquire('s1')).not.toThrow()
  expect(() => slots.acquire('s1')).toThrow()
})
