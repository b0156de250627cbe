import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/database.ts'
import { DatabaseLockedError } from '../../src/db/lock.ts'
import { testSkipIf } from '../../testkit/skip.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
}, 120_000)
afterAll(() => t?.stop(), 60_000)

describe('security headers', () => {
  test.each([
    '/healthz',
    '/api/admins',
    '/trpc/auth.me',
    '/',
    '/some/unknown/path',
    // Twice: the second is served from the answer cache.
    '/api/public/videos',
    '/api/public/videos',
  ])('every answer carries them: %s', async (path) => {
    const res = await t.fetch(path)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("base-uri 'none'")
    expect(csp).not.toContain('unsafe-eval')
  })
})

describe('protected paths', () => {
  const paths: [string, string][] = [
    ['GET', '/api/admins'],
    ['POST', '/api/admins'],
    ['PUT', `/api/admins/${crypto.randomUUID()}`],
    ['PATCH', `/api/admins/${crypto.randomUUID()}`],
    ['DELETE', `/api/admins/${crypto.randomUUID()}`],
    ['GET', '/api/auth/me'],
    ['POST', '/api/auth/logout'],
  ]
  for (const token of [null, 'garbage-token', 'x'.repeat(1000)]) {
    test.each(paths)(
      `%s %s → 401 with token ${String(token).slice(0, 12)}`,
      async (method, path) => {
        const r = await t.call(method, path, { token, body: method === 'GET' ? undefined : {} })
        expect(r.status).toBe(401)
        expect(r.json.status).toBe('error')
      },
    )
  }
})

describe('bad input never gets a 500 or a stack trace', () => {
  const bodies = [
    '{',
    '[]',
    'null',
    '"str"',
    '{"email":12,"password":{}}',
    '\u0000\u0001',
    'a'.repeat(70_000),
  ]
  test.each(bodies.map((b) => [b.slice(0, 20), b]))('login with %p', async (_, body) => {
    const r = await t.call('POST', '/api/auth/login', { body })
    expect(r.status).toBeGreaterThanOrEqual(400)
    expect(r.status).toBeLessThan(500)
    expect(JSON.stringify(r.json)).not.toMatch(/at .*\.ts:\d+|stack/i)
  })

  test('a huge body is refused with 413', async () => {
    const r = await t.call('POST', '/api/auth/reset-password/request', {
      body: { email: 'x'.repeat(100_000) },
    })
    expect(r.status).toBe(413)
  })

  test('a body larger than its Content-Length claims is still capped', async () => {
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 20; i++) c.enqueue(new Uint8Array(10_000).fill(65))
        c.close()
      },
    })
    const res = await t.fetch('/api/auth/login', { method: 'POST', body: stream })
    expect(res.status).toBe(413)
  })

  test('tRPC: malformed batch and unknown procedure are 4xx without stack', async () => {
    for (const [path, init] of [
      ['/trpc/auth.login,auth.login?batch=1', { method: 'POST', body: '{"0":' }],
      ['/trpc/nope.nothing', {}],
      [
        '/trpc/auth.login',
        { method: 'POST', body: 'not json', headers: { 'content-type': 'application/json' } },
      ],
    ] as const) {
      const res = await t.fetch(path, init as RequestInit)
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
      expect(await res.text()).not.toContain('stack')
    }
  })

  test('tRPC refuses a batch of 11 calls with 400', async () => {
    const names = Array.from({ length: 11 }, () => 'auth.me').join(',')
    const res = await t.fetch(`/trpc/${names}?batch=1&input=${encodeURIComponent('{}')}`)
    expect(res.status).toBe(400)
  })

  test('unknown REST path → 404 JSON; wrong method → 405', async () => {
    const missing = await t.call('GET', '/api/nothing-here')
    expect(missing.status).toBe(404)
    expect(missing.json.status).toBe('error')
    expect((await t.call('GET', '/api/auth/login')).status).toBe(405)
  })
})

describe('static app', () => {
  test('unknown paths answer the app shell as a 404, and traversal cannot leave the web root', async () => {
    const res = await t.fetch('/dashboard/whatever')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect((await t.fetch('/dashboard')).status).toBe(200)
    const trick = await t.fetch('/..%2F..%2Fpackage.json')
    expect(await trick.text()).not.toContain('"scripts"')
  })

  test('/healthz checks the database (tests/ops/health.test.ts: every check)', async () => {
    const res = await t.fetch('/healthz')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'ok', checks: { database: { status: 'ok' } } })
  })
})

describe('configuration', () => {
  test('defaults', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({
      port: 3000,
      dataDir: './data',
      adminEmail: 'admin@example.com',
      env: 'development',
    })
    expect(c.publicUrl).toBe('http://localhost:3000')
    expect(c.databaseUrl).toBeUndefined()
  })

  test.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT /],
    [
      { DATABASE_URL: 'mysql://x' },
      /^Invalid configuration: DATABASE_URL must start with postgres/,
    ],
    [{ NODE_ENV: 'staging' }, /^Invalid configuration: NODE_ENV/],
    [{ ADMIN_EMAIL: 'nope' }, /^Invalid configuration: ADMIN_EMAIL/],
    [{ ADMIN_PASSWORD: '123' }, /^Invalid configuration: ADMIN_PASSWORD/],
  ])('a bad value stops start-up with one readable line: %p', (env, re) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    try {
      loadConfig(env)
    } catch (e) {
      expect((e as Error).message).toMatch(re)
      expect((e as Error).message).not.toContain('\n')
    }
  })

  test('production without ADMIN_PASSWORD and no admin refuses to start', async () => {
    const proc = Bun.spawn([process.execPath, 'src/server.ts'], {
      cwd: join(import.meta.dir, '..', '..'),
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '0',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'studio-prod-')),
        DATABASE_URL: '',
        ADMIN_PASSWORD: '',
      },
      stderr: 'pipe',
      stdout: 'pipe',
    })
    const code = await proc.exited
    const err = await new Response(proc.stderr).text()
    expect(code).toBe(1)
    expect(err.trim()).toBe(
      'ADMIN_PASSWORD is required in production to create the first super admin.',
    )
  }, 60_000)
})

describe('embedded database', () => {
  testSkipIf(
    process.env.TEST_DATABASE_URL && 'about the embedded database; this run is on PostgreSQL',
  )('a second process on the same directory is refused with a clear message', async () => {
    const err = await openDatabase({ databaseUrl: undefined, dataDir: t.dataDir }).catch((e) => e)
    const proc = Bun.spawn(
      [
        process.execPath,
        '-e',
        `import {openDatabase} from './src/db/database.ts'; await openDatabase({dataDir: ${JSON.stringify(t.dataDir)}})`,
      ],
      { cwd: join(import.meta.dir, '..', '..'), stderr: 'pipe' },
    )
    expect(await proc.exited).not.toBe(0)
    expect(await new Response(proc.stderr).text()).toContain('is in use by process')
    expect(err).toBeInstanceOf(DatabaseLockedError)
  })

  test('concurrent queries on both clients each get their own answer', async () => {
    const { sql, authSql } = t.app.database
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) => {
        const client = i % 2 ? sql : authSql
        return client`select ${i}::int as v, ${`s${i}`}::text as s`.then(
          (r) => r[0]?.v === i && r[0]?.s === `s${i}`,
        )
      }),
    )
    expect(results.every(Boolean)).toBe(true)
  })

  test('a transaction on one client is not seen half-done by the other', async () => {
    const { sql, authSql } = t.app.database
    await sql`create table if not exists tx_probe (v int)`
    await sql`truncate tx_probe`
    const seen: number[] = []
    await Promise.all([
      sql.begin(async (tx) => {
        await tx`insert into tx_probe values (1)`
        await Bun.sleep(30)
        await tx`insert into tx_probe values (2)`
      }),
      (async () => {
        await Bun.sleep(10)
        const [r] = await authSql`select count(*)::int as n from tx_probe`
        seen.push(r?.n)
      })(),
    ])
    expect(seen[0] === 0 || seen[0] === 2).toBe(true)
    await sql`drop table tx_probe`
  })
})

describe('precompressed static files', () => {
  test('a .br twin is served to clients that accept br, the plain file otherwise', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'studio-dist-'))
    const html = '<!doctype html><title>x</title>'.repeat(20)
    await Bun.write(join(dist, 'index.html'), html)
    await Bun.write(join(dist, 'index.html.br'), Bun.gzipSync(Buffer.from(html))) // any bytes
    const { createStaticHandler } = await import('../../src/pages/static.ts')
    const serve = createStaticHandler(dist)
    const br = await serve(new Request('http://x/', { headers: { 'accept-encoding': 'gzip, br' } }))
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('content-type')).toContain('text/html')
    expect(br.headers.get('vary')).toBe('Accept-Encoding')
    const plain = await serve(new Request('http://x/'))
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe(html)
  })
})
