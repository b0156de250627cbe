// Where backup and restore find the site: the configured database and media store (the engine
// the configuration picks, as the server's).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type postgres from 'postgres'
import type { Config } from '../config.ts'
import { connectDatabase, type Database, migrationsFolder, openDatabase } from '../db/database.ts'
import { EmbeddedNotServedError } from '../db/embedded-socket.ts'
import { createStorage } from '../storage/index.ts'
import type { Storage } from '../storage/types.ts'
import { BackupError } from './archive.ts'

/** What a backup and a restore both take. */
export type ArchiveCommandOptions = {
  config: Config
  /** The archive's path (a backup also takes `-`, standard output). */
  file: string
  /** Progress lines (standard error in the command). */
  log?: (line: string) => void
}

/** The configured store, once it has answered (a missing bucket is one line naming it). */
export async function openStorage(config: Config): Promise<Storage> {
  const storage = createStorage(config)
  await storage.check()
  return storage
}

/**
 * The database to back up, beside a running server: DATABASE_URL as the server reaches it; the
 * embedded database through the running server's socket, or, when no server serves it, opened
 * here under DATA_DIR's lock (a server starting meanwhile then waits for the backup to end).
 */
export async function openForBackup(config: Config): Promise<Database> {
  try {
    return await connectDatabase(config)
  } catch (error) {
    if (!(error instanceof EmbeddedNotServedError)) throw error
    return openDatabase(config)
  }
}

type JournalEntry = { idx: number; tag: string }

function journal(): JournalEntry[] {
  const path = join(migrationsFolder, 'meta', '_journal.json')
  const { entries } = JSON.parse(readFileSync(path, 'utf8')) as { entries: JournalEntry[] }
  return entries.toSorted((a, b) => a.idx - b.idx)
}

/** The migrations this version knows, oldest first. */
export const knownSchemas = () => journal().map((entry) => entry.tag)

/**
 * The schema the database is at: the last of this version's migrations it has applied (drizzle
 * keeps one row per migration applied). Throws for a database without the site's tables, or one
 * migrated by a newer version.
 */
export async function schemaOf(sql: postgres.TransactionSql): Promise<string> {
  const [exists] = await sql`select to_regclass('drizzle.__drizzle_migrations') as t`
  const [row] = exists?.t
    ? await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`
    : []
  const applied = row?.n ?? 0
  if (applied === 0) throw new BackupError('The database holds no site yet: nothing to back up.')
  const entry = journal()[applied - 1]
  if (!entry || applied > journal().length) {
    throw new BackupError(
      'The database was migrated by a newer version than this one: back it up with that version.',
    )
  }
  return entry.tag
}

/** The package's version, or `unversioned` for a checkout without one. */
export function appVersion(): string {
  const path = join(import.meta.dir, '..', '..', 'package.json')
  const pkg = JSON.parse(readFileSync(path, 'utf8')) as { version?: string }
  return pkg.version ?? 'unversioned'
}
