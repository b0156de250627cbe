// Clients' notes through review links, end to end through the real fetch handler (docs/review.md):
// the client paths under /r/<token>/notes with their device secret, every limit and refusal (text
// rules, times within the work, 500 a link, 60 an hour an address with a 429 that says when), a
// link that is gone or locked by its password, no way from one link to another's notes; the admin
// paths and procedures (list with filters, reply, resolve and reopen, the activity log), the open
// counts in admins' video answers, and the maker's e-mail digest (one per link per window).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { reviewLinks, reviewNotes } from '../../db/schema.ts'
import { type AdminNoteView, reviewNoteLimits } from '../../src/contract/review-note.ts'
import { DIGEST_WINDOW_MS } from '../../src/review-notes/digest.ts'
import { callerAs } from '../../testkit/caller.ts'
import { pollUntil } from '../../testkit/poll.ts'
import { prepareOutputs, readyWorks } from '../../testkit/ready.ts'
import { ADMIN_EMAIL, type Json, startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { type Fixtures, fixtures, form, send } from '../../testkit/videos.ts'

let t: TestApp
let f: Fixtures
let token: string
let videoId: string

type Link = { id: string; path: string }
type Answer = { status: number; json: Json; headers: Headers }

beforeAll(async () => {
  t = await startTestApp()
  f = await fixtures()
  await prepareOutputs(f.mp4)
}, 120_000)
afterAll(() => t?.stop(), 60_000)

/** A ready, hidden work of about one second. */
async function work(title = 'Notes Work'): Promise<string> {
  const res = await send(
    t,
    'POST',
    '/api/videos/upload',
    token,
    form({ title }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
  )
  const id = res.json.data.video._id as string
  await readyWorks(t, [id])
  const hidden = await t.call('PUT', `/api/videos/${id}/published`, {
    token,
    body: { published: false },
  })
  expect(hidden.status).toBe(200)
  return id
}

beforeEach(async () => {
  await t.reset()
  await t.app.database.db.execute(sql`truncate table rate_limits`)
  token = await t.login()
  videoId = await work()
})

async function makeLink(body: Record<string, unknown> = {}, id = videoId): Promise<Link> {
  const r = await t.call('POST', `/api/videos/${id}/links`, { token, body })
  expect(r.status).toBe(201)
  return { id: r.json.data.link.id, path: new URL(r.json.data.link.url).pathname }
}

/** A client's call under the link's path. */
function client(
  link: Link,
  method: string,
  rest = '',
  opts: {
    body?: unknown
    device?: string | null
    ip?: string
    cookie?: string
    type?: string
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {}
  if (opts.body !== undefined) headers['content-type'] = opts.type ?? 'application/json'
  if (opts.device) headers['x-review-device'] = opts.device
  if (opts.cookie) headers.cookie = opts.cookie
  return t.call(method, `${link.path}/notes${rest}`, {
    headers,
    body: opts.body,
    ip: opts.ip,
  }) as Promise<Answer>
}

const note = (over: Record<string, unknown> = {}) => ({
  at: 0.5,
  text: 'Swell here',
  name: 'Ada',
  ...over,
})

describe('a client’s notes', () => {
  test('the first note gives the device its secret; notes list in time order, marked as the device’s own', async () => {
    const link = await makeLink()
    const first = await client(link, 'POST', '', { body: note({ at: 0.8, text: 'Logo too loud' }) })
    expect(first.status).toBe(201)
    const device = first.json.data.device as string
    expect(device).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // Made on the work's current version, named by its id and number.
    const versions = await t.call('GET', `/api/videos/${videoId}/versions`, { token })
    const current = versions.json.data.versions.find((v: { current: boolean }) => v.current)
    expect(first.json.data.note).toMatchObject({
      at: 0.8,
      until: null,
      name: 'Ada',
      mine: true,
      versionNumber: 1,
      versionId: current._id,
      resolved: false,
      replies: [],
    })

    const range = await client(link, 'POST', '', {
      body: note({ at: 0.2, until: 0.6, text: 'Music swells <b>here</b>' }),
      device,
    })
    expect(range.status).toBe(201)
    // The device had its secret: none is given again.
    expect(range.json.data.device).toBeNull()
    expect(range.json.data.note).toMatchObject({ at: 0.2, until: 0.6, mine: true })

    const other = await client(link, 'POST', '', {
      body: note({ at: 0.5, name: 'Bo', text: 'Cut' }),
    })
    expect(other.json.data.device).not.toBe(device)

    const listed = await client(link, 'GET', '', { device })
    expect(listed.status).toBe(200)
    expect(listed.headers.get('cache-control')).toBe('private, no-store')
    const notes = listed.json.data.notes as { text: string; at: number; mine: boolean }[]
    expect(notes.map((n) => [n.at, n.text, n.mine])).toEqual([
      [0.2, 'Music swells <b>here</b>', true],
      [0.5, 'Cut', false],
      [0.8, 'Logo too loud', true],
    ])
    // Without the secret no note is anyone's.
    const anonymous = await client(link, 'GET')
    expect(anonymous.json.data.notes.every((n: { mine: boolean }) => !n.mine)).toBe(true)
    // The secret is kept only as its hash.
    const rows = await t.app.database.db.select({ hash: reviewNotes.deviceHash }).from(reviewNotes)
    expect(rows.some((r) => r.hash === device)).toBe(false)
  }, 30_000)

  test('every limit of a note is a 400 naming its field, never a 500', async () => {
    const link = await makeLink()
    const refusals: [Record<string, unknown>, string, RegExp][] = [
      [{ text: 'x'.repeat(reviewNoteLimits.textMax + 1) }, 'text', /at most 2000/],
      [{ text: '   ' }, 'text', /required/],
      [{ name: 'n'.repeat(reviewNoteLimits.nameMax + 1) }, 'name', /at most 80/],
      [{ name: '' }, 'name', /required/],
      [{ text: 'bell\u0007' }, 'text', /control characters/],
      [{ name: 'Ada\u202Egnp.exe' }, 'name', /invisible formatting/],
      [{ text: 'zero\u200Bwidth' }, 'text', /invisible formatting/],
      [{ name: 'Line\nbreak' }, 'name', /control characters/],
      [{ at: -1 }, 'at', /0:00 or later/],
      [{ at: 'soon' }, 'at', /time in seconds/],
      [{ at: 5 }, 'at', /within the work/],
      [{ at: 0.5, until: 0.4 }, 'until', /after the start/],
      [{ at: 0.5, until: 9 }, 'until', /within the work/],
      [{ versionId: crypto.randomUUID() }, 'versionId', /Version not found/],
    ]
    for (const [over, field, message] of refusals) {
      const r = await client(link, 'POST', '', { body: note(over) })
      expect([JSON.stringify(over), r.status, r.json.field]).toEqual([
        JSON.stringify(over),
        over.versionId ? 404 : 400,
        field,
      ])
      expect(r.json.message).toMatch(message)
    }
    // Multi-line notes keep their lines.
    const lines = await client(link, 'POST', '', { body: note({ text: 'one\ntwo' }) })
    expect(lines.status).toBe(201)
    const notJson = await client(link, 'POST', '', {
      body: 'at=1&text=x',
      type: 'application/x-www-form-urlencoded',
    })
    expect(notJson.status).toBe(415)
    const broken = await client(link, 'POST', '', { body: '{"at":' })
    expect(broken.status).toBe(400)
    const huge = await client(link, 'POST', '', { body: { ...note(), text: 'x'.repeat(20_000) } })
    expect(huge.status).toBe(413)
    expect((await client(link, 'GET')).json.data.notes).toHaveLength(1)
  }, 30_000)

  test(`a link holds at most ${reviewNoteLimits.perLink} notes`, async () => {
    const link = await makeLink()
    const { db } = t.app.database
    await db.insert(reviewNotes).values(
      Array.from({ length: reviewNoteLimits.perLink - 1 }, (_, i) => ({
        linkId: link.id,
        videoId,
        versionNumber: 1,
        atMs: i,
        name: 'Filler',
        text: `n${i}`,
        deviceHash: 'x',
      })),
    )
    expect((await client(link, 'POST', '', { body: note() })).status).toBe(201)
    const full = await client(link, 'POST', '', { body: note() })
    expect(full.status).toBe(409)
    expect(full.json.message).toMatch(/500 notes/)
    // Another link of the same work is not full.
    expect((await client(await makeLink(), 'POST', '', { body: note() })).status).toBe(201)
  }, 30_000)

  test(`${reviewNoteLimits.perAddressHour} notes an hour from one address, then a 429 that says when`, async () => {
    const a = await makeLink()
    const b = await makeLink()
    for (let i = 0; i < reviewNoteLimits.perAddressHour; i++) {
      const r = await client(i % 2 ? a : b, 'POST', '', {
        body: note({ text: `n${i}` }),
        ip: '192.0.2.7',
      })
      expect(r.status).toBe(201)
    }
    const refused = await client(a, 'POST', '', { body: note(), ip: '192.0.2.7' })
    expect(refused.status).toBe(429)
    expect(refused.json.message).toMatch(/Try again in (\d+) minutes?\./)
    const retry = Number(refused.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(60 * 50)
    expect(retry).toBeLessThanOrEqual(60 * 60)
    // Another address is not held back.
    expect((await client(a, 'POST', '', { body: note(), ip: '192.0.2.8' })).status).toBe(201)
  }, 30_000)

  test('only the device that wrote a note edits or deletes it, and only through its own link', async () => {
    const link = await makeLink()
    const other = await makeLink()
    const made = await client(link, 'POST', '', { body: note() })
    const device = made.json.data.device as string
    const id = made.json.data.note.id as string
    const stranger = (await client(link, 'POST', '', { body: note({ name: 'Bo' }) })).json.data
      .device

    const edited = await client(link, 'PATCH', `/${id}`, {
      body: { text: 'Swell later', at: 0.6, until: 0.9 },
      device,
    })
    expect(edited.status).toBe(200)
    expect(edited.json.data.note).toMatchObject({
      text: 'Swell later',
      at: 0.6,
      until: 0.9,
      mine: true,
    })
    expect(
      (await client(link, 'PATCH', `/${id}`, { body: { until: null }, device })).json.data.note
        .until,
    ).toBeNull()
    expect(
      (await client(link, 'PATCH', `/${id}`, { body: { text: 'a\u202Eb' }, device })).status,
    ).toBe(400)
    expect((await client(link, 'PATCH', `/${id}`, { body: { at: 7 }, device })).status).toBe(400)

    for (const who of [undefined, stranger]) {
      expect(
        (await client(link, 'PATCH', `/${id}`, { body: { text: 'Mine now' }, device: who })).status,
      ).toBe(403)
      expect((await client(link, 'DELETE', `/${id}`, { device: who })).status).toBe(403)
    }
    expect(
      (await client(link, 'PATCH', `/${id}`, { body: { text: 'x' }, device: 'short' })).status,
    ).toBe(400)
    // Another link's path never reaches this note, even with the right secret.
    expect((await client(other, 'PATCH', `/${id}`, { body: { text: 'x' }, device })).status).toBe(
      404,
    )
    expect((await client(other, 'DELETE', `/${id}`, { device })).status).toBe(404)
    expect((await client(other, 'GET')).json.data.notes).toEqual([])
    expect((await client(link, 'DELETE', '/not-a-uuid', { device })).status).toBe(404)

    expect((await client(link, 'DELETE', `/${id}`, { device })).status).toBe(200)
    expect(
      (await client(link, 'GET')).json.data.notes.map((n: { name: string }) => n.name),
    ).toEqual(['Bo'])
    expect((await client(link, 'PUT', `/${id}`, { body: {}, device })).status).toBe(405)
  }, 30_000)

  test('a revoked or expired link answers 410 for its notes; an unknown token 404', async () => {
    const link = await makeLink()
    const made = await client(link, 'POST', '', { body: note() })
    const { device } = made.json.data
    const id = made.json.data.note.id
    const revoked = await t.call('DELETE', `/api/videos/${videoId}/links/${link.id}`, { token })
    expect(revoked.status).toBe(200)
    const calls: [string, string, { body?: unknown; device?: string }][] = [
      ['GET', '', {}],
      ['POST', '', { body: note() }],
      ['PATCH', `/${id}`, { body: { text: 'x' }, device }],
      ['DELETE', `/${id}`, { device }],
    ]
    for (const [method, rest, opts] of calls) {
      const r = await client(link, method, rest, opts)
      expect([method, r.status]).toEqual([method, 410])
      expect(r.json.message).toMatch(/expired/)
    }
    const expiring = await makeLink()
    await t.app.database.db
      .update(reviewLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(reviewLinks.id, expiring.id))
    expect((await client(expiring, 'GET')).status).toBe(410)
    expect((await client(expiring, 'POST', '', { body: note() })).status).toBe(410)
    const unknown = await client({ id: '', path: `/r/${'A'.repeat(43)}` }, 'GET')
    expect(unknown.status).toBe(404)
  }, 30_000)

  test('a link with a password: its notes need its cookie, and another link’s cookie opens nothing', async () => {
    const a = await makeLink({ password: 'pass-a-123' })
    const b = await makeLink({ password: 'pass-b-123' })
    const locked = await client(a, 'GET')
    expect(locked.status).toBe(401)
    expect(locked.json.message).toMatch(/password/)
    expect((await client(a, 'POST', '', { body: note() })).status).toBe(401)
    const cookieOf = async (link: Link, password: string) => {
      const res = await t.fetch(link.path, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password }).toString(),
      })
      expect(res.status).toBe(303)
      return res.headers.get('set-cookie')!.split(';')[0]!
    }
    const cookieA = await cookieOf(a, 'pass-a-123')
    const cookieB = await cookieOf(b, 'pass-b-123')
    expect((await client(a, 'POST', '', { body: note(), cookie: cookieA })).status).toBe(201)
    expect((await client(a, 'GET', '', { cookie: cookieA })).json.data.notes).toHaveLength(1)
    expect((await client(a, 'GET', '', { cookie: cookieB })).status).toBe(401)
  }, 30_000)
})

describe('the studio’s side', () => {
  test('every note of every link, with its link; filters; replies the client sees; resolve and reopen in the activity log', async () => {
    const a = await makeLink({ note: 'Acme' })
    const b = await makeLink()
    const first = await client(a, 'POST', '', { body: note({ at: 0.7, text: 'Louder' }) })
    await client(b, 'POST', '', { body: note({ at: 0.1, until: 0.3, name: 'Bo', text: 'Darker' }) })
    const noteId = first.json.data.note.id as string

    const all = await t.call('GET', `/api/videos/${videoId}/notes`, { token })
    expect(all.status).toBe(200)
    expect(
      all.json.data.notes.map((n: AdminNoteView & { _id: string }) => [
        n._id === n.id,
        n.text,
        n.link.id,
        n.link.note,
      ]),
    ).toEqual([
      [true, 'Darker', b.id, null],
      [true, 'Louder', a.id, 'Acme'],
    ])
    // No device secret, no device hash in the admins' answer.
    expect(JSON.stringify(all.json)).not.toContain('device')

    const replied = await t.call('POST', `/api/videos/${videoId}/notes/${noteId}/replies`, {
      token,
      body: { text: 'Done in <i>v2</i>' },
    })
    expect(replied.status).toBe(201)
    expect(replied.json.data.note.replies).toMatchObject([
      { text: 'Done in <i>v2</i>', author: 'owner' },
    ])
    const seen = await client(a, 'GET')
    expect(seen.json.data.notes[0].replies.map((r: { text: string }) => r.text)).toEqual([
      'Done in <i>v2</i>',
    ])

    const resolve = (resolved: boolean) =>
      t.call('PUT', `/api/videos/${videoId}/notes/${noteId}/resolved`, {
        token,
        body: { resolved },
      })
    const resolved = await resolve(true)
    expect(resolved.status).toBe(200)
    expect(resolved.json.data.note).toMatchObject({ resolved: true, resolvedBy: 'owner' })
    expect((await resolve(true)).status).toBe(200)
    const texts = async (query: string) =>
      (await t.call('GET', `/api/videos/${videoId}/notes${query}`, { token })).json.data.notes.map(
        (n: { text: string }) => n.text,
      )
    expect(await texts('?state=open')).toEqual(['Darker'])
    expect(await texts('?state=resolved')).toEqual(['Louder'])
    expect(await texts('?version=1')).toEqual(['Darker', 'Louder'])
    expect(await texts('?version=2')).toEqual([])
    expect((await client(a, 'GET')).json.data.notes[0].resolved).toBe(true)
    expect((await resolve(false)).json.data.note).toMatchObject({
      resolved: false,
      resolvedBy: null,
    })

    const log = await t.call('GET', '/api/activity?limit=100', { token })
    const kinds = log.json.data.entries.map((e: { kind: string }) => e.kind)
    // One entry per real change; none for the clients' notes or the reply.
    expect(kinds.filter((k: string) => k.startsWith('reviewNote.'))).toEqual([
      'reviewNote.reopen',
      'reviewNote.resolve',
    ])
    const entry = log.json.data.entries.find(
      (e: { kind: string }) => e.kind === 'reviewNote.resolve',
    )
    expect(entry.summary).toBe('Resolved a note by Ada at 0:00 on “Notes Work”')
  }, 30_000)

  test('refusals: bad filters and replies, unknown notes and works, another work’s note, no session', async () => {
    const link = await makeLink()
    const noteId = (await client(link, 'POST', '', { body: note() })).json.data.note.id
    const otherWork = await work('Other Work')
    const bad: [string, string, unknown, number][] = [
      ['GET', `/api/videos/${videoId}/notes?state=done`, undefined, 400],
      ['GET', `/api/videos/${videoId}/notes?version=zero`, undefined, 400],
      ['GET', `/api/videos/${crypto.randomUUID()}/notes`, undefined, 404],
      ['POST', `/api/videos/${videoId}/notes/${noteId}/replies`, { text: '' }, 400],
      ['POST', `/api/videos/${videoId}/notes/${noteId}/replies`, { text: 'x'.repeat(2001) }, 400],
      ['POST', `/api/videos/${videoId}/notes/${noteId}/replies`, { text: 'a\u202Eb' }, 400],
      ['POST', `/api/videos/${videoId}/notes/${crypto.randomUUID()}/replies`, { text: 'Hi' }, 404],
      ['POST', `/api/videos/${otherWork}/notes/${noteId}/replies`, { text: 'Hi' }, 404],
      ['PUT', `/api/videos/${otherWork}/notes/${noteId}/resolved`, { resolved: true }, 404],
      ['PUT', `/api/videos/${videoId}/notes/${noteId}/resolved`, { resolved: 'yes' }, 400],
      ['PUT', `/api/videos/${videoId}/notes/not-an-id/resolved`, { resolved: true }, 400],
    ]
    for (const [method, path, body, status] of bad) {
      const r = await t.call(method, path, { token, body })
      expect([method, path, r.status]).toEqual([method, path, status])
    }
    expect((await t.call('GET', `/api/videos/${videoId}/notes`)).status).toBe(401)
    const anon = await callerAs(t.app.services, null)
    await expect(anon.reviewNotes.list({ videoId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  }, 30_000)

  test('the same through tRPC procedures', async () => {
    const link = await makeLink()
    const noteId = (await client(link, 'POST', '', { body: note() })).json.data.note.id
    const caller = await callerAs(t.app.services, token)
    expect((await caller.reviewNotes.list({ videoId })).map((n) => n.text)).toEqual(['Swell here'])
    const { note: replied } = await caller.reviewNotes.reply({ videoId, noteId, text: 'On it' })
    expect(replied.replies.map((r) => r.text)).toEqual(['On it'])
    const { changed } = await caller.reviewNotes.setResolved({ videoId, noteId, resolved: true })
    expect(changed).toBe(true)
    expect(await caller.reviewNotes.list({ videoId, state: 'open' })).toEqual([])
  }, 30_000)

  test('admins’ video answers count open notes (REST and tRPC, the cached list too)', async () => {
    const link = await makeLink()
    const listed = async () => {
      const res = await t.fetch(
        `/trpc/videos.list?input=${encodeURIComponent(JSON.stringify({ page: 1, limit: 10 }))}`,
        { headers: { authorization: `Bearer ${token}` } },
      )
      const body = (await res.json()) as { result: { data: { videos: { openNotes: number }[] } } }
      return body.result.data.videos[0]!.openNotes
    }
    expect(await listed()).toBe(0)
    const noteId = (await client(link, 'POST', '', { body: note() })).json.data.note.id
    await client(link, 'POST', '', { body: note({ at: 0.1 }) })
    expect(await listed()).toBe(2)
    expect(
      (await t.call('GET', `/api/videos/${videoId}`, { token })).json.data.video.openNotes,
    ).toBe(2)
    expect((await t.call('GET', '/api/videos', { token })).json.data.videos[0].openNotes).toBe(2)
    await t.call('PUT', `/api/videos/${videoId}/notes/${noteId}/resolved`, {
      token,
      body: { resolved: true },
    })
    expect(await listed()).toBe(1)
    // Visitors never get it.
    const pub = await t.call('GET', '/api/public/videos')
    expect(JSON.stringify(pub.json)).not.toContain('openNotes')
  }, 30_000)
})

describe('the maker’s e-mail digest', () => {
  const outbox = () => join(t.dataDir, 'outbox')
  const mails = async () => {
    const names = (await readdir(outbox()).catch(() => [] as string[])).sort()
    return Promise.all(
      names.map(
        async (n) =>
          JSON.parse(await readFile(join(outbox(), n), 'utf8')) as {
            to: string
            subject: string
            text: string
            link: string
          },
      ),
    )
  }

  test('one mail per link per window, listing the new notes with their times, as text', async () => {
    const before = (await mails()).length
    const link = await makeLink({ note: 'Acme' })
    await client(link, 'POST', '', { body: note({ at: 0.5, text: 'Swell <script>x</script>' }) })
    const [first] = (
      await pollUntil(mails, (m) => m.length > before, {
        what: 'the first digest',
        timeoutMs: 10_000,
        everyMs: 100,
      })
    ).slice(before)
    expect(first!.to).toBe(ADMIN_EMAIL)
    expect(first!.subject).toBe('1 new note on “Notes Work”')
    expect(first!.text).toContain('0:00  Ada (version 1):\n    Swell <script>x</script>')
    expect(first!.text).toContain('through the review link “Acme”')
    expect(first!.link).toBe(`https://studio.test/dashboard/videos/${videoId}/review`)

    // Inside the window: kept for the next digest.
    await client(link, 'POST', '', {
      body: note({ at: 0.2, until: 0.9, name: 'Bo', text: 'Darker' }),
    })
    await client(link, 'POST', '', { body: note({ at: 0.1, text: 'Earlier' }) })
    expect(await t.app.services.noteDigests.send()).toBe(0)
    expect((await mails()).length).toBe(before + 1)
    expect(
      await t.app.services.noteDigests.send(new Date(Date.now() + DIGEST_WINDOW_MS + 1000)),
    ).toBe(1)
    const second = (await mails()).at(-1)!
    expect(second.subject).toBe('2 new notes on “Notes Work”')
    expect(second.text.indexOf('Earlier')).toBeLessThan(second.text.indexOf('Darker'))
    expect(second.text).toContain('0:00–0:00  Bo (version 1)')
    expect(second.text).not.toContain('Swell')
    // Nothing new: nothing sent.
    expect(await t.app.services.noteDigests.send(new Date(Date.now() + 3 * DIGEST_WINDOW_MS))).toBe(
      0,
    )
  }, 30_000)

  test('the digest goes to the admin who made the link, and to nobody once that admin is deleted', async () => {
    const editor = await t.createAdmin('Editor', token)
    const made = await t.call('POST', `/api/videos/${videoId}/links`, {
      token: editor.token,
      body: {},
    })
    const link = { id: made.json.data.link.id, path: new URL(made.json.data.link.url).pathname }
    const before = (await mails()).length
    await client(link, 'POST', '', { body: note() })
    const sent = await pollUntil(mails, (m) => m.length > before, {
      what: 'the digest to the editor',
      timeoutMs: 10_000,
      everyMs: 100,
    })
    expect(sent.at(-1)!.to).toBe(editor.email)

    expect((await t.call('DELETE', `/api/admins/${editor.id}`, { token })).status).toBe(200)
    await client(link, 'POST', '', { body: note({ text: 'Anyone there?' }) })
    expect(
      await t.app.services.noteDigests.send(new Date(Date.now() + DIGEST_WINDOW_MS + 1000)),
    ).toBe(0)
    expect((await mails()).length).toBe(before + 1)
  }, 30_000)
})
