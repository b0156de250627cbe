// The security checks, each named by the OWASP ASVS 5.0 requirement it covers where one fits.
// Behaviour tests elsewhere (auth, admins, videos) go into more detail; this file is the index.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { hashToken } from '../src/auth/tokens.ts'
import { msg } from '../src/schemas/messages.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestApp, type TestApp } from './helpers/test-app.ts'
import { type Fixtures, fixtures, form, send, tusVia } from './videos/support.ts'

let t: TestApp
let f: Fixtures
let token: string
beforeAll(async () => {
  t = await startTestApp()
  f = await fixtures()
}, 120_000)
afterAll(() => t?.stop(), 60_000)
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

const filesIn = async (dir: string) =>
  (await readdir(join(t.dataDir, dir)).catch(() => [] as string[])).sort()

async function uploadVideo(
  title: string,
  names = { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png },
) {
  const res = await send(
    t,
    'POST',
    '/api/videos/upload',
    token,
    form({ title, description: 'd' }, names),
  )
  return res
}

describe('V5 file handling', () => {
  test('5.2.1 an over-size upload is refused from its declared length, before a byte is stored', async () => {
    const before = await filesIn('uploads')
    const res = await tusVia(t, token).create(2 * 1024 ** 3 + 1, 'video')
    expect(res.status).toBe(413)
    const thumb = await tusVia(t, token).create(10 * 1024 ** 2 + 1, 'thumbnail')
    expect(thumb.status).toBe(413)
    expect(await filesIn('uploads')).toEqual(before)
  })

  test('5.2.2 the type is decided by content: a renamed text file is refused with 415', async () => {
    const res = await uploadVideo('Renamed', {
      video: f.fakeMp4,
      thumbnail: f.jpg,
      brandLogo: f.png,
    })
    expect(res.status).toBe(415)
    expect(res.json.message).toBe(msg.videoType)
    const img = await uploadVideo('Renamed 2', {
      video: f.mp4,
      thumbnail: f.fakePng,
      brandLogo: f.png,
    })
    expect(img.status).toBe(415)
    expect(img.json.message).toBe(msg.imageType)
    expect(await filesIn('media')).toEqual([])
  })

  test('5.3.2 no client filename reaches a stored path or URL', async () => {
    const res = await uploadVideo('Named')
    expect(res.status).toBe(201)
    const names = await filesIn('media')
    expect(names).toHaveLength(3)
    for (const n of names) expect(n).toMatch(/^[0-9a-f]{32}\.(mp4|jpg|png)$/)
    expect(JSON.stringify(res.json)).not.toContain('client-')
  })

  test('5.3.1 media are served by generated id from outside the web root; no path escapes', async () => {
    const res = await uploadVideo('Served')
    const url: string = res.json.data.video.videoUrl
    expect((await t.fetch(url)).status).toBe(200)
    for (const trick of [
      '/media/..%2F..%2Fpackage.json',
      '/media/../package.json',
      '/media/%2e%2e/db.lock',
      `/media/${url.split('/').pop()}/../../db.lock`,
      '/media/db',
    ]) {
      const r = await t.fetch(trick)
      const text = await r.text()
      // fetch normalises '/media/../x' to '/x' (then the app shell answers): nothing leaks either way.
      expect(text).not.toContain('"dependencies"')
      expect(text).not.toMatch(/^\d+( flock)?\s*$/) // db.lock holds a pid
      if (new URL(trick, 'http://x').pathname.startsWith('/media/'))
        expect([trick, r.status]).toEqual([trick, 404])
    }
  })

  test('3.4.4 media carry nosniff and the server-chosen Content-Type, whatever the client said', async () => {
    const res = await uploadVideo('Typed')
    const { videoUrl, thumbnailUrl } = res.json.data.video
    const video = await t.fetch(videoUrl)
    expect(video.headers.get('content-type')).toBe('video/mp4')
    expect(video.headers.get('x-content-type-options')).toBe('nosniff')
    const thumb = await t.fetch(thumbnailUrl)
    expect(thumb.headers.get('content-type')).toBe('image/jpeg')
  })
})

describe('V3 web frontend', () => {
  test("3.4.3 CSP: scripts from self only, object-src 'none', base-uri 'none', frame-ancestors 'none'", async () => {
    const csp = (await t.fetch('/')).headers.get('content-security-policy') ?? ''
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/)
        return [name, values.join(' ')]
      }),
    )
    expect(directives['script-src']).toBe("'self'")
    expect(directives['object-src']).toBe("'none'")
    expect(directives['base-uri']).toBe("'none'")
    expect(directives['frame-ancestors']).toBe("'none'")
  })
})

describe('V6 authentication', () => {
  test('6.3.1 sign-in is rate limited per account and per address', async () => {
    for (let i = 0; i < 10; i++) {
      await t.call('POST', '/api/auth/login', {
        body: { email: 'acct@studio.test', password: 'nope-nope' },
      })
    }
    const account = await t.call('POST', '/api/auth/login', {
      body: { email: 'acct@studio.test', password: 'x' },
    })
    expect(account.status).toBe(429)
    for (let i = 0; i < 10; i++) {
      await t.call('POST', '/api/auth/login', {
        body: { email: `n${i}@studio.test`, password: 'nope-nope' },
        ip: '10.7.7.7',
      })
    }
    const address = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      ip: '10.7.7.7',
    })
    expect(address.status).toBe(429)
  })

  test('6.3.1 reset requests are rate limited per e-mail and per address', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await t.call('POST', '/api/auth/reset-password/request', {
            body: { email: `r${i}@studio.test` },
            ip: '10.8.8.8',
          })
        ).status,
      )
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200])
    expect(statuses[5]).toBe(429)
  })

  test('6.3.8 no user enumeration by message, status or timing', async () => {
    const wrong = await t.call('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: 'nope-nope' },
    })
    const unknown = await t.call('POST', '/api/auth/login', {
      body: { email: 'nobody@studio.test', password: 'nope-nope' },
    })
    expect([wrong.status, wrong.json]).toEqual([unknown.status, unknown.json])
    const resetKnown = await t.call('POST', '/api/auth/reset-password/request', {
      body: { email: ADMIN_EMAIL },
    })
    const resetUnknown = await t.call('POST', '/api/auth/reset-password/request', {
      body: { email: 'nobody@studio.test' },
    })
    expect([resetKnown.status, resetKnown.json]).toEqual([resetUnknown.status, resetUnknown.json])

    const time = async (email: string) => {
      const start = performance.now()
      await t.call('POST', '/api/auth/login', { body: { email, password: 'nope-nope' } })
      return performance.now() - start
    }
    const known: number[] = []
    const none: number[] = []
    for (let i = 0; i < 5; i++) {
      known.push(await time(ADMIN_EMAIL))
      none.push(await time(`ghost${i}@studio.test`))
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[2]!
    // Both run one argon2 verification; without the dummy hash the unknown path takes ~0 ms.
    expect(median(none)).toBeGreaterThan(median(known) * 0.5)
    expect(median(none)).toBeLessThan(median(known) * 2)
  })

  test('6.x reset links are built from PUBLIC_URL, never from the Host header', async () => {
    await t.call('POST', '/api/auth/reset-password/request', {
      body: { email: ADMIN_EMAIL },
      headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' },
    })
    await t.app.services.auth.settle()
    const name = (await filesIn('outbox')).pop()
    const mail = JSON.parse(await Bun.file(join(t.dataDir, 'outbox', name!)).text())
    expect(mail.link).toStartWith('https://studio.test/auth/reset-password/')
    expect(JSON.stringify(mail)).not.toContain('attacker')
  })
})

describe('V11 cryptography', () => {
  test('11.4.2 passwords are argon2id with m=19 MiB, t=2, p=1', async () => {
    const [row] = await t.app.database.sql`select password_hash from admins`
    expect(row?.password_hash).toStartWith('$argon2id$v=19$m=19456,t=2,p=1$')
  })
})

describe('V7 session management', () => {
  test('7.2.3 tokens have at least 128 bits of entropy and are stored only as SHA-256', async () => {
    expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(128)
    const ids = (await t.app.database.sql<{ id: string }[]>`select id from sessions`).map(
      (r) => r.id,
    )
    expect(ids).not.toContain(token)
    expect(ids).toContain(hashToken(token))
  })

  test('7.2.4 every login issues a new token; logout revokes it on the server', async () => {
    const second = await t.login()
    expect(second).not.toBe(token)
    expect((await t.call('POST', '/api/auth/logout', { token })).status).toBe(200)
    expect((await t.call('GET', '/api/auth/me', { token })).status).toBe(401)
    expect((await t.call('GET', '/api/auth/me', { token: second })).status).toBe(200)
  })

  test('7.3.1 a session idle past its expiry is refused', async () => {
    await t.app.database.sql`update sessions set expires_at = now() - interval '1 second'`
    expect((await t.call('GET', '/api/auth/me', { token })).status).toBe(401)
  })

  test('7.3.2 a session past its absolute lifetime is refused, however active', async () => {
    await t.app.database.sql`update sessions set created_at = now() - interval '91 days'`
    expect((await t.call('GET', '/api/auth/me', { token })).status).toBe(401)
  })

  test('7.4.3 a password reset ends every session of that user', async () => {
    const other = await t.login()
    await t.call('POST', '/api/auth/reset-password/request', { body: { email: ADMIN_EMAIL } })
    await t.app.services.auth.settle()
    const name = (await filesIn('outbox')).pop()
    const link: string = JSON.parse(await Bun.file(join(t.dataDir, 'outbox', name!)).text()).link
    const reset = await t.call('POST', `/api/auth/reset-password/${link.split('/').pop()}`, {
      body: { password: 'fresh-pass-1' },
    })
    expect(reset.status).toBe(200)
    for (const tk of [token, other])
      expect((await t.call('GET', '/api/auth/me', { token: tk })).status).toBe(401)
  })
})

describe('V8 authorization', () => {
  test('8.2.1 every admin path needs a super_admin (403 for a plain admin, 401 without a session)', async () => {
    const plain = await t.createAdmin('plain_sec', token)
    const id = crypto.randomUUID()
    const paths: [string, string][] = [
      ['GET', '/api/admins'],
      ['POST', '/api/admins'],
      ['PUT', `/api/admins/${id}`],
      ['PATCH', `/api/admins/${id}`],
      ['DELETE', `/api/admins/${id}`],
    ]
    for (const [method, path] of paths) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : { username: 'zzz_1' }
      expect((await t.call(method, path, { token: plain.token, body })).status).toBe(403)
      expect((await t.call(method, path, { body })).status).toBe(401)
    }
    for (const proc of ['admins.list']) {
      const r = await t.fetch(`/trpc/${proc}`, {
        headers: { authorization: `Bearer ${plain.token}` },
      })
      expect(r.status).toBe(403)
    }
  })

  test('8.2.1 every video path except the public list needs a session', async () => {
    const id = crypto.randomUUID()
    for (const [method, path] of [
      ['GET', '/api/videos'],
      ['GET', `/api/videos/${id}`],
      ['POST', '/api/videos/check-title'],
      ['POST', '/api/videos/upload'],
      ['PATCH', `/api/videos/${id}`],
      ['PUT', `/api/videos/${id}/update-all`],
      ['PUT', `/api/videos/${id}/video`],
      ['PUT', `/api/videos/${id}/thumbnail`],
      ['DELETE', `/api/videos/${id}`],
      ['POST', '/api/videos/bulk-delete'],
    ] as const) {
      const r = await t.call(method, path, {
        body: method === 'GET' || method === 'DELETE' ? undefined : {},
      })
      expect([method, path, r.status]).toEqual([method, path, 401])
    }
    expect((await tusVia(t, null).create(10, 'video')).status).toBe(401)
    expect((await t.call('GET', '/api/public/videos')).status).toBe(200)
  })
})

describe('V1 encoding: stored XSS payloads come back as data, never as markup', () => {
  test('titles and descriptions are stored and answered verbatim as JSON strings', async () => {
    const payload = '<img src=x onerror=alert(1)><script>alert(2)</script>'
    const res = await send(
      t,
      'POST',
      '/api/videos/upload',
      token,
      form(
        { title: payload, description: payload },
        { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png },
      ),
    )
    expect(res.status).toBe(201)
    const list = await t.fetch('/api/public/videos')
    expect(list.headers.get('content-type')).toContain('application/json')
    const body = await list.json()
    expect(body.data.videos[0].title).toBe(payload)
  })
})
