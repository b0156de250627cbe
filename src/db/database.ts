// Opens PostgreSQL: a real server from DATABASE_URL, or an embedded PGlite in DATA_DIR/db that
// postgres.js reaches through in-process streams, so postgres.js, drizzle and lucia run the same
// on both. The embedded database is also served on a private Unix socket for pg-boss's pool and
// for worker processes, which connect with `connectDatabase` (no second opening of DATA_DIR/db).
import { AsyncLocalStorage } from 'node:async_hooks'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import { migrate } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'
import * as schema from '../../db/schema.ts'
import type { Config } from '../config.ts'
import { explainDataDirError, openDataDir } from './data-dir.ts'
import { openPGlite, serveEmbedded } from './embedded.ts'
import {
  EmbeddedNotServedError,
  prepareSocketDir,
  SOCKET_PORT,
  socketDirOf,
  socketPathIn,
} from './embedded-socket.ts'
import { waitForDatabase } from './wait.ts'

export type Db = PostgresJsDatabase<typeof schema>

export type Database = {
  db: Db
  /** The client drizzle uses (drizzle rewrites its date serializers). */
  sql: postgres.Sql
  /** lucia's own client, untouched by drizzle (its date handling differs). */
  authSql: postgres.Sql
  embedded: boolean
  /** How a separate pool (pg-boss's) reaches this database: a URL or the embedded socket. */
  poolTarget: PoolTarget
  close(): Promise<void>
}

/** node-postgres connection options: a URL, or a socket folder (host) with its port. */
export type PoolTarget =
  | { connectionString: string }
  | { host: string; port: number; user: string; database: string }

export const migrationsFolder = join(import.meta.dir, '..', '..', 'db', 'migrations')

// postgres.js documents its `socket` option ("Custom socket") but its types do not declare it.
type InProcess = { socket: () => Duplex; user: string; database: string }
type UnixSocket = { path: string; user: string; database: string }

/** How postgres.js reaches the database: a URL, in-process streams or the embedded socket. */
type Endpoint = {
  connection: string | InProcess | UnixSocket
  poolTarget: PoolTarget
  close(): Promise<void>
}

const EMBEDDED_LOGIN = { user: 'postgres', database: 'postgres' }

const socketTarget = (socketDir: string): PoolTarget => ({
  host: socketDir,
  port: SOCKET_PORT,
  ...EMBEDDED_LOGIN,
})

async function startEmbedded(dataDir: string): Promise<Endpoint> {
  const dir = join(dataDir, 'db')
  try {
    mkdirSync(dir, { mode: 0o700 })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
  }
  const pg = await openPGlite(dir)
  const server = serveEmbedded(pg)
  const socket = prepareSocketDir(dataDir)
  try {
    await server.listen(socket.path)
  } catch (e) {
    await server.stop()
    await pg.close()
    throw e
  }
  return {
    connection: { socket: server.connect, ...EMBEDDED_LOGIN },
    poolTarget: socketTarget(join(socket.path, '..')),
    async close() {
      await server.stop()
      await pg.close()
      socket.cleanup()
    },
  }
}

/**
 * A transaction never waits on another connection
 * (docs/decisions/084-a-transaction-never-waits-on-another-connection.md). PGlite has one backend:
 * while one connection's transaction is open, every other connection's statements wait for it to
 * end, so a transaction that awaits a query on a second connection (a lazy key load, a cache fill,
 * the job queue's own pool, lucia's client) never ends and the whole site stops. On PostgreSQL the
 * same code holds two connections, and enough such requests at once empty the pool. So from inside
 * a transaction's callback, anything that would reach the database another way throws at once, in
 * every process and on both kinds of database: the suite proves the rule wherever it runs a
 * transaction.
 */
const inTransaction = new AsyncLocalStorage<{ open: boolean }>()

export class TransactionWaitError extends Error {
  constructor(through: string) {
    super(
      `A query through ${through} from inside an open transaction: it would wait on a second connection (docs/decisions/084-a-transaction-never-waits-on-another-connection.md). Use the transaction's own client, or run it after the commit.`,
    )
  }
}

/** Throws TransactionWaitError when called from inside an open transaction's callback. */
export function assertOutsideTransaction(through: string): void {
  if (inTransaction.getStore()?.open) throw new TransactionWaitError(through)
}

// What reaches a connection of the client's pool (or another one); its other members (helpers
// that build fragments, options, end) do not.
const CONNECTING = new Set([
  'unsafe',
  'file',
  'reserve',
  'listen',
  'notify',
  'subscribe',
  'largeObject',
])

/**
 * `sql` with the rule above: a query, a reserve or a new transaction through it from inside an
 * open transaction throws; `begin` marks its callback's async context as inside. The clients a
 * transaction gives (`begin`'s `tx`) are postgres.js's own and stay unguarded.
 */
export function guardedClient(sql: postgres.Sql, name: string): postgres.Sql {
  const wrapped = new Map<PropertyKey, unknown>()
  const begin = (...args: unknown[]) => {
    assertOutsideTransaction(name)
    const work = args.pop() as (tx: postgres.TransactionSql) => unknown
    const state = { open: true }
    const run = (tx: postgres.TransactionSql) => inTransaction.run(state, () => work(tx))
    return (sql.begin as (...a: unknown[]) => Promise<unknown>)(...args, run).finally(() => {
      state.open = false
    })
  }
  return new Proxy(sql, {
    apply(target, self, args: unknown[]) {
      // A tagged template is a query; sql('name') or sql(rows) only builds a fragment.
      if (Array.isArray((args[0] as { raw?: unknown } | undefined)?.raw)) {
        assertOutsideTransaction(name)
      }
      return Reflect.apply(target, self, args)
    },
    get(target, prop) {
      if (prop === 'begin') return begin
      const value = Reflect.get(target, prop)
      if (!CONNECTING.has(prop as string) || typeof value !== 'function') return value
      let guarded = wrapped.get(prop)
      if (!guarded) {
        guarded = (...args: unknown[]) => {
          assertOutsideTransaction(name)
          return (value as (...a: unknown[]) => unknown).apply(target, args)
        }
        wrapped.set(prop, guarded)
      }
      return guarded
    },
  })
}

function clients(endpoint: Endpoint, embedded: boolean, release: () => void): Database {
  const options = { max: embedded ? 4 : 10, onnotice: () => {}, connect_timeout: 10 }
  const client = (max: number) =>
    typeof endpoint.connection === 'string'
      ? postgres(endpoint.connection, { ...options, max })
      : postgres({ ...endpoint.connection, ...options, max } as postgres.Options<
          Record<string, never>
        >)
  const sql = guardedClient(client(options.max), 'the shared database client')
  const authSql = guardedClient(client(embedded ? 2 : 4), "the sessions' database client")
  const db = drizzle(sql, { schema })
  return {
    db,
    sql,
    authSql,
    embedded,
    poolTarget: endpoint.poolTarget,
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

/**
 * Takes DATA_DIR (lock, modes: src/db/data-dir.ts) in both modes, then opens the embedded database
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
      endpoint = urlEndpoint(config.databaseUrl)
    } else {
      endpoint = await startEmbedded(config.dataDir)
    }
  } catch (e) {
    release()
    throw explainDataDirError(e, config.dataDir) ?? e
  }
  return clients(endpoint, !config.databaseUrl, release)
}

const urlEndpoint = (url: string): Endpoint => ({
  connection: url,
  poolTarget: { connectionString: url },
  close: async () => {},
})

/**
 * For processes beside the server (media workers, `media:reprocess`): the same database without
 * DATA_DIR's lock. DATABASE_URL as the server does; the embedded database only through the
 * server's socket, so it throws EmbeddedNotServedError when no server is serving it.
 */
export async function connectDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databaseWaitSeconds'>>,
): Promise<Database> {
  if (config.databaseUrl) {
    await waitForDatabase(config.databaseUrl, config.databaseWaitSeconds ?? 0)
    return clients(urlEndpoint(config.databaseUrl), false, () => {})
  }
  const dir = socketDirOf(config.dataDir)
  const endpoint: Endpoint = {
    connection: { path: socketPathIn(dir), ...EMBEDDED_LOGIN },
    poolTarget: socketTarget(dir),
    close: async () => {},
  }
  const database = clients(endpoint, true, () => {})
  try {
    await database.sql`select 1`
  } catch (e) {
    await database.close()
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ECONNREFUSED') throw new EmbeddedNotServedError()
    throw e
  }
  return database
}

/**
 * Applies pending migrations. Servers starting at once on one database take turns: drizzle's
 * migrator has no lock of its own, and two of them would both create its table and run the same
 * migration. The turn is a session advisory lock, so a server that dies meanwhile lets the next
 * one go at once. The embedded database has one process, and its single connection must not wait.
 */
export async function runMigrations(database: Database): Promise<void> {
  await duringStartup(database, () => migrate(database.db, { migrationsFolder }))
}

/**
 * Runs `work` while no other server sharing this database runs its own start-up work (migrations,
 * the first admin); the embedded database runs it as is.
 */
export async function duringStartup<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.embedded) return work()
  const session = await database.sql.reserve()
  try {
    await session`select pg_advisory_lock(hashtextextended(${STARTUP_LOCK}, 0))`
    try {
      return await work()
    } finally {
      await session`select pg_advisory_unlock(hashtextextended(${STARTUP_LOCK}, 0))`
    }
  } finally {
    session.release()
  }
}

/** Names the advisory lock of start-up work (upload locks are `tus:<id>`, src/uploads). */
const STARTUP_LOCK = 'studio-site:start-up'
