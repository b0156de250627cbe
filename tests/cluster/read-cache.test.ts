// Cached answers on two servers sharing one database: an edit made through one shows in the
// other's public answers (the video list, the site content) within about a second, the period
// of the change watches (src/db/changes.ts), though the other server never saw the write.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { watchVideoChanges } from '../../src/db/changes.ts'
import { openDatabase } from '../../src/db/database.ts'
import { createTestDatabase } from '../../testkit/database.ts'
import { fixtures } from '../../testkit/media.ts'
import { makeReady, onServer } from '../../testkit/ready.ts'
import { type E2EServer, startServerPair } from '../../testkit/server.ts'
import { describeSkipIf } from '../../testkit/skip.ts'
import { type UploadedVideo, uploadVideo } from '../../testkit/upload.ts'

/** The poll's period, plus the poll's query and the list's own. */
const FOLLOWS_WITHIN_MS = 1500

let a: E2EServer
let b: E2EServer
let pair: Awaited<ReturnType<typeof startServerPair>>
let token: string
let video: UploadedVideo

const publicTitles = async (server: E2EServer) => {
  const res = await fetch(`${server.url}/api/public/videos`)
  expect(res.status).toBe(200)
  const body = (await res.json()) as { data: { videos: { title: string }[] } }
  return body.data.videos.map((v) => v.title)
}

/** How long until `server`'s public list passes `check`; fails past `withinMs`. */
async function timeUntil(
  server: E2EServer,
  check: (titles: string[]) => boolean,
  withinMs: number,
) {
  const started = performance.now()
  while (!check(await publicTitles(server))) {
    if (performance.now() - started > withinMs * 3) break
    await Bun.sleep(25)
  }
  const waited = performance.now() - started
  expect(check(await publicTitles(server))).toBe(true)
  return waited
}

const edit = (path: string, method: string, body: unknown) =>
  fetch(`${a.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

test('the change watch notices any committed write to the videos, whichever column it changes', async () => {
  const testDb = await createTestDatabase()
  const database = await openDatabase(testDb)
  const { db } = database
  let changes = 0
  let stop = () => {}
  try {
    if (testDb.databaseUrl) {
      const { runMigrations } = await import('../../src/db/database.ts')
      await runMigrations(database)
    }
    stop = watchVideoChanges(db, () => changes++, 50)
    const seen = async (write: () => Promise<unknown>) => {
      const before = changes
      await write()
      const deadline = performance.now() + 2000
      while (changes === before && performance.now() < deadline) await Bun.sleep(10)
      return changes > before
    }
    await Bun.sleep(100)
    expect(
      await seen(() =>
        db.execute(sql`insert into videos (title, slug, video_key, video_type, video_size,
          thumbnail_key, thumbnail_type, thumbnail_size, brand_logo_key, brand_logo_type,
          brand_logo_size) values ('One', 'one', 'v', 'video/mp4', 1, 't', 'image/jpeg', 1,
          'b', 'image/png', 1)`),
      ),
    ).toBe(true)
    expect(await seen(() => db.execute(sql`update videos set title = 'Two'`))).toBe(true)
    expect(await seen(() => db.execute(sql`update videos set published = false`))).toBe(true)
    expect(await seen(() => db.execute(sql`update videos set position = position - 1`))).toBe(true)
    expect(await seen(() => db.execute(sql`delete from videos`))).toBe(true)
    // Nothing written, nothing reported.
    expect(await seen(() => Bun.sleep(300))).toBe(false)
  } finally {
    stop()
    await database.close()
    await testDb.drop()
  }
}, 60_000)

describeSkipIf(
  !process.env.TEST_DATABASE_URL &&
    'needs TEST_DATABASE_URL: only a database server is shared by several servers',
)('public answers on two servers with one database', () => {
  beforeAll(async () => {
    pair = await startServerPair({ MEDIA_WORKERS: '0' })
    ;({ a, b } = pair)
    token = (await a.apiLogin()).token
  }, 180_000)
  afterAll(async () => {
    await pair?.stop()
  }, 60_000)

  test("a work made ready, a title edit and hiding a work on A show in B's cached list within a second", async () => {
    // B answers before each change, so its answer is cached when A changes it.
    expect(await publicTitles(b)).toEqual([])
    video = await uploadVideo(a.url, token, 'First cut', await fixtures())
    // Visitors get a work once its streams exist: a pipeline's write on A's database.
    await onServer(a, (db, store) => makeReady(db, store, [video._id]))
    expect(await timeUntil(b, (t) => t.includes('First cut'), FOLLOWS_WITHIN_MS)).toBeLessThan(
      FOLLOWS_WITHIN_MS,
    )

    expect(await publicTitles(b)).toEqual(['First cut'])
    expect((await edit(`/api/videos/${video._id}`, 'PATCH', { title: 'Final cut' })).status).toBe(
      200,
    )
    expect(await timeUntil(b, (t) => t.includes('Final cut'), FOLLOWS_WITHIN_MS)).toBeLessThan(
      FOLLOWS_WITHIN_MS,
    )

    expect(
      (await edit(`/api/videos/${video._id}/published`, 'PUT', { published: false })).status,
    ).toBe(200)
    expect(await timeUntil(b, (t) => t.length === 0, FOLLOWS_WITHIN_MS)).toBeLessThan(
      FOLLOWS_WITHIN_MS,
    )
  }, 30_000)

  test("a site save on A shows in B's public site within a second", async () => {
    const heroLine = async () => {
      const res = await fetch(`${b.url}/api/public/site`)
      expect(res.status).toBe(200)
      return ((await res.json()) as { data: { site: { hero: { line: string } } } }).data.site.hero
        .line
    }
    const before = await heroLine()
    const state = (await (
      await fetch(`${a.url}/api/site`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { data: { version: number; content: { hero: { line: string } } } }
    const content = { ...state.data.content, hero: { ...state.data.content.hero } }
    content.hero.line = 'Music where words stop.'
    expect(content.hero.line).not.toBe(before)
    const saved = await edit('/api/site', 'PUT', { baseVersion: state.data.version, content })
    expect(saved.status).toBe(200)
    const started = performance.now()
    while ((await heroLine()) !== content.hero.line) {
      if (performance.now() - started > FOLLOWS_WITHIN_MS * 3) break
      await Bun.sleep(25)
    }
    expect(await heroLine()).toBe(content.hero.line)
    expect(performance.now() - started).toBeLessThan(FOLLOWS_WITHIN_MS)
  }, 30_000)
})
