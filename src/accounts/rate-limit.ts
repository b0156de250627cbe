// Limits on guessing, shared by every server on the database: counters and locks live in the
// project's PostgreSQL (src/accounts/limit-store.ts,
// docs/decisions/062-limits-in-the-database-health-and-metrics.md), each with its expiry, so ten
// failures are ten whichever server saw them, and a spray of keys is gone once its window has
// passed. What is counted:
// - per e-mail+address pair: failures, then a lock that doubles each time it is earned again;
//   an attacker's failures never lock the owner out from the owner's own address;
// - per address (an IPv4 address or an IPv6 /64): failures across all e-mails (spraying);
// - attempts in flight, per address, per e-mail and in all, so a burst cannot queue thousands
//   of argon2 checks: the excess is refused at once. These stay in this process's memory: they
//   cap this process's own work, and a crashed process must not leave places taken.
// Each attempt is reserved before the expensive check and given back only if it succeeded.
import { type RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible'
import { addressGroup } from '../http/client-ip.ts'
import type { LimitStore } from './limit-store.ts'

export type LimitOptions = {
  /** Failures allowed per e-mail+address pair in `windowSeconds`. */
  perPair: number
  /** Failures allowed per address in `windowSeconds`. */
  perAddress: number
  windowSeconds: number
  /** The first lock of a pair; each further one doubles it, up to `maxLockSeconds`. */
  lockSeconds: number
  maxLockSeconds: number
  /** How long after a lock ends the next one still counts as "again". */
  lockMemorySeconds: number
  /** Checks running at once: per address, per e-mail, in all. 0 = no cap. */
  inFlight: { perAddress: number; perEmail: number; total: number }
}

/** `started`: this refusal began a lock (of the pair or the address), rather than met one. */
export type Denied = {
  denied: 'locked' | 'busy'
  retryMs: number
  started?: 'pair' | 'address'
}
export type Attempt = {
  denied?: undefined
  /**
   * The address's failures in the window before this attempt (its other attempts still running
   * are not counted here; another server's are): 0 for an address that has not failed.
   */
  failures: number
  /** The check passed: the pair's failures and locks are forgotten, the reservation returned. */
  succeeded(): Promise<void>
  /** The check never ran (no turn for it): the reservation is returned, nothing is counted. */
  withdrawn(): Promise<void>
  /** The check is over either way; call once, last (it frees the in-flight places). */
  done(): void
}

/** How many of each key are running now; a key leaves the map at 0, so it holds only those. */
class InFlight {
  private counts = new Map<string, number>()
  constructor(private readonly max: number) {}

  enter(key: string): boolean {
    const n = this.counts.get(key) ?? 0
    if (this.max > 0 && n >= this.max) return false
    this.counts.set(key, n + 1)
    return true
  }

  leave(key: string): void {
    const n = (this.counts.get(key) ?? 1) - 1
    if (n > 0) this.counts.set(key, n)
    else this.counts.delete(key)
  }

  count(key: string): number {
    return this.counts.get(key) ?? 0
  }

  get size(): number {
    return this.counts.size
  }
}

const BUSY_RETRY_MS = 1000

export class AttemptLimits {
  private readonly pairs: RateLimiterDrizzle
  private readonly addresses: RateLimiterDrizzle
  private readonly locks: RateLimiterDrizzle
  private readonly running: { address: InFlight; email: InFlight; total: InFlight }
  private readonly prefixes: { pair: string; address: string; lock: string }

  /** `name` keeps these counters apart from other limits' in the shared store. */
  constructor(
    private readonly store: LimitStore,
    name: string,
    private readonly o: LimitOptions,
  ) {
    this.prefixes = { pair: `${name}-pair`, address: `${name}-address`, lock: `${name}-lock` }
    this.pairs = store.counter(this.prefixes.pair, o.perPair, o.windowSeconds)
    this.addresses = store.counter(this.prefixes.address, o.perAddress, o.windowSeconds)
    this.locks = store.counter(this.prefixes.lock, 1, o.lockMemorySeconds)
    this.running = {
      address: new InFlight(o.inFlight.perAddress),
      email: new InFlight(o.inFlight.perEmail),
      total: new InFlight(o.inFlight.total),
    }
  }

  // The e-mail leads, so `liftEmail` finds every pair of it by prefix.
  private pairKey(email: string, group: string): string {
    return `${email}\n${group}`
  }

  /**
   * Reserves one attempt of `email` from `address` before the check it guards. Denied at once
   * when the pair or the address is locked, or too many of its checks are running. A failing
   * database is thrown, never taken for a lock.
   */
  async reserve(email: string, address: string): Promise<Attempt | Denied> {
    const group = addressGroup(address)
    const entered: [InFlight, string][] = []
    const leaveAll = () => {
      for (const [counter, key] of entered.splice(0)) counter.leave(key)
    }
    for (const [counter, key] of [
      [this.running.total, '*'],
      [this.running.address, group],
      [this.running.email, email],
    ] as const) {
      if (!counter.enter(key)) {
        leaveAll()
        return { denied: 'busy', retryMs: BUSY_RETRY_MS }
      }
      entered.push([counter, key])
    }
    try {
      return await this.count(email, group, leaveAll)
    } catch (e) {
      leaveAll()
      throw e
    }
  }

  private async count(
    email: string,
    group: string,
    leaveAll: () => void,
  ): Promise<Attempt | Denied> {
    await this.store.sweepIfDue()
    const pair = this.pairKey(email, group)
    const pairRefusal = await refusalOf(this.pairs.consume(pair))
    if (pairRefusal) {
      leaveAll()
      const started = isFirstRefusal(pairRefusal, this.o.perPair) ? ('pair' as const) : undefined
      return { denied: 'locked', retryMs: await this.lockFor(pair, pairRefusal), started }
    }
    let consumed = 0
    const addressRefusal = await refusalOf(
      this.addresses.consume(group).then((res) => {
        consumed = res.consumedPoints
      }),
    )
    if (addressRefusal) {
      await this.pairs.reward(pair)
      leaveAll()
      const started = isFirstRefusal(addressRefusal, this.o.perAddress)
        ? ('address' as const)
        : undefined
      return { denied: 'locked', retryMs: msBefore(addressRefusal), started }
    }

    return {
      // Its points hold this attempt and the address's others still running in this process.
      failures: Math.max(0, consumed - this.running.address.count(group)),
      succeeded: async () => {
        await Promise.all([
          this.pairs.delete(pair),
          this.locks.delete(pair),
          this.addresses.reward(group),
        ])
      },
      withdrawn: async () => {
        await Promise.all([this.pairs.reward(pair), this.addresses.reward(group)])
      },
      done: leaveAll,
    }
  }

  /** A refused pair: the first refusal of a window starts a lock, twice as long as the last. */
  private async lockFor(pair: string, refusal: RateLimiterRes): Promise<number> {
    if (!isFirstRefusal(refusal, this.o.perPair)) return msBefore(refusal)
    // Only one attempt, on any server, gets the first refusal (the store counts in one
    // statement), so the lock's length is decided once.
    const earlier = (await this.locks.get(pair))?.consumedPoints ?? 0
    const seconds = Math.min(this.o.lockSeconds * 2 ** earlier, this.o.maxLockSeconds)
    // Remembered until `lockMemorySeconds` after this lock ends, however many came before.
    await this.locks.set(pair, earlier + 1, seconds + this.o.lockMemorySeconds)
    await this.pairs.block(pair, seconds)
    return seconds * 1000
  }

  /** Forgets every failure and lock of `email`, from any address (its password was reset). */
  async liftEmail(email: string): Promise<void> {
    const key = this.pairKey(email, '')
    await this.store.forget([`${this.prefixes.pair}:${key}`, `${this.prefixes.lock}:${key}`])
  }

  /** Entries held now (rows in the store, in-flight places), for tests of boundedness. */
  async stored(): Promise<number> {
    return (
      (await this.store.rows(Object.values(this.prefixes))) +
      this.running.address.size +
      this.running.email.size +
      this.running.total.size
    )
  }
}

/** The store's refusal, or undefined when the points were granted; other errors are thrown. */
async function refusalOf(consumed: Promise<unknown>): Promise<RateLimiterRes | undefined> {
  try {
    await consumed
    return undefined
  } catch (e) {
    if (e instanceof RateLimiterRes) return e
    throw e
  }
}

/** The refusal that used the first point past `allowed` (the ones after it meet the lock). */
function isFirstRefusal(refusal: RateLimiterRes, allowed: number): boolean {
  return refusal.consumedPoints === allowed + 1
}

function msBefore(refusal: RateLimiterRes): number {
  return Math.max(refusal.msBeforeNext, 1000)
}

export function tooManyMessage(retryMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryMs / 60_000))
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

export const BUSY_MESSAGE = 'Too many sign-in attempts at once. Please try again in a moment.'
