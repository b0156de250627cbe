// Migration 0013 on a site made before versions existed (the embedded database, or
// TEST_DATABASE_URL's server): every work becomes its own version 1, current, with its state and
// length, and nothing of the work's row changes.
import { afterAll, expect, test } from 'bun:test'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { migrate } from 'drizzle-orm/postgres-js/migrator'
import { type Database, migrationsFolder, openDatabase } from '../../src/db/database.ts'
import { createTestDatabase, type TestDatabase } from '../../testkit/database.ts'

const scratch = mkdtempSync(join(tmpdir(), 'versions-migration-'))
let database: Database | undefined
let server: TestDatabase | undefined

afterAll(async () => {
  await database?.close()
  await server?.drop()
  rmSync(scratch, { recursive: true, force: true })
})

/** The migrations folder as it was before versions: 0000–0012 and a journal that ends there. */
function migrationsBefore(tag: string): string {
  const dir = join(scratch, 'before')
  mkdirSync(join(dir, 'meta'), { recursive: true })
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { tag: string }[] }
  const at = journal.entries.findIndex((entry) => entry.tag === tag)
  journal.entries = journal.entries.slice(0, at)
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify(journal))
  for (const entry of journal.entries) {
    cpSync(join(migrationsFolder, `${entry.tag}.sql`), join(dir, `${entry.tag}.sql`))
  }
  expect(readdirSync(dir).filter((name) => name.endsWith('.sql'))).toHaveLength(at)
  return dir
}

test('every work made before versions becomes its own version 1, current, its row unchanged', async () => {
  const url = process.env.TEST_DATABASE_URL
  if (url) server = await createTestDatabase()
  database = await openDatabase({
    databaseUrl: server?.databaseUrl,
    dataDir: server?.dataDir ?? join(scratch, 'data'),
  })
  const { db } = database
  await migrate(db, { migrationsFolder: migrationsBefore('0013_video_versions') })
  for (const [title, status, duration] of [
    ['Old Ready', 'ready', 42.5],
    ['Old Failed', 'failed', null],
  ] as const) {
    await db.execute(sql`
      insert into videos (title, slug, video_key, video_type, video_size, thumbnail_key,
                          thumbnail_type, thumbnail_size, brand_logo_key, brand_logo_type,
                          brand_logo_size, status, duration, created_at)
      values (${title}, ${title.toLowerCase().replace(' ', '-')}, ${`${'a'.repeat(32)}.mp4`},
              'video/mp4', 10, ${`${'b'.repeat(32)}.jpg`}, 'image/jpeg', 5,
              ${`${'c'.repeat(32)}.png`}, 'image/png', 5, ${status}, ${duration},
              '2025-01-02T03:04:05Z')`)
  }
  const before = [...(await db.execute(sql`select * from videos order by title`))]

  await migrate(db, { migrationsFolder })
  const rows = [
    ...(await db.execute<{
      title: string
      number: number
      status: string
      duration: number | null
      current: boolean
      master_key: string | null
      created_at: Date | string
    }>(sql`
      select v.title, vv.number, vv.status, vv.duration, vv.master_key, vv.created_at,
             v.current_version_id = vv.id as current
        from videos v join video_versions vv on vv.video_id = v.id order by v.title`)),
  ]
  expect(rows.map(({ created_at, ...row }) => row)).toEqual([
    {
      title: 'Old Failed',
      number: 1,
      status: 'failed',
      duration: null,
      master_key: null,
      current: true,
    },
    {
      title: 'Old Ready',
      number: 1,
      status: 'ready',
      duration: 42.5,
      master_key: null,
      current: true,
    },
  ])
  for (const row of rows) {
    expect(new Date(row.created_at).toISOString()).toBe('2025-01-02T03:04:05.000Z')
  }
  // The works' own columns are as they were; the new ones say version 1 and its number (and a
  // later migration's column is empty).
  const after = [...(await db.execute(sql`select * from videos order by title`))]
  expect(after.every((row) => row.growing === null)).toBe(true)
  expect(after.map(({ current_version_id, last_version, growing, ...row }) => row)).toEqual(before)
  expect(after.map((row) => row.last_version)).toEqual([1, 1])
}, 60_000)
