// The database module's rule that a transaction never waits on another connection
// (docs/decisions/084-a-transaction-never-waits-on-another-connection.md): from inside a
// transaction's callback, a query through any other client (the shared pool, lucia's, a nested
// transaction, a reserved connection, the job queue's pool) throws at once, where on the embedded
// database it would have waited forever. The transaction's own client, other requests and work left
// for after the commit are untouched.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { admins } from '../../db/schema.ts'
import { TransactionWaitError } from '../../src/db/database.ts'
import { type MediaQueue, startMediaQueue } from '../../src/processing/queue.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
let queue: MediaQueue
beforeAll(async () => {
  t = await startTestApp()
  // A second queue on the app's database, as `bun run worker` starts one.
  queue = await startMediaQueue({
    target: t.app.database.poolTarget,
    embedded: t.app.database.embedded,
    media: t.config.media,
    supervise: false,
  })
}, 120_000)
afterAll(async () => {
  await queue?.stop()
  await t?.stop()
}, 60_000)

/** `work`'s outcome, or a failure naming what did not settle within `ms`. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not settled within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The error `work` rejects with, within 3 s (a wait on the embedded database never ends): drizzle
 * wraps its driver's errors, so the guard's is taken from the causes.
 */
const refusal = (what: string, work: () => PromiseLike<unknown>) =>
  within(
    3000,
    what,
    (async () => {
      try {
        await work()
      } catch (error) {
        let found: unknown = error
        while (found instanceof Error && !(found instanceof TransactionWaitError) && found.cause) {
          found = found.cause
        }
        return found
      }
      return undefined
    })(),
  )

const ROLLBACK = new Error('roll back')

describe('inside a transaction', () => {
  test('a query through the shared client throws at once; the transaction’s own client still answers and commits', async () => {
    const db = t.app.database.db
    const result = await within(
      10_000,
      'the transaction',
      db.transaction(async (tx) => {
        const error = await refusal('db.select', () => db.select({ n: admins.id }).from(admins))
        expect(error).toBeInstanceOf(TransactionWaitError)
        expect((error as Error).message).toContain(
          'docs/decisions/084-a-transaction-never-waits-on-another-connection.md',
        )
        const [row] = await tx.select({ email: admins.email }).from(admins)
        return row?.email
      }),
    )
    expect(result).toBe('owner@studio.test')
    // The database answers everyone once the transaction has ended.
    expect((await db.execute(sql`select 1 as one`))[0]).toEqual({ one: 1 })
  })

  test('every other way to the database throws too: a tagged query, lucia’s client, a nested transaction, a reserve, the job queue’s pool', async () => {
    const { db, sql: client, authSql } = t.app.database
    const outcome = await within(
      20_000,
      'the transaction',
      db
        .transaction(async (tx) => {
          const ways: [string, () => PromiseLike<unknown>][] = [
            ['sql`…`', () => client`select 1`],
            ['sql.unsafe', () => client.unsafe('select 1')],
            ['authSql`…`', () => authSql`select 1`],
            ['db.transaction', () => db.transaction(async (inner) => inner.execute(sql`select 1`))],
            ['sql.begin', () => client.begin((inner) => inner`select 1`)],
            ['sql.reserve', () => client.reserve()],
            ['queue.stats', () => queue.stats()],
            ['queue.enqueue without the transaction', () => queue.enqueue(job)],
            [
              'a query from a timer the callback set',
              () =>
                new Promise((resolve, reject) => {
                  setTimeout(() => {
                    db.select({ id: admins.id }).from(admins).execute().then(resolve, reject)
                  }, 10)
                }),
            ],
          ]
          for (const [what, work] of ways) {
            expect([what, await refusal(what, work)]).toEqual([
              what,
              expect.any(TransactionWaitError),
            ])
          }
          // A job written through the transaction itself is allowed (and rolled back below).
          expect(await queue.enqueue(job, tx)).toEqual(expect.any(String))
          // A savepoint is the same connection.
          expect(
            await tx.transaction(async (inner) => inner.execute(sql`select 2 as two`)),
          ).toEqual(expect.anything())
          throw ROLLBACK
        })
        .catch((error: unknown) => error),
    )
    expect(outcome).toBe(ROLLBACK)
    expect(await queue.stats()).toEqual(expect.objectContaining({ jobs: [] }))
  })

  test('other requests are not refused, and work the callback leaves for later runs once it has committed', async () => {
    const db = t.app.database.db
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let later: Promise<unknown> | undefined
    let started!: () => void
    const begun = new Promise<void>((resolve) => {
      started = resolve
    })
    const transaction = db.transaction(async (tx) => {
      await tx.execute(sql`select 1`)
      // Started here, run after the commit: no longer inside the transaction.
      later = new Promise((resolve) => setTimeout(resolve, 200)).then(() =>
        db.select({ email: admins.email }).from(admins),
      )
      started()
      await held
    })
    await begun
    // Another request, outside the callback: it waits for the transaction on the embedded
    // database and runs beside it on PostgreSQL, and is refused on neither.
    const other = db.select({ email: admins.email }).from(admins).execute()
    await Bun.sleep(100)
    release()
    await within(10_000, 'the transaction', transaction)
    expect(await within(10_000, 'the other request', other)).toEqual([
      { email: 'owner@studio.test' },
    ])
    expect(await within(10_000, 'the work left for later', later!)).toEqual([
      { email: 'owner@studio.test' },
    ])
  })
})

const job = { videoId: '00000000-0000-4000-8000-000000000000', sourceKey: 'guard-test.mp4' }
