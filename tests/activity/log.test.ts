// The activity log (docs/decisions/042-activity-log-one-middleware-one-table.md): one entry per
// admin action, through REST and tRPC alike, with who, what and from where; one entry per sign-in
// lock, not per failure; readable by a super admin only; never changed, through the API or in the
// database.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { SIGN_IN_LIMITS } from '../../src/accounts/sign-in.ts'
import { logText } from '../../src/activity/log.ts'
import { appRouter } from '../../src/api/routers/index.ts'
import { defaultContent } from '../../src/site/defaults.ts'
import { resetSite, save } from '../../testkit/site.ts'
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { type Fixtures, fixtures, form } from '../../testkit/videos.ts'

let t: TestApp
let owner: string
let f: Fixtures
beforeAll(async () => {
  t = await startTestApp()
  f = await fixtures()
}, 120_000)
afterAll(() => t?.stop(), 60_000)
beforeEach(async () => {
  await t.reset()
  await resetSite(t)
  owner = await t.login(ADMIN_EMAIL, undefined)
})

type Entry = {
  _id: string
  at: string
  actor: { _id: string | null; name: string | null }
  kind: string
  summary: string
  target: { _id: string | null; title: string | null } | null
  ip: string | null
}

async function entries(query = ''): Promise<Entry[]> {
  const r = await t.call('GET', `/api/activity${query}`, { token: owner })
  expect(r.status).toBe(200)
  return r.json.data.entries
}

async function upload(title: string, ip = '192.0.2.10') {
  const body = form(
    { title, description: 'd' },
    { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png },
  )
  const res = await t.fetch(
    '/api/videos/upload',
    { method: 'POST', headers: { authorization: `Bearer ${owner}` }, body },
    ip,
  )
  expect(res.status).toBe(201)
  return ((await res.json()) as { data: { video: { _id: string } } }).data.video._id
}

describe('what is recorded', () => {
  test('sign-in: who, when and from which address', async () => {
    await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: 'owner-pass-123' },
      ip: '198.51.100.7',
    })
    const [latest] = await entries()
    expect(latest).toMatchObject({
      kind: 'auth.signIn',
      summary: 'Signed in',
      actor: { name: 'owner' },
      ip: '198.51.100.7',
    })
    expect(Date.now() - Date.parse(latest!.at)).toBeLessThan(60_000)
  })

  test('video create, edit, delete and bulk delete through REST, with titles', async () => {
    const a = await upload('Night Drive', '192.0.2.10')
    const b = await upload('Morning Run')
    const c = await upload('Late Show')
    await t.call('PATCH', `/api/videos/${a}`, {
      token: owner,
      body: { title: 'Night Drive (Cut)', description: 'new' },
    })
    await t.call('DELETE', `/api/videos/${b}`, { token: owner })
    await t.call('POST', '/api/videos/bulk-delete', { token: owner, body: { ids: [a, c] } })

    const log = (await entries()).filter((e) => e.kind.startsWith('video.')).reverse()
    expect(log.map((e) => [e.kind, e.summary])).toEqual([
      ['video.create', 'Uploaded “Night Drive”'],
      ['video.create', 'Uploaded “Morning Run”'],
      ['video.create', 'Uploaded “Late Show”'],
      ['video.update', 'Edited “Night Drive (Cut)”: title (was “Night Drive”), description'],
      ['video.delete', 'Deleted “Morning Run”'],
      ['video.bulkDelete', 'Deleted 2 videos: “Night Drive (Cut)”, “Late Show”'],
    ])
    expect(log[0]).toMatchObject({
      actor: { name: 'owner' },
      target: { _id: a, title: 'Night Drive' },
      ip: '192.0.2.10',
    })
    expect(log[4]!.target).toEqual({ _id: b, title: 'Morning Run' })
  }, 60_000)

  test('admin create, edit and delete', async () => {
    const created = await t.call('POST', '/api/admins', {
      token: owner,
      body: { username: 'mixer', email: 'mixer@studio.test', password: 'secret-12' },
    })
    const id = created.json.data.admin._id
    await t.call('PATCH', `/api/admins/${id}`, {
      token: owner,
      body: { username: 'mixer_2', password: 'secret-34' },
    })
    await t.call('DELETE', `/api/admins/${id}`, { token: owner })
    const log = (await entries()).filter((e) => e.kind.startsWith('admin.')).reverse()
    expect(log.map((e) => [e.kind, e.summary, e.target?.title])).toEqual([
      ['admin.create', 'Created admin mixer (mixer@studio.test)', 'mixer'],
      ['admin.update', 'Edited admin mixer_2 (was mixer): username, password', 'mixer_2'],
      ['admin.delete', 'Deleted admin mixer_2', 'mixer_2'],
    ])
  })

  test('site change and undo, over tRPC (the dashboard) and REST; a no-op save is not', async () => {
    const content = structuredClone(defaultContent)
    content.hero.line = 'Louder than words.'
    content.contact.team[1]!.phone = '+1 (310) 555-0199'
    const res = await t.fetch('/trpc/site.save', {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ baseVersion: 0, content }),
    })
    expect(res.status).toBe(200)
    const version = ((await res.json()) as { result: { data: { version: number } } }).result.data
      .version
    await save(t, owner, version, content) // unchanged: no version, no entry
    await t.call('POST', '/api/site/undo', { token: owner, body: { baseVersion: version } })
    const log = (await entries()).filter((e) => e.kind.startsWith('site.')).reverse()
    expect(log.map((e) => [e.kind, e.summary])).toEqual([
      ['site.update', 'Changed the site: hero line, contacts'],
      [
        'site.undo',
        `Undid the last site change (back to version ${version - 1}): hero line, contacts`,
      ],
    ])
  })

  test('sign-out, through REST and tRPC', async () => {
    await t.call('POST', '/api/auth/logout', { token: await t.login() })
    const trpc = await t.fetch('/trpc/auth.logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${await t.login()}`, 'content-type': 'application/json' },
    })
    expect(trpc.status).toBe(200)
    const log = await entries('?kind=auth.signOut')
    expect(log.map((e) => [e.summary, e.actor.name])).toEqual([
      ['Signed out', 'owner'],
      ['Signed out', 'owner'],
    ])
  })

  test('a failed sign-in burst is one entry, when the lock starts', async () => {
    const ip = '203.0.113.9'
    const tries = SIGN_IN_LIMITS.perPair + 4
    const statuses: number[] = []
    for (let i = 0; i < tries; i++) {
      const r = await t.call('POST', '/api/auth/login', {
        body: { email: 'Target@Studio.test', password: `wrong-${i}` },
        ip,
      })
      statuses.push(r.status)
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_LIMITS.perPair)
    expect(statuses.filter((s) => s === 429)).toHaveLength(4)
    const locks = (await entries()).filter((e) => e.kind === 'auth.locked')
    expect(locks).toHaveLength(1)
    expect(locks[0]).toMatchObject({
      actor: { _id: null, name: 'target@studio.test' },
      ip,
      summary:
        'Sign-in for Target@Studio.test from this address locked for 15 minutes after repeated wrong passwords',
    })
    // Single failures are not entries.
    expect((await entries()).filter((e) => e.kind === 'auth.signIn')).toHaveLength(1)
  }, 60_000)

  test('an address locked after failures across many e-mails is one entry too', async () => {
    const ip = '203.0.113.77'
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress + 3; i++) {
      await t.call('POST', '/api/auth/login', {
        body: { email: `spray${i}@studio.test`, password: 'wrong-pass' },
        ip,
      })
    }
    const locks = (await entries()).filter((e) => e.kind === 'auth.locked')
    expect(locks).toHaveLength(1)
    expect(locks[0]!.summary).toBe(
      'This address locked out of sign-in for 15 minutes after repeated failures',
    )
    expect(locks[0]!.ip).toBe(ip)
  }, 60_000)

  test('every mutation of the API declares its activity entry, or that it has none', () => {
    const procedures = appRouter._def.procedures as unknown as Record<
      string,
      { _def: { type: string; meta?: { activity?: unknown } } }
    >
    const undeclared = Object.entries(procedures)
      .filter(([, p]) => p._def.type === 'mutation' && p._def.meta?.activity === undefined)
      .map(([path]) => path)
    expect(undeclared).toEqual([])
    // Queries record nothing, so they declare nothing.
    const queries = Object.entries(procedures)
      .filter(([, p]) => p._def.type === 'query' && p._def.meta?.activity !== undefined)
      .map(([path]) => path)
    expect(queries).toEqual([])
  })
})

describe('only real changes, as one clean line, for a bounded time', () => {
  test('hiding a hidden video or publishing a published one is no entry, however often', async () => {
    const id = await upload('Quiet One')
    const publish = (published: boolean) =>
      t.call('PUT', `/api/videos/${id}/published`, { token: owner, body: { published } })
    const first = await publish(false)
    expect(first.json.data).toMatchObject({ changed: true, video: { published: false } })
    // Sent again, one after another and all at once: answered, nothing changed, nothing recorded.
    const again = await publish(false)
    expect([again.status, again.json.data.changed]).toEqual([200, false])
    const burst = await Promise.all(Array.from({ length: 20 }, () => publish(false)))
    expect(burst.map((r) => r.status)).toEqual(burst.map(() => 200))
    expect(burst.every((r) => r.json.data.changed === false)).toBe(true)
    // Of many identical calls at once, one changes it.
    const flips = await Promise.all(Array.from({ length: 20 }, () => publish(true)))
    expect(flips.filter((r) => r.json.data.changed)).toHaveLength(1)
    const log = (await entries('?kind=video.publish')).map((e) => e.summary)
    expect(log).toEqual(['Published “Quiet One”', 'Hid “Quiet One” from the public page'])
  }, 60_000)

  test('an edit that sends what is already there is no entry; a real one names only what changed', async () => {
    const id = await upload('Same Old')
    const admin = await t.call('POST', '/api/admins', {
      token: owner,
      body: { username: 'steady', email: 'steady@studio.test', password: 'secret-12' },
    })
    const adminId = admin.json.data.admin._id
    const before = (await entries()).length
    const same = await t.call('PATCH', `/api/videos/${id}`, {
      token: owner,
      body: { title: 'Same Old', description: 'd' },
    })
    expect(same.status).toBe(200)
    const sameAdmin = await t.call('PATCH', `/api/admins/${adminId}`, {
      token: owner,
      body: { username: 'steady', email: 'steady@studio.test' },
    })
    expect(sameAdmin.status).toBe(200)
    expect(await entries()).toHaveLength(before)

    await t.call('PATCH', `/api/videos/${id}`, {
      token: owner,
      body: { title: 'Same Old', description: 'A new description' },
    })
    await t.call('PATCH', `/api/admins/${adminId}`, {
      token: owner,
      body: { username: 'steady', email: 'moved@studio.test' },
    })
    const [adminEdit, videoEdit] = await entries()
    expect(videoEdit!.summary).toBe('Edited “Same Old”: description')
    expect(adminEdit!.summary).toBe('Edited admin steady: email')
  }, 60_000)

  test('a sign-in lock stores the e-mail as one trimmed line, without controls', async () => {
    const ip = '203.0.113.44'
    for (let i = 0; i < SIGN_IN_LIMITS.perPair + 1; i++) {
      await t.call('POST', '/api/auth/login', {
        body: { email: '\t\n  Victim@Studio.test \r\n\t', password: `wrong-${i}` },
        ip,
      })
    }
    const [lock] = await entries('?kind=auth.locked')
    expect(lock!.actor).toEqual({ _id: null, name: 'victim@studio.test' })
    expect(lock!.summary).toStartWith('Sign-in for Victim@Studio.test from this address locked')
    expect(lock!.summary).not.toMatch(/[\p{Cc}]/u)
  }, 60_000)

  test('what reaches the log is one visible line of bounded length', () => {
    expect(logText('\tEvil\n\u2028user\u202E@studio.test\u0000  ')).toBe('Evil user@studio.test')
    expect(
      logText('Family 👨‍👩‍👧 and 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'),
    ).toBe('Family 👨‍👩‍👧 and 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}')
    expect(logText('\n\t\u202E')).toBeNull()
    const long = logText(`${'x'.repeat(400)}@studio.test`, 254)!
    expect([...long]).toHaveLength(254)
    expect(long).toEndWith('…')
  })

  test('retention: older than a year or past the newest entries goes; the database allows only that', async () => {
    const db = t.app.database.db
    const row = (n: number, daysAgo: number) =>
      sql`(now() - make_interval(days => ${daysAgo}), 'other', ${`entry ${n}`})`
    // Inserting is what the log allows: an old entry is written as if a year had passed.
    await db.execute(sql`insert into activity_log (at, kind, summary) values ${row(1, 400)}`)
    await db.execute(sql`insert into activity_log (at, kind, summary) values ${row(2, 366)}`)
    for (let n = 3; n <= 30; n++) {
      await db.execute(sql`insert into activity_log (at, kind, summary) values ${row(n, 1)}`)
    }
    const summaries = async () => (await entries('?limit=100')).map((e) => e.summary)
    expect(await summaries()).toHaveLength(31) // the sign-in of beforeEach too

    // A year: the two old entries go, the rest stays.
    expect(await t.app.services.activity.prune()).toBe(2)
    expect(await summaries()).toHaveLength(29)
    expect(await summaries()).not.toContain('entry 1')

    // A cap: only the newest stay.
    expect(await t.app.services.activity.prune({ days: 365, entries: 10 })).toBe(19)
    const kept = await summaries()
    expect(kept).toEqual(Array.from({ length: 10 }, (_, i) => `entry ${30 - i}`))

    // Outside the retention, DELETE is still refused, and UPDATE always.
    const outcome = (query: PromiseLike<unknown>) =>
      Promise.resolve(query).then(
        () => 'ran',
        (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message}`,
      )
    expect(await outcome(db.execute(sql`delete from activity_log`))).toContain('append-only')
    const forged = db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('studio.activity_retention', 'on', true)`)
      await tx.execute(sql`update activity_log set summary = 'forged'`)
    })
    expect(await outcome(forged)).toContain('append-only')
    expect(await summaries()).toEqual(kept)
  })

  test('events counted under one key are one entry, their counts shown with it and gone with it', async () => {
    const activity = t.app.services.activity
    const entry = {
      actorId: null,
      actorName: null,
      kind: 'reviewLink.open' as const,
      summary: 'Counted thing',
      ip: null,
    }
    // At once: exactly one of them writes the entry, every one is counted.
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => activity.counted('test\nkey', entry, i % 3 === 0)),
    )
    await activity.counted('test\nother', entry, true)
    const counted = async () =>
      (await entries('?limit=100'))
        .map((e) => e.summary)
        .filter((summary) => summary.startsWith('Counted thing'))
    expect(await counted()).toEqual([
      'Counted thing: 1 time from 1 address',
      'Counted thing: 12 times from 4 addresses',
    ])

    // The retention takes the counts with their entries (once a day old: a first event may be
    // writing its entry meanwhile).
    const db = t.app.database.db
    await db.execute(sql`update activity_counts set at = now() - interval '2 days'`)
    await activity.prune({ days: 365, entries: 0 })
    expect(await counted()).toEqual([])
    const [left] = await db.execute(sql`select count(*)::int as n from activity_counts`)
    expect((left as { n: number }).n).toBe(0)
  })

  test('the retention runs at start-up (and hourly after)', async () => {
    const db = t.app.database.db
    await db.execute(
      sql`insert into activity_log (at, kind, summary) values (now() - interval '400 days', 'other', 'ancient')`,
    )
    expect((await entries()).map((e) => e.summary)).toContain('ancient')
    await t.restart()
    owner = await t.login()
    expect((await entries('?limit=100')).map((e) => e.summary)).not.toContain('ancient')
  }, 60_000)
})

describe('who may read it', () => {
  test('401 without a session, 403 for a plain admin, 200 for a super admin', async () => {
    const plain = await t.createAdmin('plain_admin', owner)
    expect((await t.call('GET', '/api/activity')).status).toBe(401)
    const forbidden = await t.call('GET', '/api/activity', { token: plain.token })
    expect(forbidden.status).toBe(403)
    expect((await t.call('GET', '/api/activity/people', { token: plain.token })).status).toBe(403)
    const trpc = await t.fetch('/trpc/activity.list?input=%7B%7D', {
      headers: { authorization: `Bearer ${plain.token}` },
    })
    expect(trpc.status).toBe(403)
    expect((await t.call('GET', '/api/activity', { token: owner })).status).toBe(200)
  })

  test('filters by person and kind, newest first, paginated', async () => {
    const plain = await t.createAdmin('editor', owner)
    const content = structuredClone(defaultContent)
    content.about.lead = 'Edited by the editor.'
    await save(t, plain.token, 0, content)
    const byEditor = await t.call('GET', `/api/activity?actor=${plain.id}`, { token: owner })
    expect(byEditor.json.data.entries.map((e: Entry) => e.kind)).toEqual([
      'site.update',
      'auth.signIn',
    ])
    const people = await t.call('GET', '/api/activity/people', { token: owner })
    expect(people.json.data.people.map((p: { name: string }) => p.name).sort()).toEqual([
      'editor',
      'owner',
    ])
    const signIns = await t.call('GET', '/api/activity?kind=auth.signIn&limit=1&page=2', {
      token: owner,
    })
    expect(signIns.json.data).toMatchObject({ total: 2, totalPages: 2, page: 2, limit: 1 })
    expect(signIns.json.data.entries).toHaveLength(1)
    const bad = await t.call('GET', '/api/activity?kind=nonsense', { token: owner })
    expect(bad.status).toBe(400)
    expect(bad.json.message).toBe('Unknown kind of activity')
  })
})

describe('never changed', () => {
  test('no API path or procedure writes, edits or deletes an entry', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const r = await t.call(method, '/api/activity', { token: owner, body: {} })
      expect(r.status).toBe(405)
    }
    const procedures = Object.keys(appRouter._def.procedures).filter((p) =>
      p.startsWith('activity.'),
    )
    expect(procedures.sort()).toEqual(['activity.list', 'activity.people'])
    for (const p of procedures) {
      expect(
        (appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)[p]!
          ._def.type,
      ).toBe('query')
    }
  })

  test('the database refuses UPDATE and DELETE on the log', async () => {
    const before = await entries()
    expect(before.length).toBeGreaterThan(0)
    const db = t.app.database.db
    const outcome = (query: PromiseLike<unknown>) =>
      Promise.resolve(query).then(
        () => 'ran',
        (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message}`,
      )
    expect(await outcome(db.execute(sql`update activity_log set summary = 'forged'`))).toContain(
      'append-only',
    )
    expect(await outcome(db.execute(sql`delete from activity_log`))).toContain('append-only')
    expect(await entries()).toEqual(before)
  })
})
