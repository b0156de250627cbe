// Opens PostgreSQL: a real server from DATABASE_URL, or an embedded PGlite in DATA_DIR/db that
// postgres.js reaches through in-process streams, so postgres.js, drizzle and lucia run the same
// on both.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import { migrate } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'
import * as schema from '../db/schema.ts'
import type { Config } from './config.ts'
import { explainDataDirError, openDataDir } from './data-dir.ts'
import { waitForDatabase } from './database-wait.ts'
import { openPGlite, serveEmbedded } from './embedded-pg.ts'

export type Db = PostgresJsDatabase<typeof schema>

export type Database = {
  db: Db
  /** The client drizzle uses (drizzle rewrites its date serializers). */
  sql: postgres.Sql
  /** lucia's own client, untouched by drizzle (see ARCHITECTURE.md "Data"). */
  authSql: postgres.Sql
  embedded: boolean
  close(): Promise<void>
}

export const migrationsFolder = join(import.meta.dir, '..', 'db', 'migrations')

// postgres.js documents its `socket` option ("Custom socket") but its types do not declare it.
type InProcess = { socket: () => Duplex; user: string; database: string }

/** How postgres.js reaches the database: a URL, or the embedded database's in-process streams. */
type Endpoint = { connection: string | InProcess; close(): Promise<void> }

async function startEmbedded(dataDir: string): Promise<Endpoint> {
  const dir = join(dataDir, 'db')
  try {
    mkdirSync(dir, { mode: 0o700 })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
  }
  const pg = await openPGlite(dir)
  const server = serveEmbedded(pg)
  return {
    connection: { socket: server.connect, user: 'postgres', database: 'postgres' },
    async close() {
      await server.stop()
      await pg.close()
    },
  }
}

/**
 * Takes DATA_DIR (lock, modes: src/data-dir.ts) in both modes, then opens the embedded database
 * or waits up to `databaseWaitSeconds` (0 when not given) for DATABASE_URL's server.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databaseWaitSeconds'>>,
): Promise<Database> {
  const release = openDataDir(config.dataDir, config.databaseUrl ? [] : ['db'])
  let endpoint: Endpoint
  try {
    if (config.databaseUrl) {
      await waitForDatabase(config.databaseUrl, config.databaseWaitSeconds ?? 0)
      endpoint = { connection: config.databaseUrl, close: async () => {} }
    } else {
      endpoint = await startEmbedded(config.dataDir)
    }
  } catch (e) {
    release()
    throw explainDataDirError(e, config.dataDir) ?? e
  }
  const embedded = !config.databaseUrl
  const options = { max: embedded ? 4 : 10, onnotice: () => {}, connect_timeout: 10 }
  const client = (max: number) =>
    typeof endpoint.connection === 'string'
      ? postgres(endpoint.connection, { ...options, max })
      : postgres({ ...endpoint.connection, ...options, max } as postgres.Options<
          Record<string, never>
        >)
  const sql = client(options.max)
  const authSql = client(embedded ? 2 : 4)
  const db = drizzle(sql, { schema })
  return {
    db,
    sql,
    authSql,
    embedded,
    async close() {
      try {
        await Promise.allSettled([sql.end({ timeout: 5 }), authSql.end({ timeout: 5 })])
        await endpoint.close()
      } finally {
        release()
      }
    },
  }
}

export async function runMigrations(database: Database): Promise<void> {
  await migrate(database.db, { migrationsFolder })
}
