// The tus upload locker on PostgreSQL (src/uploads/pg-locker.ts): two lockers on two clients of
// one database stand for two servers behind a load balancer.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ERRORS } from '@tus/server'
import postgres from 'postgres'
import { PgLocker } from '../../src/uploads/pg-locker.ts'
import { createTestDatabase, type TestDatabase } from '../../testkit/database.ts'
import { describeSkipIf } from '../../testkit/skip.ts'

const ROOT = join(import.meta.dir, '..', '..')
const noServer =
  !process.env.TEST_DATABASE_URL &&
  'needs TEST_DATABASE_URL: the embedded database keeps the in-memory locker (one process)'

let testDb: TestDatabase
let admin: postgres.Sql
let connectionsBefore = 0
const lockers: PgLocker[] = []

const connections = async () => {
  const [row] = await admin<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()`
  return row?.n ?? 0
}

/** A locker as one server makes it, on its own connection to the shared database. */
const server = (options: ConstructorParameters<typeof PgLocker>[1] = {}) => {
  const locker = PgLocker.connect(testDb.databaseUrl!, options)
  lockers.push(locker)
  return locker
}

const never = () => new AbortController().signal

describeSkipIf(noServer)('tus upload locks shared through PostgreSQL', () => {
  beforeAll(async () => {
    testDb = await createTestDatabase()
    admin = postgres(testDb.databaseUrl!, { max: 1, onnotice: () => {} })
    connectionsBefore = await connections()
  })
  afterAll(async () => {
    for (const locker of lockers) await locker.close()
    await admin?.end()
    await testDb?.drop()
  })

  test('a holder asked by another server lets go, and the waiter has the lock within a second', async () => {
    const a = server()
    const b = server()
    const held = a.newLock('upload-1')
    let askedAt = 0
    await held.lock(never(), async () => {
      askedAt = performance.now()
      // What @tus/server does when asked: the request ends and its lock is released.
      await held.unlock()
    })
    const started = performance.now()
    await b.newLock('upload-1').lock(never(), () => {})
    const waited = performance.now() - started
    expect(askedAt).toBeGreaterThan(0)
    expect(waited).toBeLessThan(1000)
  })

  test("a waiter whose holder never lets go fails with the library's lock timeout", async () => {
    const a = server()
    const b = server({ acquireTimeoutMs: 1500 })
    const held = a.newLock('upload-2')
    let asked = 0
    await held.lock(never(), () => {
      asked++
    })
    const started = performance.now()
    await expect(b.newLock('upload-2').lock(never(), () => {})).rejects.toBe(
      ERRORS.ERR_LOCK_TIMEOUT,
    )
    const waited = performance.now() - started
    expect(waited).toBeGreaterThanOrEqual(1400)
    expect(waited).toBeLessThan(3000)
    expect(asked).toBeGreaterThan(0)
    // The failed wait left nothing behind: once released, the id is free for the same waiter.
    await held.unlock()
    const later = b.newLock('upload-2')
    await later.lock(never(), () => {})
    await later.unlock()
  })

  test('a request stopped while waiting gives up at once', async () => {
    const a = server()
    const b = server()
    const held = a.newLock('upload-3')
    await held.lock(never(), () => {})
    const stop = new AbortController()
    const waiting = b.newLock('upload-3').lock(stop.signal, () => {})
    await Bun.sleep(200)
    const started = performance.now()
    stop.abort()
    await expect(waiting).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT)
    expect(performance.now() - started).toBeLessThan(500)
    await held.unlock()
  })

  test('two requests on one server: the first is asked to let go, the second then holds it', async () => {
    const a = server()
    const first = a.newLock('upload-4')
    await first.lock(never(), () => first.unlock())
    const second = a.newLock('upload-4')
    await second.lock(never(), () => {})
    // Another server cannot have it meanwhile: the session's locks are not shared.
    const other = server({ acquireTimeoutMs: 500 })
    await expect(other.newLock('upload-4').lock(never(), () => {})).rejects.toBe(
      ERRORS.ERR_LOCK_TIMEOUT,
    )
    await second.unlock()
    await expect(second.unlock()).rejects.toThrow('Releasing an unlocked lock!')
  })

  test('many uploads lock independently on two servers', async () => {
    const a = server()
    const b = server({ acquireTimeoutMs: 500 })
    const ids = Array.from({ length: 20 }, (_, i) => `many-${i}`)
    const onA = ids.map((id) => a.newLock(`${id}-a`))
    const onB = ids.map((id) => b.newLock(`${id}-b`))
    const started = performance.now()
    await Promise.all([...onA, ...onB].map((lock) => lock.lock(never(), () => {})))
    expect(performance.now() - started).toBeLessThan(2000)
    // Each is held: the other server cannot take any of A's.
    const refused = await Promise.allSettled(
      ids.slice(0, 3).map((id) => b.newLock(`${id}-a`).lock(never(), () => {})),
    )
    expect(refused.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected'])
    await Promise.all([...onA, ...onB].map((lock) => lock.unlock()))
  })

  test('a lock held by a server that is killed (SIGKILL) is free within seconds', async () => {
    const child = Bun.spawn(
      [
        process.execPath,
        '-e',
        `import { PgLocker } from ${JSON.stringify(join(ROOT, 'src/uploads/pg-locker.ts'))}
         const locker = PgLocker.connect(process.env.LOCK_DATABASE_URL)
         await locker.newLock('killed-upload').lock(new AbortController().signal, () => {})
         console.log('locked')
         setInterval(() => {}, 1000)`,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, LOCK_DATABASE_URL: testDb.databaseUrl! },
        stdout: 'pipe',
        stderr: 'inherit',
      },
    )
    try {
      const reader = (child.stdout as ReadableStream<Uint8Array>).getReader()
      let out = ''
      while (!out.includes('locked')) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`the child ended before locking: ${out}`)
        out += new TextDecoder().decode(value)
      }
      const b = server({ acquireTimeoutMs: 1000 })
      // Held, and the holder is asked but does not answer (it only keeps the lock).
      await expect(b.newLock('killed-upload').lock(never(), () => {})).rejects.toBe(
        ERRORS.ERR_LOCK_TIMEOUT,
      )
      child.kill('SIGKILL')
      await child.exited
      const started = performance.now()
      const c = server({ acquireTimeoutMs: 10_000 })
      const lock = c.newLock('killed-upload')
      await lock.lock(never(), () => {})
      expect(performance.now() - started).toBeLessThan(5000)
      await lock.unlock()
    } finally {
      child.kill('SIGKILL')
    }
  }, 30_000)

  test('closed lockers leave no connection to the database behind', async () => {
    const a = server()
    const lock = a.newLock('last')
    await lock.lock(never(), () => {})
    expect(await connections()).toBeGreaterThan(connectionsBefore)
    for (const locker of lockers.splice(0)) await locker.close()
    // The server notices closed connections at once, but give it a moment.
    const deadline = performance.now() + 3000
    while ((await connections()) > connectionsBefore && performance.now() < deadline) {
      await Bun.sleep(50)
    }
    expect(await connections()).toBe(connectionsBefore)
  })
})
