// Sign-in limits across real server processes: two servers on one database count one client's
// failures together, whichever server got them
// (docs/decisions/062-limits-in-the-database-health-and-metrics.md).
import { afterAll, describe, expect, test } from 'bun:test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, type E2EServer, startServer } from '../../testkit/server.ts'

const servers: E2EServer[] = []
// The server sharing another's database first: the first one's stop drops that database.
afterAll(async () => {
  for (const server of servers.reverse()) await server.stop()
}, 60_000)

const login = (server: E2EServer, password: string) =>
  fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password }),
  })

describe('sign-in limits on two servers', () => {
  // Two servers share a database only through DATABASE_URL: an embedded database belongs to
  // the one process that opened its DATA_DIR, and a second one is refused by design.
  test.skipIf(!process.env.TEST_DATABASE_URL)(
    '10 bad passwords on server A, then the 11th attempt on server B answers 429 (needs TEST_DATABASE_URL)',
    async () => {
      const env = { MEDIA_WORKERS: '0' }
      const a = await startServer(env)
      servers.push(a)
      const b = await startServer(env, { databaseOf: a })
      servers.push(b)
      expect(b.databaseUrl).toBe(a.databaseUrl!)
      expect(b.dataDir).not.toBe(a.dataDir)

      for (let i = 0; i < 10; i++) expect((await login(a, 'wrong-password')).status).toBe(401)
      // Even with the right password: the pair is locked on every server.
      const refused = await login(b, ADMIN_PASSWORD)
      expect(refused.status).toBe(429)
      expect(await refused.json()).toEqual({
        status: 'error',
        message: 'Too many attempts. Please try again in 15 minutes.',
      })
      expect((await login(a, ADMIN_PASSWORD)).status).toBe(429)
    },
    180_000,
  )
})
