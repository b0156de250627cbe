// @tus/server's Locker on the shared PostgreSQL, for several servers behind one load balancer
// (docs/decisions/070-tus-upload-locks-in-postgresql.md): an upload's lock is a session-level
// advisory lock, so a server that dies (even SIGKILL) frees its locks the moment PostgreSQL sees
// its connection drop, and a waiter on any server asks the holder to let go through NOTIFY, as
// @tus/server's MemoryLocker does in one process. The embedded database keeps the MemoryLocker: one
// process, and PGlite serves one connection at a time, so no connection may sit holding locks.
//
// One connection per server holds all of its locks (a connection per lock would tie up a pool
// slot per upload in flight); an in-process map keeps this server's requests apart, since a
// session's advisory locks are reentrant. LISTEN takes a second connection (postgres.js's own).
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server'
import postgres from 'postgres'
import { guardedClient } from '../db/database.ts'

/** The NOTIFY channel on which a waiter names the upload it wants: `<locker id> <upload id>`. */
export const RELEASE_CHANNEL = 'tus_lock_release'

export type PgLockerOptions = {
  /** How long a request waits for an upload's lock before failing; @tus/server's default. */
  acquireTimeoutMs?: number
  /** How often a waiter tries again (and how soon it notices a release). */
  retryEveryMs?: number
  /** How often a waiter repeats its request to the holder. */
  askEveryMs?: number
  /** How often, while locks are held, the session holding them is checked to still be the same. */
  checkEveryMs?: number
}

type Held = { requestRelease: RequestRelease; session?: number }

export class PgLocker implements Locker {
  readonly id = crypto.randomUUID()
  private readonly held = new Map<string, Held>()
  private listening: Promise<void> | undefined
  private unlisten: (() => Promise<void>) | undefined
  private watch: ReturnType<typeof setInterval> | undefined
  private closed = false
  readonly options: Required<PgLockerOptions>

  /**
   * `sql` holds the locks: a client of one connection that is never recycled (`connect` makes
   * one), since a connection that ends takes its locks with it.
   */
  constructor(
    private readonly sql: postgres.Sql,
    options: PgLockerOptions = {},
    private readonly ownsClient = false,
  ) {
    this.options = {
      acquireTimeoutMs: 30_000,
      retryEveryMs: 100,
      askEveryMs: 1000,
      checkEveryMs: 2000,
      ...options,
    }
  }

  /** A locker with a client of its own on `url`, closed by `close()`. */
  static connect(url: string, options: PgLockerOptions = {}): PgLocker {
    // 0: never closed for idleness or age (postgres.js recycles connections by default).
    const sql = guardedClient(
      postgres(url, {
        max: 1,
        idle_timeout: 0,
        max_lifetime: 0,
        connect_timeout: 10,
        onnotice: () => {},
      }),
      'the upload locks client',
    )
    return new PgLocker(sql, options, true)
  }

  newLock(id: string): Lock {
    return new PgLock(id, this)
  }

  /** Stops listening and, if it made its client, ends it; held locks go with the connection. */
  async close(): Promise<void> {
    this.closed = true
    if (this.watch) clearInterval(this.watch)
    await this.listening?.catch(() => undefined)
    await this.unlisten?.().catch(() => undefined)
    if (this.ownsClient) await this.sql.end({ timeout: 5 })
  }

  /** Listens for release requests before the first lock is taken. */
  listen(): Promise<void> {
    this.listening ??= this.sql
      .listen(RELEASE_CHANNEL, (payload) => {
        const [from, id] = payload.split(' ')
        if (from === this.id || !id) return
        void this.held.get(id)?.requestRelease()
      })
      .then((listener) => {
        this.unlisten = listener.unlisten
      })
      .catch((e) => {
        this.listening = undefined
        throw e
      })
    return this.listening
  }

  /** One attempt: true when this request now holds `id`. */
  async tryLock(id: string, requestRelease: RequestRelease): Promise<boolean> {
    const local = this.held.get(id)
    if (local) {
      await local.requestRelease()
      return false
    }
    // Taken here before the query: another request of this process must not pass meanwhile.
    const entry: Held = { requestRelease }
    this.held.set(id, entry)
    try {
      const [row] = await this.sql<{ locked: boolean; session: number }[]>`
        select pg_try_advisory_lock(hashtextextended(${`tus:${id}`}, 0)) as locked,
               pg_backend_pid() as session`
      if (row?.locked) {
        entry.session = row.session
        this.startWatch()
        return true
      }
    } catch (e) {
      this.held.delete(id)
      throw e
    }
    this.held.delete(id)
    return false
  }

  /** Asks whichever server holds `id` to let go. */
  async ask(id: string): Promise<void> {
    await this.sql.notify(RELEASE_CHANNEL, `${this.id} ${id}`)
  }

  async unlock(id: string, entry: Held): Promise<void> {
    if (this.held.get(id) !== entry) throw new Error('Releasing an unlocked lock!')
    try {
      await this.sql`select pg_advisory_unlock(hashtextextended(${`tus:${id}`}, 0))`
    } catch (e) {
      // The connection is gone, and the lock with it: nothing left to release.
      console.error('[tus] releasing an upload lock:', (e as Error).message)
    } finally {
      this.held.delete(id)
      if (this.held.size === 0 && this.watch) {
        clearInterval(this.watch)
        this.watch = undefined
      }
    }
  }

  entryOf(id: string): Held | undefined {
    return this.held.get(id)
  }

  /**
   * If the connection holding the locks was lost (a database restart, a network cut), they are
   * gone and another server may take them: their holders are asked to stop, as a waiter would.
   */
  private startWatch() {
    if (this.watch || this.closed) return
    this.watch = setInterval(async () => {
      let session: number | undefined
      try {
        const [row] = await this.sql<{ session: number }[]>`select pg_backend_pid() as session`
        session = row?.session
      } catch {}
      for (const entry of this.held.values()) {
        if (entry.session !== undefined && entry.session !== session) void entry.requestRelease()
      }
    }, this.options.checkEveryMs)
    this.watch.unref?.()
  }
}

class PgLock implements Lock {
  private entry: Held | undefined
  constructor(
    private readonly id: string,
    private readonly locker: PgLocker,
  ) {}

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { acquireTimeoutMs, retryEveryMs, askEveryMs } = this.locker.options
    const deadline = performance.now() + acquireTimeoutMs
    await this.locker.listen()
    let askedAt = Number.NEGATIVE_INFINITY
    while (!stopSignal.aborted && performance.now() < deadline) {
      if (await this.locker.tryLock(this.id, requestRelease)) {
        this.entry = this.locker.entryOf(this.id)
        return
      }
      // Held here (tryLock asked its holder) or on another server: ask there, now and then.
      if (!this.locker.entryOf(this.id) && performance.now() - askedAt >= askEveryMs) {
        askedAt = performance.now()
        await this.locker.ask(this.id)
      }
      await sleepUnless(stopSignal, Math.min(retryEveryMs, deadline - performance.now()))
    }
    throw ERRORS.ERR_LOCK_TIMEOUT
  }

  async unlock(): Promise<void> {
    const entry = this.entry
    if (!entry) throw new Error('Releasing an unlocked lock!')
    this.entry = undefined
    await this.locker.unlock(this.id, entry)
  }
}

function sleepUnless(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
