// The public list at catalogue size (docs/decisions/051-keyset-pages-of-the-public-list.md): no cap
// without parameters, keyset pages with `limit` and `cursor` that return every published work
// exactly once in the curated order, also while works are added, and clear refusals of bad cursors.
// Real database, real handler.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { sql } from 'drizzle-orm'
import { invalidCursor } from '../../src/contract/video.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp

beforeAll(async () => {
  t = await startTestApp()
}, 120_000)
afterAll(() => t.stop())
beforeEach(() => t.reset())

/**
 * `n` ready works straight into the table (files are not read by the list; visitors see only
 * works whose streams exist). Positions come in runs of three and creation times in runs of two,
 * so every tie-breaker of the order is exercised.
 */
async function addWorks(n: number, from = 0, hiddenEvery = 0) {
  await t.app.database.db.execute(sql`
    insert into videos (title, slug, video_key, video_type, video_size, thumbnail_key, thumbnail_type,
      thumbnail_size, brand_logo_key, brand_logo_type, brand_logo_size, position, published, created_at,
      status, progress, streams_key)
    select 'Work ' || g, 'work-' || g, 'v' || g || '.mp4', 'video/mp4', 1, 't' || g || '.jpg', 'image/jpeg', 1,
      'l' || g || '.png', 'image/png', 1, g / 3,
      ${hiddenEvery}::int = 0 or g % ${hiddenEvery || 1}::int <> 0,
      timestamptz '2026-01-01' + (g / 2) * interval '1.000001 second',
      'ready', 100, md5('work-' || g)
    from generate_series(${from}::int, ${from + n - 1}::int) as g`)
  t.app.services.videos.invalidate()
}

type Page = { status: number; titles: string[]; next: string | null; json: Record<string, unknown> }
async function page(query: string): Promise<Page> {
  const res = await t.call('GET', `/api/public/videos${query}`)
  const videos = (res.json.data?.videos ?? []) as { title: string }[]
  return {
    status: res.status,
    titles: videos.map((v) => v.title),
    next: (res.json.data?.nextCursor as string | null | undefined) ?? null,
    json: res.json as unknown as Record<string, unknown>,
  }
}

async function walk(limit: number, between?: (n: number) => Promise<void>) {
  const seen: string[] = []
  let cursor: string | null = null
  for (let n = 0; n < 1000; n++) {
    const p = await page(`?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    expect(p.status).toBe(200)
    seen.push(...p.titles)
    if (!p.next) return seen
    cursor = p.next
    await between?.(n)
  }
  throw new Error('the pages never ended')
}

describe('GET /api/public/videos with 1,200 works', () => {
  test('without parameters: every published work, in order, no cap', async () => {
    await addWorks(1200, 0, 7)
    const all = await page('')
    expect(all.status).toBe(200)
    expect(all.json.status).toBe('success')
    const hidden = Math.floor(1199 / 7) + 1
    expect(all.titles).toHaveLength(1200 - hidden)
    expect(new Set(all.titles).size).toBe(all.titles.length)
    expect(all.titles).not.toContain('Work 7')
  })

  test('the pages together return every published work exactly once, in order', async () => {
    await addWorks(1200, 0, 7)
    const all = (await page('')).titles
    expect(await walk(100)).toEqual(all)
    expect(await walk(37)).toEqual(all)
  })

  test('cursors stay stable while works are added: none lost, none repeated', async () => {
    await addWorks(1200)
    const before = (await page('')).titles
    // New works lead the curated order, so they never push a page's end along.
    const seen = await walk(100, async (n) => {
      for (let i = 0; i < 3; i++) {
        const res = await t.app.database.db.execute(sql`
          insert into videos (title, slug, video_key, video_type, video_size, thumbnail_key,
            thumbnail_type, thumbnail_size, brand_logo_key, brand_logo_type, brand_logo_size, position,
            status, progress, streams_key)
          select ${`New ${n}-${i}`}, ${`new-${n}-${i}`}, 'nv.mp4', 'video/mp4', 1, 'nt.jpg', 'image/jpeg', 1, 'nl.png',
            'image/png', 1, coalesce(min(position), 1) - 1, 'ready', 100, md5(${`new-${n}-${i}`})
            from videos returning id`)
        expect(res.length ?? 1).toBeGreaterThan(0)
      }
      t.app.services.videos.invalidate()
    })
    expect(seen).toEqual(before)
    expect((await page('')).titles).toHaveLength(1200 + 11 * 3)
  }, 60_000)

  test('tRPC publicList pages the same way', async () => {
    await addWorks(30)
    const call = async (input: unknown) => {
      const res = await t.fetch(
        `/trpc/videos.publicList?input=${encodeURIComponent(JSON.stringify(input))}`,
      )
      expect(res.status).toBe(200)
      return (
        (await res.json()) as {
          result: { data: { videos: { title: string }[]; nextCursor: string | null } }
        }
      ).result.data
    }
    const first = await call({ limit: 20 })
    const second = await call({ limit: 20, cursor: first.nextCursor })
    expect(second.nextCursor).toBeNull()
    expect([...first.videos, ...second.videos].map((v) => v.title)).toEqual((await page('')).titles)
  })
})

describe('refusals', () => {
  test('a malformed or unknown cursor answers 400 with a clear message', async () => {
    await addWorks(5)
    const forged = (value: unknown) =>
      encodeURIComponent(Buffer.from(JSON.stringify(value)).toString('base64url'))
    for (const cursor of [
      'abc',
      '%00',
      forged({ a: 1 }),
      forged([1, '2026-01-01', 'not-a-uuid']),
      forged([1.5, '2026-01-01 00:00:00+00', '0b3f3c1e-1111-4222-8333-944445555666']),
      forged([1, "2026-01-01'; drop table videos; --", '0b3f3c1e-1111-4222-8333-944445555666']),
      'x'.repeat(400),
    ]) {
      const p = await page(`?cursor=${cursor}`)
      expect(p.status).toBe(400)
      expect(p.json).toMatchObject({ status: 'error', message: invalidCursor, field: 'cursor' })
    }
    for (const limit of ['0', '101', 'ten', '-1', '2.5']) {
      const p = await page(`?limit=${limit}`)
      expect(p.status).toBe(400)
      expect(String(p.json.message)).toBe('Limit is a number from 1 to 100')
    }
    expect((await page('')).titles).toHaveLength(5)
  })
})

describe('compression', () => {
  test('a page and the whole list decode to the same JSON in br, gzip and identity', async () => {
    await addWorks(200)
    for (const path of ['/api/public/videos', '/api/public/videos?limit=50']) {
      const plain = await t.fetch(path)
      const identity = await plain.text()
      const br = await t.fetch(path, { headers: { 'accept-encoding': 'br' } })
      expect(br.headers.get('content-encoding')).toBe('br')
      expect(br.headers.get('vary')).toContain('Accept-Encoding')
      const brText = brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()
      const gz = await t.fetch(path, { headers: { 'accept-encoding': 'gzip' } })
      expect(gz.headers.get('content-encoding')).toBe('gzip')
      const gzText = gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()
      expect(JSON.parse(brText)).toEqual(JSON.parse(identity))
      expect(JSON.parse(gzText)).toEqual(JSON.parse(identity))
    }
  })
})
