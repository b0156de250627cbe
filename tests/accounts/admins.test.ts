import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { msg } from '../../src/contract/messages.ts'
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
let owner: string
beforeAll(async () => {
  t = await startTestApp()
}, 120_000)
afterAll(() => t?.stop(), 60_000)
beforeEach(async () => {
  await t.reset()
  owner = await t.login()
})

const valid = { username: 'mixer_1', email: 'mixer@studio.test', password: 'secret-12' }

describe('admin management', () => {
  test('list never shows a password hash', async () => {
    const r = await t.call('GET', '/api/admins', { token: owner })
    expect(r.status).toBe(200)
    expect(r.json.data.admins).toHaveLength(1)
    const [a] = r.json.data.admins
    expect(Object.keys(a).sort()).toEqual(['_id', 'createdAt', 'email', 'role', 'username'])
    expect(JSON.stringify(r.json)).not.toContain('argon2')
  })

  test('create answers 201 with the admin (role admin) who can then sign in', async () => {
    const r = await t.call('POST', '/api/admins', { token: owner, body: valid })
    expect(r.status).toBe(201)
    expect(r.json.data.admin).toMatchObject({
      username: 'mixer_1',
      email: 'mixer@studio.test',
      role: 'admin',
    })
    expect(r.json.data.admin.passwordHash).toBeUndefined()
    await t.login('MIXER@studio.test', 'secret-12')
  })

  test('duplicate e-mail or username (any case) → 409 on the field, nothing created', async () => {
    await t.call('POST', '/api/admins', { token: owner, body: valid })
    const email = await t.call('POST', '/api/admins', {
      token: owner,
      body: { ...valid, username: 'other_one', email: 'MIXER@Studio.test' },
    })
    expect(email.status).toBe(409)
    expect(email.json).toEqual({ status: 'error', message: 'Email already exists', field: 'email' })
    const name = await t.call('POST', '/api/admins', {
      token: owner,
      body: { ...valid, username: 'MIXER_1', email: 'new@studio.test' },
    })
    expect(name.status).toBe(409)
    expect(name.json.field).toBe('username')
    const list = await t.call('GET', '/api/admins', { token: owner })
    expect(list.json.data.admins).toHaveLength(2)
  })

  test.each([
    [{ ...valid, username: '' }, 'username', msg.usernameRequired],
    [{ ...valid, username: 'ab' }, 'username', msg.usernameMin],
    [{ ...valid, username: 'bad name!' }, 'username', msg.usernameChars],
    [{ ...valid, email: '' }, 'email', msg.emailRequired],
    [{ ...valid, email: 'not-an-email' }, 'email', msg.emailInvalid],
    [{ ...valid, password: '' }, 'password', msg.passwordRequired],
    [{ ...valid, password: '12345' }, 'password', msg.passwordMin],
    [{ email: 'a@b.co', password: 'secret-12' }, 'username', msg.usernameRequired],
  ])('invalid create → 400 with field and message (%#)', async (body, field, message) => {
    const r = await t.call('POST', '/api/admins', { token: owner, body })
    expect(r.status).toBe(400)
    expect(r.json).toEqual({ status: 'error', message, field })
  })

  test('update (PUT and PATCH) changes only non-empty fields', async () => {
    const created = await t.call('POST', '/api/admins', { token: owner, body: valid })
    const id = created.json.data.admin._id
    const put = await t.call('PUT', `/api/admins/${id}`, {
      token: owner,
      body: { username: 'mixer_2', email: '', password: '' },
    })
    expect(put.status).toBe(200)
    expect(put.json.data.admin).toMatchObject({ username: 'mixer_2', email: 'mixer@studio.test' })
    await t.login('mixer@studio.test', 'secret-12')
    const patch = await t.call('PATCH', `/api/admins/${id}`, {
      token: owner,
      body: { password: 'changed-99' },
    })
    expect(patch.status).toBe(200)
    await t.login('mixer@studio.test', 'changed-99')
  })

  test('update to a taken e-mail → 409 email; unknown id → 404; bad id → 400', async () => {
    const created = await t.call('POST', '/api/admins', { token: owner, body: valid })
    const id = created.json.data.admin._id
    const dup = await t.call('PATCH', `/api/admins/${id}`, {
      token: owner,
      body: { email: ADMIN_EMAIL },
    })
    expect(dup.status).toBe(409)
    expect(dup.json.field).toBe('email')
    const missing = await t.call('PATCH', `/api/admins/${crypto.randomUUID()}`, {
      token: owner,
      body: { username: 'whoever' },
    })
    expect(missing.status).toBe(404)
    const bad = await t.call('PATCH', '/api/admins/..%2F..%2Fetc', {
      token: owner,
      body: { username: 'whoever' },
    })
    expect(bad.status).toBe(400)
  })

  test('delete removes the admin and their sessions', async () => {
    const mixer = await t.createAdmin('mixer_9', owner)
    const r = await t.call('DELETE', `/api/admins/${mixer.id}`, { token: owner })
    expect(r.status).toBe(200)
    expect(r.json.data.deleted).toBe(1)
    expect((await t.call('GET', '/api/auth/me', { token: mixer.token })).status).toBe(401)
    expect((await t.call('DELETE', `/api/admins/${mixer.id}`, { token: owner })).status).toBe(404)
  })

  test('nobody deletes themself; the last super_admin stays', async () => {
    const me = await t.call('GET', '/api/auth/me', { token: owner })
    const self = await t.call('DELETE', `/api/admins/${me.json.data.user._id}`, { token: owner })
    expect(self.status).toBe(403)
    expect(self.json.message).toBe('You cannot delete your own account')
    // Through the API a super_admin always leaves one (themself); the service refuses the last
    // one whoever asks, e.g. an actor demoted while the request was in flight.
    const plain = await t.createAdmin('plain_one', owner)
    await expect(t.app.services.admins.remove(me.json.data.user._id, plain.id)).rejects.toThrow(
      'The last super admin cannot be deleted',
    )
    const second = await t.createAdmin('second_su', owner)
    await t.app.database.sql`update admins set role = 'super_admin' where id = ${second.id}`
    const firstGone = await t.call('DELETE', `/api/admins/${me.json.data.user._id}`, {
      token: second.token,
    })
    expect(firstGone.status).toBe(200)
  })

  test('a plain admin gets 403 on every admin path', async () => {
    const plain = await t.createAdmin('plain_admin', owner)
    const id = crypto.randomUUID()
    for (const [method, path] of [
      ['GET', '/api/admins'],
      ['POST', '/api/admins'],
      ['PUT', `/api/admins/${id}`],
      ['PATCH', `/api/admins/${id}`],
      ['DELETE', `/api/admins/${id}`],
    ] as const) {
      const r = await t.call(method, path, {
        token: plain.token,
        body: method === 'GET' || method === 'DELETE' ? undefined : valid,
      })
      expect([method, path, r.status]).toEqual([method, path, 403])
    }
  })
})

describe('tRPC admins', () => {
  test('admins.list over /trpc needs a super_admin session', async () => {
    const anon = await t.fetch('/trpc/admins.list')
    expect(anon.status).toBe(401)
    const ok = await t.fetch('/trpc/admins.list', { headers: { authorization: `Bearer ${owner}` } })
    expect(ok.status).toBe(200)
    const body = await ok.json()
    expect(body.result.data.admins[0].email).toBe(ADMIN_EMAIL)
  })
})

describe('credentials and ids', () => {
  const me = async (token: string) => (await t.call('GET', '/api/auth/me', { token })).status

  test("a super_admin setting another admin's password ends all of that admin's sessions at once", async () => {
    const mixer = await t.createAdmin('cred_mixer', owner)
    const second = await t.login(mixer.email, 'password-123')
    // Both sessions are validated (and cached) before the change.
    expect([await me(mixer.token), await me(second)]).toEqual([200, 200])
    const r = await t.call('PATCH', `/api/admins/${mixer.id}`, {
      token: owner,
      body: { password: 'changed-pass-1' },
    })
    expect(r.status).toBe(200)
    expect([await me(mixer.token), await me(second)]).toEqual([401, 401])
    const [left] = await t.app.database
      .sql`select count(*)::int as n from sessions where user_id = ${mixer.id}`
    expect(left?.n).toBe(0)
    await t.login(mixer.email, 'changed-pass-1')
    expect(await me(owner)).toBe(200)
  }, 30_000)

  test("changing an admin's e-mail ends their sessions; a username change does not", async () => {
    const mixer = await t.createAdmin('mail_mixer', owner)
    expect(await me(mixer.token)).toBe(200)
    await t.call('PUT', `/api/admins/${mixer.id}`, {
      token: owner,
      body: { username: 'renamed_1' },
    })
    expect(await me(mixer.token)).toBe(200)
    // The same address in another case is no change.
    await t.call('PUT', `/api/admins/${mixer.id}`, {
      token: owner,
      body: { email: mixer.email.toUpperCase() },
    })
    expect(await me(mixer.token)).toBe(200)
    await t.call('PUT', `/api/admins/${mixer.id}`, {
      token: owner,
      body: { email: 'moved@studio.test' },
    })
    expect(await me(mixer.token)).toBe(401)
    await t.login('moved@studio.test', 'password-123')
  })

  test('a super_admin changing their own password keeps this session and ends their others', async () => {
    const elsewhere = await t.login()
    const self = (await t.call('GET', '/api/auth/me', { token: owner })).json.data.user._id
    const r = await t.call('PATCH', `/api/admins/${self}`, {
      token: owner,
      body: { password: 'owner-new-pass' },
    })
    expect(r.status).toBe(200)
    expect([await me(owner), await me(elsewhere)]).toEqual([200, 401])
  })

  test('ids compare in any case: self-delete in upper case is refused, an edit reaches the cache', async () => {
    const self: string = (await t.call('GET', '/api/auth/me', { token: owner })).json.data.user._id
    // A second super_admin, so that only the self-delete rule can refuse.
    const second = await t.createAdmin('second_su2', owner)
    await t.app.database.sql`update admins set role = 'super_admin' where id = ${second.id}`
    const upper = await t.call('DELETE', `/api/admins/${self.toUpperCase()}`, { token: owner })
    expect(upper.status).toBe(403)
    expect(upper.json.message).toBe('You cannot delete your own account')
    expect(await me(owner)).toBe(200)

    const mixer = await t.createAdmin('case_mixer', owner)
    expect(
      (await t.call('GET', '/api/auth/me', { token: mixer.token })).json.data.user.username,
    ).toBe('case_mixer')
    const edit = await t.call('PATCH', `/api/admins/${mixer.id.toUpperCase()}`, {
      token: owner,
      body: { username: 'case_renamed' },
    })
    expect(edit.status).toBe(200)
    expect(edit.json.data.admin._id).toBe(mixer.id)
    const after = await t.call('GET', '/api/auth/me', { token: mixer.token })
    expect(after.json.data.user.username).toBe('case_renamed')
  })
})
