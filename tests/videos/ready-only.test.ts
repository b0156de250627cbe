// A work reaches visitors only once its streams exist
// (docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md): a queued, a processing and a
// failed work are absent from the public list (whole, paged, tRPC), the landing page's data and the
// sitemap, and their page and embed answer as an unknown work does; a master answers 404 to a
// visitor in every state, and the cached answers follow a work that becomes ready. The states are
// the pipeline's own row writes (src/videos/rows.ts); readiness is a real run's outputs stored by
// markReady (testkit/ready.ts). Real database and storage, both pairings.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { videos } from '../../db/schema.ts'
import { startMediaQueue } from '../../src/processing/queue.ts'
import { markFailed, markProcessing, requeue } from '../../src/videos/rows.ts'
import { makeReady, prepareOutputs, readyWorks } from '../../testkit/ready.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { type Fixtures, fixtures, form, send } from '../../testkit/videos.ts'
import { webShell } from '../../testkit/web-shell.ts'

const SHELL = `<!doctype html>
<html lang="en">
  <head><title>Halftone Studio</title><meta name="description" content="The landing page." /></head>
  <body><div id="root"></div></body>
</html>`

let t: TestApp
let f: Fixtures
let token: string
let shell: ReturnType<typeof webShell>

beforeAll(async () => {
  shell = webShell(SHELL)
  t = await startTestApp({ WEB_DIST: shell.dir })
  f = await fixtures()
  await prepareOutputs(f.mp4)
}, 120_000)
afterAll(async () => {
  await t.stop()
  shell.remove()
})
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

type Work = { id: string; slug: string; title: string; master: string }

async function upload(title: string): Promise<Work> {
  const files = { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }
  const res = await send(t, 'POST', '/api/videos/upload', token, form({ title }, files))
  if (res.status !== 201) throw new Error(`${res.status} ${res.json.message}`)
  const { _id, slug } = res.json.data.video as { _id: string; slug: string }
  const [row] = await t.app.database.db
    .select({ videoKey: videos.videoKey })
    .from(videos)
    .where(eq(videos.id, _id))
  // The master's plain address: what a page or a visitor would have named.
  return { id: _id, slug, title, master: `/media/${row!.videoKey}` }
}

const jobOf = (work: Work) => ({ videoId: work.id, sourceKey: work.master.slice('/media/'.length) })

/** One work in each state, as the pipeline leaves them. */
async function oneOfEach() {
  const queued = await upload('Still Queued')
  const processing = await upload('Now Processing')
  expect(await markProcessing(t.app.database.db, jobOf(processing))).toBe(true)
  const failed = await upload('Has Failed')
  expect(await markProcessing(t.app.database.db, jobOf(failed))).toBe(true)
  expect(await markFailed(t.app.database.db, jobOf(failed), 'The file is not a video.')).toBe(true)
  const ready = await upload('Is Ready')
  await readyWorks(t, [ready.id])
  const statuses = await t.app.database.db
    .select({ id: videos.id, status: videos.status })
    .from(videos)
  const status = Object.fromEntries(statuses.map((row) => [row.id, row.status]))
  expect([queued, processing, failed, ready].map((w) => status[w.id])).toEqual([
    'queued',
    'processing',
    'failed',
    'ready',
  ])
  return { queued, processing, failed, ready, unready: [queued, processing, failed] }
}

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await t.fetch(path, { headers, redirect: 'manual' })
  return { status: res.status, headers: res.headers, text: await res.text() }
}
const pageData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html)![1]!)
const ids = (list: { _id: string }[]) => list.map((v) => v._id)

describe('a work without streams, or failed, is not on the site', () => {
  test('absent from the public list (whole, paged, tRPC), the landing page and the sitemap', async () => {
    const { ready, unready } = await oneOfEach()

    const whole = await t.call('GET', '/api/public/videos')
    expect(whole.status).toBe(200)
    expect(ids(whole.json.data.videos)).toEqual([ready.id])
    const paged = await t.call('GET', '/api/public/videos?limit=2')
    expect(ids(paged.json.data.videos)).toEqual([ready.id])
    expect(paged.json.data.nextCursor).toBeNull()
    const trpc = await get('/trpc/videos.publicList')
    const trpcPaged = await get(
      `/trpc/videos.publicList?input=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`,
    )
    for (const answer of [trpc, trpcPaged]) {
      expect(answer.status).toBe(200)
      expect(ids(JSON.parse(answer.text).result.data.videos)).toEqual([ready.id])
    }
    // Every work visitors get is ready, and names its MP4, never its master.
    expect(whole.json.data.videos[0]).toMatchObject({
      status: 'ready',
      videoUrl: expect.stringMatching(/^\/media\/[0-9a-f]{32}\/video\.mp4$/),
    })

    const landing = await get('/')
    expect(landing.status).toBe(200)
    const data = pageData(landing.text)
    expect(data.kind).toBe('landing')
    expect(ids(data.videos.videos)).toEqual([ready.id])
    const sitemap = await get('/sitemap.xml')
    expect(sitemap.text).toContain(`/work/${ready.slug}</loc>`)
    for (const work of unready) {
      for (const text of [whole, paged, trpc, landing, sitemap].map((a) =>
        'text' in a ? a.text : JSON.stringify(a.json),
      )) {
        expect(text).not.toContain(work.id)
        expect(text).not.toContain(work.master)
        expect(text).not.toContain(work.title)
      }
      expect(sitemap.text).not.toContain(`/work/${work.slug}`)
    }
    // No public answer names any master, the ready work's included.
    expect(JSON.stringify(whole.json)).not.toContain(ready.master)
    expect(landing.text).not.toContain(ready.master)
    expect(sitemap.text).not.toContain(ready.master)
  })

  test('its page and its embed answer 404 as an unknown work does', async () => {
    const { ready, unready } = await oneOfEach()
    const unknown = await get('/work/no-such-work')
    expect(unknown.status).toBe(404)
    for (const work of unready) {
      for (const path of [`/work/${work.slug}`, `/work/${work.slug}/embed`]) {
        const res = await get(path)
        expect({ path, status: res.status }).toEqual({ path, status: 404 })
        expect(res.headers.get('x-robots-tag')).toBe('noindex')
        expect(res.text).toBe(unknown.text)
      }
    }
    expect((await get(`/work/${ready.slug}`)).status).toBe(200)
    const embed = await get(`/work/${ready.slug}/embed`)
    expect(embed.status).toBe(200)
    expect(embed.text).not.toContain(ready.master)
  })

  test("a visitor's request for a master answers 404 in every state; an admin still gets it", async () => {
    const { queued, processing, failed, ready } = await oneOfEach()
    const bytes = await Bun.file(f.mp4).bytes()
    for (const work of [queued, processing, failed, ready]) {
      for (const init of [{}, { method: 'HEAD' }, { headers: { range: 'bytes=0-99' } }]) {
        const res = await t.fetch(work.master, init)
        expect({ work: work.title, status: res.status }).toEqual({ work: work.title, status: 404 })
      }
      const admin = await t.fetch(work.master, { headers: { authorization: `Bearer ${token}` } })
      expect(admin.status).toBe(200)
      expect(new Uint8Array(await admin.arrayBuffer())).toEqual(bytes)
      // A failed work's files are the admins' alone, under its signed prefix
      // (docs/decisions/064-a-hidden-works-media-by-set-lookup-signed-prefixes-and-link-paths.md).
      if (work === failed) continue
      const link = await t.call('GET', `/api/videos/${work.id}/master`, { token })
      expect((await t.fetch(link.json.data.url)).status).toBe(200)
    }
  })
})

describe('the cached answers follow a work that becomes ready', () => {
  test('the same URLs show it once another process stores its streams, without a restart', async () => {
    const work = await upload('Arrives Later')
    const before = await get('/api/public/videos')
    expect(JSON.parse(before.text).data.videos).toEqual([])
    const landingBefore = await get('/')
    expect(pageData(landingBefore.text).videos.videos).toEqual([])
    expect((await get(`/work/${work.slug}`)).status).toBe(404)

    // Written as a worker in another process writes it: this app's caches are not told.
    await makeReady(t.app.database.db, t.app.services.media, [work.id])
    const deadline = Date.now() + 10_000
    let after = await get('/api/public/videos')
    while (JSON.parse(after.text).data.videos.length === 0 && Date.now() < deadline) {
      await Bun.sleep(100)
      after = await get('/api/public/videos')
    }
    expect(ids(JSON.parse(after.text).data.videos)).toEqual([work.id])
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(ids(pageData((await get('/')).text).videos.videos)).toEqual([work.id])
    expect((await get(`/work/${work.slug}`)).status).toBe(200)
    expect((await get('/sitemap.xml')).text).toContain(`/work/${work.slug}</loc>`)
  })

  test('a reprocessed work stays shown with its previous streams until the new ones replace them', async () => {
    const work = await upload('Reprocessed')
    await readyWorks(t, [work.id])
    const first = (await t.call('GET', '/api/public/videos')).json.data.videos[0]
    // As `bun run media:reprocess` puts it back in the queue (src/processing/reprocess.ts).
    const { database, config } = t.app
    const queue = await startMediaQueue({
      target: database.poolTarget,
      embedded: database.embedded,
      media: config.media,
      supervise: false,
    })
    try {
      expect(await requeue(database.db, queue, [work.id], ['ready'])).toEqual([work.id])
    } finally {
      await queue.stop()
    }
    expect(await markProcessing(t.app.database.db, jobOf(work))).toBe(true)
    t.app.services.videos.invalidate()
    const during = (await t.call('GET', '/api/public/videos')).json.data.videos
    expect(during).toEqual([first])
    expect((await get(`/work/${work.slug}`)).status).toBe(200)
    expect((await t.fetch(first.hlsUrl)).status).toBe(200)

    await readyWorks(t, [work.id])
    const [now] = (await t.call('GET', '/api/public/videos')).json.data.videos
    expect(now.hlsUrl).not.toBe(first.hlsUrl)
    expect(now).toMatchObject({ status: 'ready', videoUrl: now.mp4Url })
    // The previous folder is gone: a page that named it must ask for the current sources.
    expect((await t.fetch(first.hlsUrl)).status).toBe(404)
    expect((await t.fetch(work.master)).status).toBe(404)
  })
})
