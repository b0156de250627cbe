import { afterAll, beforeAll, beforeEach, describe, expect, spyOn, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { hashToken } from '../../src/accounts/tokens.ts'
import { msg } from '../../src/contract/messages.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
}, 120_000)
afterAll(() => t?.stop(), 60_000)
beforeEach(() => t.reset())

async function outboxLinks(): Promise<string[]> {
  await t.app.services.auth.settle()
  const dir = join(t.dataDir, 'outbox')
  let names: string[] = []
  try {
    names = readdirSync(dir).sort()
  } catch {}
  return names.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')).link as string)
}

describe('sign-in', () => {
  test('success answers user and token; the token opens protected paths', async () => {
    const r = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL.toUpperCase(), password: ADMIN_PASSWORD },
    })
    expect(r.status).toBe(200)
    expect(r.json.status).toBe('success')
    expect(r.json.data.user).toMatchObject({
      email: ADMIN_EMAIL,
      role: 'super_admin',
      username: 'owner',
    })
    expect(r.json.data.user._id).toBeString()
    expect(r.json.data.user.passwordHash).toBeUndefined()
    const me = await t.call('GET', '/api/auth/me', { token: r.json.data.token })
    expect(me.status).toBe(200)
    expect(me.json.data.user.email).toBe(ADMIN_EMAIL)
  })

  test('wrong password and unknown e-mail get the same 401 answer', async () => {
    const wrong = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: 'nope-nope' },
    })
    const unknown = await t.call('POST', '/api/auth/login', {
      body: { email: 'nobody@studio.test', password: 'nope-nope' },
    })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.json).toEqual({ status: 'error', message: msg.invalidCredentials })
    expect(unknown.json).toEqual(wrong.json)
  })

  test('validation messages of docs/dashboard.md', async () => {
    const noEmail = await t.call('POST', '/api/auth/login', { body: { password: 'x' } })
    expect(noEmail.status).toBe(400)
    expect(noEmail.json).toMatchObject({ message: msg.emailRequired, field: 'email' })
    const badEmail = await t.call('POST', '/api/auth/login', {
      body: { email: 'nope', password: 'x' },
    })
    expect(badEmail.json).toMatchObject({ message: msg.emailInvalid, field: 'email' })
    const noPassword = await t.call('POST', '/api/auth/login', { body: { email: ADMIN_EMAIL } })
    expect(noPassword.json).toMatchObject({ message: msg.fieldRequired, field: 'password' })
  })

  test('10 failures for one e-mail from one address answer 429, even with the right password', async () => {
    for (let i = 0; i < 10; i++) {
      const r = await t.call('POST', '/api/auth/login', {
        body: { email: ADMIN_EMAIL, password: 'guess' },
        ip: '10.9.9.1',
      })
      expect(r.status).toBe(401)
    }
    const blocked = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      ip: '10.9.9.1',
    })
    expect(blocked.status).toBe(429)
    expect(blocked.json.message).toBe('Too many attempts. Please try again in 15 minutes.')
  }, 60_000)

  test('20 failures from one address answer 429 for any e-mail from it', async () => {
    for (let i = 0; i < 20; i++) {
      const r = await t.call('POST', '/api/auth/login', {
        body: { email: `x${i}@studio.test`, password: 'guess' },
        ip: '10.9.9.9',
      })
      expect(r.status).toBe(401)
    }
    const r = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      ip: '10.9.9.9',
    })
    expect(r.status).toBe(429)
    const other = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      ip: '10.9.9.10',
    })
    expect(other.status).toBe(200)
  }, 60_000)

  test("10 failures for the owner's e-mail from an attacker's address do not lock the owner out", async () => {
    for (let i = 0; i < 10; i++) {
      await t.call('POST', '/api/auth/login', {
        body: { email: ADMIN_EMAIL, password: 'guess' },
        ip: '10.66.1.1',
      })
    }
    const attacker = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      ip: '10.66.1.1',
    })
    expect(attacker.status).toBe(429)
    const owner = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      ip: '10.66.1.2',
    })
    expect(owner.status).toBe(200)
  }, 60_000)

  test('a success clears the failures of its e-mail and address', async () => {
    const attempt = (password: string) =>
      t.call('POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password }, ip: '10.66.3.3' })
    for (let i = 0; i < 9; i++) expect((await attempt('guess')).status).toBe(401)
    expect((await attempt(ADMIN_PASSWORD)).status).toBe(200)
    for (let i = 0; i < 9; i++) expect((await attempt('guess')).status).toBe(401)
    expect((await attempt(ADMIN_PASSWORD)).status).toBe(200)
  }, 60_000)

  test("a completed password reset lifts the e-mail's lock", async () => {
    for (let i = 0; i < 10; i++) {
      await t.call('POST', '/api/auth/login', {
        body: { email: ADMIN_EMAIL, password: 'guess' },
        ip: '10.66.2.2',
      })
    }
    const locked = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      ip: '10.66.2.2',
    })
    expect(locked.status).toBe(429)
    await t.call('POST', '/api/auth/reset-password/request', { body: { email: ADMIN_EMAIL } })
    const resetToken = (await outboxLinks()).pop()!.split('/').pop()!
    const reset = await t.call('POST', `/api/auth/reset-password/${resetToken}`, {
      body: { password: 'after-reset-1' },
    })
    expect(reset.status).toBe(200)
    const after = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: 'after-reset-1' },
      ip: '10.66.2.2',
    })
    expect(after.status).toBe(200)
  }, 60_000)

  test('checks in flight for one e-mail are capped, from however many addresses', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.call('POST', '/api/auth/login', {
          body: { email: ADMIN_EMAIL, password: 'wrong-guess' },
          ip: `10.70.0.${i + 1}`,
        }),
      ),
    )
    const checked = answers.filter((a) => a.status === 401).length
    const refused = answers.filter((a) => a.status === 429).length
    expect(checked + refused).toBe(50)
    expect(checked).toBeLessThanOrEqual(8)
    expect(refused).toBeGreaterThanOrEqual(42)
    // The burst is over: the owner signs in at once.
    expect(
      (
        await t.call('POST', '/api/auth/login', {
          body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
          ip: '10.70.1.1',
        })
      ).status,
    ).toBe(200)
  })
})

describe('logout and sessions', () => {
  test('logout ends the session on the server', async () => {
    const token = await t.login()
    const out = await t.call('POST', '/api/auth/logout', { token })
    expect(out.status).toBe(200)
    const after = await t.call('GET', '/api/auth/me', { token })
    expect(after.status).toBe(401)
  })

  test('an expired session is refused and removed', async () => {
    const token = await t.login()
    await t.app.database.sql`update sessions set expires_at = now() - interval '1 minute'`
    const r = await t.call('GET', '/api/admins', { token })
    expect(r.status).toBe(401)
    const [row] = await t.app.database.sql`select count(*)::int as n from sessions`
    expect(row?.n).toBe(0)
  })

  test('sliding expiry: a session used after half its life is extended', async () => {
    const token = await t.login()
    await t.app.database.sql`update sessions set expires_at = now() + interval '10 days'`
    expect((await t.call('GET', '/api/auth/me', { token })).status).toBe(200)
    const [row] = await t.app.database
      .sql`select extract(epoch from (expires_at - now())) / 86400 as days from sessions`
    expect(Number(row?.days)).toBeGreaterThan(29)
  })
})

describe('password reset', () => {
  test('request → outbox mail → reset → old sessions end → token is single-use', async () => {
    const oldToken = await t.login()
    const r = await t.call('POST', '/api/auth/reset-password/request', {
      body: { email: ADMIN_EMAIL },
      headers: { host: 'evil.example' },
    })
    expect(r.status).toBe(200)
    expect(r.json.status).toBe('success')
    const link = (await outboxLinks()).pop()
    expect(link).toStartWith('https://studio.test/auth/reset-password/')
    const resetToken = link!.split('/').pop()!
    const stored = await t.app.database.sql`select token_hash from password_reset_tokens`
    expect(stored[0]!.token_hash).toBe(hashToken(resetToken))

    const tooShort = await t.call('POST', `/api/auth/reset-password/${resetToken}`, {
      body: { password: '123' },
    })
    expect(tooShort.status).toBe(400)
    expect(tooShort.json).toMatchObject({ message: msg.passwordMin, field: 'password' })

    const done = await t.call('POST', `/api/auth/reset-password/${resetToken}`, {
      body: { password: 'brand-new-pass' },
    })
    expect(done.status).toBe(200)
    expect((await t.call('GET', '/api/auth/me', { token: oldToken })).status).toBe(401)
    await t.login(ADMIN_EMAIL, 'brand-new-pass')
    expect(
      (
        await t.call('POST', '/api/auth/login', {
          body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
        })
      ).status,
    ).toBe(401)

    const again = await t.call('POST', `/api/auth/reset-password/${resetToken}`, {
      body: { password: 'another-pass' },
    })
    expect(again.status).toBe(400)
    expect(again.json.message).toBe(msg.invalidResetLink)
  })

  test('unknown e-mail: the same answer and no mail', async () => {
    const known = await t.call('POST', '/api/auth/reset-password/request', {
      body: { email: ADMIN_EMAIL },
    })
    const unknown = await t.call('POST', '/api/auth/reset-password/request', {
      body: { email: 'ghost@studio.test' },
    })
    expect(unknown.status).toBe(known.status)
    expect(unknown.json).toEqual(known.json)
    const links = await outboxLinks()
    expect(links.filter((l) => l).length).toBeGreaterThanOrEqual(1)
    const mails = readdirSync(join(t.dataDir, 'outbox')).map((n) =>
      JSON.parse(readFileSync(join(t.dataDir, 'outbox', n), 'utf8')),
    )
    expect(mails.some((m) => m.to === 'ghost@studio.test')).toBe(false)
  })

  test('an expired token is refused; a new request drops older tokens', async () => {
    await t.call('POST', '/api/auth/reset-password/request', { body: { email: ADMIN_EMAIL } })
    const first = (await outboxLinks()).pop()!.split('/').pop()!
    await t.call('POST', '/api/auth/reset-password/request', { body: { email: ADMIN_EMAIL } })
    const second = (await outboxLinks()).pop()!.split('/').pop()!
    expect(second).not.toBe(first)
    const old = await t.call('POST', `/api/auth/reset-password/${first}`, {
      body: { password: 'whatever-1' },
    })
    expect(old.status).toBe(400)
    await t.app.database
      .sql`update password_reset_tokens set expires_at = now() - interval '1 second'`
    const expired = await t.call('POST', `/api/auth/reset-password/${second}`, {
      body: { password: 'whatever-1' },
    })
    expect(expired.status).toBe(400)
    expect(expired.json.message).toBe(msg.invalidResetLink)
  })

  test('garbage tokens get the reset-link message, not a 500', async () => {
    for (const token of ['x', '../../etc/passwd', 'a'.repeat(500), '%00']) {
      const r = await t.call('POST', `/api/auth/reset-password/${encodeURIComponent(token)}`, {
        body: { password: 'valid-pass' },
      })
      expect(r.status).toBe(400)
    }
  })

  test('reset requests are limited per e-mail and address', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      const r = await t.call('POST', '/api/auth/reset-password/request', {
        body: { email: 'spam@studio.test' },
        ip: '10.9.8.7',
      })
      statuses.push(r.status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    const elsewhere = await t.call('POST', '/api/auth/reset-password/request', {
      body: { email: 'spam@studio.test' },
      ip: '10.9.8.8',
    })
    expect(elsewhere.status).toBe(200)
  })

  test('a garbage reset token is refused before any password is hashed', async () => {
    const { ARGON2_OPTIONS } = await import('../../src/accounts/password.ts')
    const hash = spyOn(Bun.password, 'hash')
    try {
      const r = await t.call('POST', `/api/auth/reset-password/${'x'.repeat(43)}`, {
        body: { password: 'valid-pass' },
      })
      expect(r.status).toBe(400)
      expect(hash).not.toHaveBeenCalledWith('valid-pass', ARGON2_OPTIONS)
    } finally {
      hash.mockRestore()
    }
  })
})

describe('tRPC auth', () => {
  test('login over /trpc answers the same user and maps 401', async () => {
    const res = await t.fetch('/trpc/auth.login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: 'wrong-one' }),
    })
    expect(res.status).toBe(401)
    const body = await res.json()
    expect(body.error.message).toBe(msg.invalidCredentials)
    expect(JSON.stringify(body)).not.toContain('stack')
  })

  test('validation errors carry the first message and the field', async () => {
    const res = await t.fetch('/trpc/auth.login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bad', password: 'x' }),
    })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error.message).toBe(msg.emailInvalid)
    expect(body.error.data.field).toBe('email')
  })
})

describe('cached sessions stay truthful', () => {
  test('a deleted admin, an edited admin and a reset password take effect at once', async () => {
    const owner = await t.login()
    const mixer = await t.createAdmin('cache_mixer', owner)
    expect((await t.call('GET', '/api/auth/me', { token: mixer.token })).status).toBe(200)
    await t.call('PATCH', `/api/admins/${mixer.id}`, {
      token: owner,
      body: { username: 'renamed_mixer' },
    })
    const me = await t.call('GET', '/api/auth/me', { token: mixer.token })
    expect(me.json.data.user.username).toBe('renamed_mixer')
    await t.call('DELETE', `/api/admins/${mixer.id}`, { token: owner })
    expect((await t.call('GET', '/api/auth/me', { token: mixer.token })).status).toBe(401)
  })

  test('a cache entry lives at most its fresh time and never past the session end', async () => {
    const { SessionCache } = await import('../../src/accounts/session-cache.ts')
    const cache = new SessionCache<string>(30_000)
    cache.set('a', { value: 'A', userId: 'u1', expiresAt: 60_000 }, 0)
    cache.set('b', { value: 'B', userId: 'u1', expiresAt: 10_000 }, 0)
    cache.set('c', { value: 'C', userId: 'u2', expiresAt: 60_000 }, 0)
    expect(cache.get('a', 29_000)).toBe('A')
    expect(cache.get('b', 10_000)).toBeUndefined()
    expect(cache.get('a', 31_000)).toBeUndefined()
    cache.forgetUser('u2')
    expect(cache.get('c', 1_000)).toBeUndefined()
    // A check that began before a forget does not put its older answer back.
    const before = cache.generation
    cache.forget('a')
    cache.set('a', { value: 'A', userId: 'u1', expiresAt: 60_000 }, 1_000, before)
    expect(cache.get('a', 1_000)).toBeUndefined()
  })

  test('requests that find a session stale share one database check; logout still wins', async () => {
    const { createLucia } = await import('../../src/accounts/lucia.ts')
    const { createAuthService } = await import('../../src/accounts/sign-in.ts')
    const { createMailer } = await import('../../src/mail/mailer.ts')
    const lucia = createLucia(t.app.database.authSql)
    let checks = 0
    const counted = Object.assign(Object.create(lucia), {
      validateSession: (id: string) => {
        checks++
        return lucia.validateSession(id)
      },
    }) as typeof lucia
    // A second auth service on the same database: its cache starts empty, as after the entry
    // of a busy session went stale.
    const auth = createAuthService({
      db: t.app.database.db,
      lucia: counted,
      mailer: createMailer({ outboxDir: join(t.dataDir, 'outbox'), from: 'test@studio.test' }),
      publicUrl: 'http://localhost',
    })
    const token = await t.login()
    const answers = await Promise.all(Array.from({ length: 50 }, () => auth.validate(token)))
    expect(checks).toBe(1)
    expect(new Set(answers.map((a) => a?.id)).size).toBe(1)
    expect(answers[0]?.user.email).toBe(ADMIN_EMAIL)

    // A logout while a check is under way: the check's answer is not cached after it.
    auth.forgetUser(answers[0]!.user._id)
    const racing = auth.validate(token)
    await auth.logout(answers[0]!.id)
    await racing
    expect(await auth.validate(token)).toBeNull()
  })
})
