// A fresh, migrated database for one test file: a new database on TEST_DATABASE_URL's server, or an
// embedded one copied from a migrated template (PGlite's initdb takes seconds; a copy does not).
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import bossPackage from 'pg-boss/package.json' with { type: 'json' }
import postgres from 'postgres'
import { loadConfig } from '../src/config.ts'
import { migrationsFolder, openDatabase, runMigrations } from '../src/db/database.ts'
import { startMediaQueue } from '../src/processing/queue.ts'

const ROOT = join(import.meta.dir, '..', '.tmp')

function templateKey(): string {
  const names = readdirSync(migrationsFolder)
    .filter((n) => n.endsWith('.sql'))
    .sort()
  // pg-boss installs its own schema at its first start; the template carries it too.
  const boss = `pg-boss@${bossPackage.version}`
  return new Bun.CryptoHasher('sha256')
    .update([...names, boss].join(','))
    .digest('hex')
    .slice(0, 12)
}

async function embeddedTemplate(): Promise<string> {
  const dir = join(ROOT, `pglite-template-${templateKey()}`)
  if (existsSync(join(dir, 'db'))) return dir
  mkdirSync(ROOT, { recursive: true })
  const building = mkdtempSync(join(ROOT, 'pglite-building-'))
  const database = await openDatabase({ databaseUrl: undefined, dataDir: building })
  await runMigrations(database)
  const queue = await startMediaQueue({
    target: database.poolTarget,
    embedded: true,
    media: loadConfig({}).media,
    supervise: false,
  })
  await queue.stop()
  await database.close()
  try {
    renameSync(building, dir)
  } catch {
    rmSync(building, { recursive: true, force: true }) // another run made it first
  }
  return dir
}

export type TestDatabase = {
  dataDir: string
  databaseUrl: string | undefined
  drop(): Promise<void>
}

/** A fresh folder with a migrated embedded database in `db/`, whatever TEST_DATABASE_URL says. */
export async function embeddedCopy(): Promise<{ dataDir: string; drop(): void }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-test-'))
  cpSync(join(await embeddedTemplate(), 'db'), join(dataDir, 'db'), { recursive: true })
  return { dataDir, drop: () => rmSync(dataDir, { recursive: true, force: true }) }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-test-'))
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) {
    cpSync(join(await embeddedTemplate(), 'db'), join(dataDir, 'db'), { recursive: true })
    return {
      dataDir,
      databaseUrl: undefined,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    }
  }
  const name = `studio_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    dataDir,
    databaseUrl: url.toString(),
    async drop() {
      const a = postgres(serverUrl, { max: 1, onnotice: () => {} })
      await a.unsafe(`drop database if exists ${name} with (force)`)
      await a.end()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * Another server's share of a test database on TEST_DATABASE_URL's server: the same `databaseUrl`,
 * a DATA_DIR of its own (one process per DATA_DIR,
 * docs/decisions/004-one-process-owns-data-dir.md). Dropping it removes only that folder; the
 * database goes with the test database it shares. The embedded database has no share: it belongs to
 * the one process that opened it.
 */
export function sharedTestDatabase(of: { databaseUrl: string | undefined }): TestDatabase {
  const { databaseUrl } = of
  if (!databaseUrl) throw new Error('only a database on TEST_DATABASE_URL can be shared')
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-test-'))
  return {
    dataDir,
    databaseUrl,
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  }
}
