// Several servers starting at once on one empty database: one applies the migrations (and makes
// the first admin) while the others wait for it, then find nothing left to do (src/db/database.ts,
// duringStartup).
import { afterAll, expect } from 'bun:test'
import { readdirSync } from 'node:fs'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { migrationsFolder, openDatabase, runMigrations } from '../../src/db/database.ts'
import {
  createTestDatabase,
  sharedTestDatabase,
  type TestDatabase,
} from '../../testkit/database.ts'
import { testSkipIf } from '../../testkit/skip.ts'

const shares: TestDatabase[] = []
// The shares first: the first one's drop drops the database they share.
afterAll(async () => {
  for (const share of shares.reverse()) await share.drop()
})

testSkipIf(
  !process.env.TEST_DATABASE_URL &&
    'needs TEST_DATABASE_URL: the embedded database belongs to the one process that opened it',
)(
  '3 servers migrating one empty database at once: all start, each migration applied once',
  async () => {
    const first = await createTestDatabase()
    shares.push(first, sharedTestDatabase(first), sharedTestDatabase(first))
    const databases = await Promise.all(
      shares.map((share) =>
        openDatabase({ databaseUrl: share.databaseUrl, dataDir: share.dataDir }),
      ),
    )
    try {
      const results = await Promise.allSettled(databases.map((database) => runMigrations(database)))
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
      ])
      const files = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql'))
      const [applied] = await databases[0]!.sql<{ n: number }[]>`
      select count(*)::int as n from drizzle.__drizzle_migrations`
      expect(applied?.n).toBe(files.length)
      // The schema is whole: the last migration's tables are there.
      const [tables] = await databases[0]!.sql<{ n: number }[]>`
      select count(*)::int as n from information_schema.tables
      where table_schema = 'public' and table_name in ('videos', 'admins', 'sessions')`
      expect(tables?.n).toBe(3)
    } finally {
      await Promise.all(databases.map((database) => database.close()))
    }
  },
)

testSkipIf(
  !process.env.TEST_DATABASE_URL &&
    'needs TEST_DATABASE_URL: the embedded database belongs to the one process that opened it',
)(
  '3 whole apps starting at once on one empty database: all serve, with one first admin',
  async () => {
    const first = await createTestDatabase()
    const mine = [first, sharedTestDatabase(first), sharedTestDatabase(first)]
    shares.push(...mine)
    const configs = mine.map((share) =>
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: share.dataDir,
        DATABASE_URL: share.databaseUrl!,
        ADMIN_EMAIL: 'owner@studio.test',
        ADMIN_PASSWORD: 'owner-pass-123',
        PUBLIC_URL: 'https://studio.test',
        WEB_DIST: '/nonexistent',
        SSR_DIST: '/nonexistent',
        MEDIA_WORKERS: '0',
      }),
    )
    const started = await Promise.allSettled(configs.map((config) => createApp(config)))
    const apps = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
    try {
      expect(started.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
      ])
      const [admins] = await apps[0]!.database.sql<{ n: number }[]>`
      select count(*)::int as n from admins`
      expect(admins?.n).toBe(1)
      for (const app of apps) {
        const res = await app.fetch(new Request('http://localhost/api/public/videos'), '10.0.0.1')
        expect(res.status).toBe(200)
      }
    } finally {
      for (const app of apps) await app.close()
    }
  },
  60_000,
)
