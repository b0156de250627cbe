// Clients' notes on two servers sharing one database (docs/review.md): a note a client leaves
// through server A is in the dashboard's list on server B within 5 s, and the open count in B's
// cached admin list follows, though B never saw the write.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { fixtures } from '../../testkit/media.ts'
import { makeReady, onServer } from '../../testkit/ready.ts'
import { type E2EServer, startServerPair } from '../../testkit/server.ts'
import { describeSkipIf } from '../../testkit/skip.ts'
import { uploadVideo } from '../../testkit/upload.ts'

/** The dashboard's promise: a note shows within this, whichever server took it. */
const WITHIN_MS = 5000

let a: E2EServer
let b: E2EServer
let pair: Awaited<ReturnType<typeof startServerPair>>
let token: string

const asAdmin = (server: E2EServer, path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  })

describeSkipIf(
  !process.env.TEST_DATABASE_URL &&
    'needs TEST_DATABASE_URL: only a database server is shared by several servers',
)('notes on two servers with one database', () => {
  beforeAll(async () => {
    pair = await startServerPair({ MEDIA_WORKERS: '0' })
    ;({ a, b } = pair)
    token = (await a.apiLogin()).token
  }, 180_000)
  afterAll(async () => {
    await pair?.stop()
  }, 60_000)

  test('a note through A is listed on B within 5 s, and B’s cached list counts it', async () => {
    const video = await uploadVideo(a.url, token, 'Shared cut', await fixtures())
    await onServer(a, (db, store) => makeReady(db, store, [video._id]))
    const made = await asAdmin(a, `/api/videos/${video._id}/links`, { method: 'POST', body: '{}' })
    expect(made.status).toBe(201)
    const linkPath = new URL(
      ((await made.json()) as { data: { link: { url: string } } }).data.link.url,
    ).pathname
    const listInput = encodeURIComponent(JSON.stringify({ page: 1, limit: 10 }))
    const openOnB = async () => {
      const res = await asAdmin(b, `/trpc/videos.list?input=${listInput}`)
      const body = (await res.json()) as { result: { data: { videos: { openNotes: number }[] } } }
      return body.result.data.videos[0]?.openNotes
    }
    const notesOnB = async () => {
      const res = await asAdmin(b, `/api/videos/${video._id}/notes`)
      expect(res.status).toBe(200)
      return ((await res.json()) as { data: { notes: { text: string }[] } }).data.notes
    }
    // B holds its answers from before the note.
    expect(await openOnB()).toBe(0)
    expect(await notesOnB()).toEqual([])

    const sent = await fetch(`${a.url}${linkPath}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ at: 0.5, text: 'Through A', name: 'Ada' }),
    })
    expect(sent.status).toBe(201)
    const started = performance.now()
    while ((await notesOnB()).length === 0 && performance.now() - started < WITHIN_MS * 2) {
      await Bun.sleep(50)
    }
    expect((await notesOnB()).map((n) => n.text)).toEqual(['Through A'])
    expect(performance.now() - started).toBeLessThan(WITHIN_MS)
    while ((await openOnB()) !== 1 && performance.now() - started < WITHIN_MS * 2) {
      await Bun.sleep(50)
    }
    expect(await openOnB()).toBe(1)
    expect(performance.now() - started).toBeLessThan(WITHIN_MS)
  }, 60_000)
})
