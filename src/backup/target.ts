// Where backup and restore find the site: the configured database and media store. The store
// is built here alone, so the engine chosen by the configuration is the one both commands use.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config.ts'
import { connectDatabase, type Database, migrationsFolder, openDatabase } from '../database.ts'
import { EmbeddedNotServedError } from '../embedded-socket.ts'
import { diskStorage } from '../storage/disk.ts'
import type { Storage } from '../storage/types.ts'
import { BackupError } from './archive.ts'

export function openStorage(config: Pick<Config, 'dataDir' | 's3'>): Storage {
  if (config.s3) {
    throw new BackupError('S3_BUCKET is set, and this version keeps media on disk only.')
  }
  return diskStorage(join(config.dataDir, 'media'), join(config.dataDir, 'tmp'))
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

type Journal = { entries: { idx: number; tag: string }[] }

/** The migrations this version knows, oldest first. */
export function knownSchemas(): string[] {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as Journal
  return journal.entries.toSorted((a, b) => a.idx - b.idx).map((entry) => entry.tag)
}

export const currentSchema = () => knownSchemas().at(-1) ?? 'none'

/** The package's version, or `unversioned` for a checkout without one. */
export function appVersion(): string {
  const path = join(import.meta.dir, '..', '..', 'package.json')
  const pkg = JSON.parse(readFileSync(path, 'utf8')) as { version?: string }
  return pkg.version ?? 'unversioned'
}
