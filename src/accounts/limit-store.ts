// Where the sign-in and reset limits keep their counters and locks: rate-limiter-flexible's Drizzle
// store on the project's own database (table `rate_limits`), so every server on that database
// counts the same failures and honours the same locks
// (docs/decisions/062-limits-in-the-database-health-and-metrics.md). Each call is one statement and
// none holds a transaction: the embedded database serves one connection at a time.
import { lt, or, sql } from 'drizzle-orm'
import { RateLimiterDrizzle } from 'rate-limiter-flexible'
import { rateLimits } from '../../db/schema.ts'
import type { Db } from '../db/database.ts'
import { logUnexpected } from '../db/errors.ts'

/** Expired rows are deleted at most this often, by the first attempt that finds it due. */
export const SWEEP_EVERY_MS = 10 * 60_000

export class LimitStore {
  private nextSweep = 0

  constructor(private readonly db: Db) {}

  /** `points` per `durationSeconds` for each key under `prefix` (a name no other counter uses). */
  counter(prefix: string, points: number, durationSeconds: number): RateLimiterDrizzle {
    return new RateLimiterDrizzle({
      storeClient: this.db,
      schema: rateLimits,
      keyPrefix: prefix,
      points,
      duration: durationSeconds,
      // Its own clean-up is a timer per counter that outlives the app; ours is `sweepIfDue`.
      clearExpiredByTimeout: false,
    })
  }

  /**
   * Deletes the expired rows when the last sweep is `SWEEP_EVERY_MS` old: the table then holds
   * only what the last window's attempts wrote, with no timer to stop. A failed sweep is logged
   * and tried again at the next due time; it never fails the attempt that ran it.
   */
  async sweepIfDue(): Promise<void> {
    const now = Date.now()
    if (now < this.nextSweep) return
    this.nextSweep = now + SWEEP_EVERY_MS
    // A row renewed meanwhile is not expired any more when the delete rechecks it.
    await this.db
      .delete(rateLimits)
      .where(lt(rateLimits.expire, new Date(now)))
      .catch((e) => logUnexpected('rate limits: sweep', e))
  }

  /** Deletes every key that starts with one of `prefixes` (whole keys: `<counter>:<key>`). */
  async forget(prefixes: string[]): Promise<void> {
    if (prefixes.length === 0) return
    await this.db
      .delete(rateLimits)
      .where(or(...prefixes.map((p) => sql`starts_with(${rateLimits.key}, ${p})`)))
  }

  /** Rows held under these counters' prefixes, expired or not (tests of boundedness). */
  async rows(counterPrefixes: string[]): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(rateLimits)
      .where(or(...counterPrefixes.map((p) => sql`starts_with(${rateLimits.key}, ${`${p}:`})`)))
    return row?.n ?? 0
  }
}
