// Limits on guessing, kept in memory (one process serves the site). Counters live in
// rate-limiter-flexible's memory store: each key carries its expiry and is deleted when it
// expires, so a spray of keys is gone once its window has passed. What is counted:
// - per e-mail+address pair: failures, then a lock that doubles each time it is earned again;
//   an attacker's failures never lock the owner out from the owner's own address;
// - per address (an IPv4 address or an IPv6 /64): failures across all e-mails (spraying);
// - attempts in flight, per address, per e-mail and in all, so a burst cannot queue thousands
//   of argon2 checks: the excess is refused at once.
// Each attempt is reserved before the expensive check and given back only if it succeeded.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { addressGroup } from '../http/client-ip.ts'

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
  /** The check passed: the pair's failures and locks are forgotten, the reservation returned. */
  succeeded(): Promise<void>
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

  get size(): number {
    return this.counts.size
  }
}

const BUSY_RETRY_MS = 1000

export class AttemptLimits {
  private readonly pairs: RateLimiterMemory
  private readonly addresses: RateLimiterMemory
  private readonly locks: RateLimiterMemory
  private readonly running: { address: InFlight; email: InFlight; total: InFlight }
  /** Bumped by `liftEmail`: pair keys carry it, so every pair of that e-mail starts afresh. */
  private readonly epochs = new Map<string, number>()

  constructor(private readonly o: LimitOptions) {
    this.pairs = new RateLimiterMemory({ points: o.perPair, duration: o.windowSeconds })
    this.addresses = new RateLimiterMemory({ points: o.perAddress, duration: o.windowSeconds })
    this.locks = new RateLimiterMemory({ points: 1, duration: o.lockMemorySeconds })
    this.running = {
      address: new InFlight(o.inFlight.perAddress),
      email: new InFlight(o.inFlight.perEmail),
      total: new InFlight(o.inFlight.total),
    }
  }

  private pairKey(email: string, group: string): string {
    return `${this.epochs.get(email) ?? 0}\n${email}\n${group}`
  }

  /**
   * Reserves one attempt of `email` from `address` before the check it guards. Denied at once
   * when the pair or the address is locked, or too many of its checks are running.
   */
  async reserve(email: string, address: string): Promise<Attempt | Denied> {
    const group = addressGroup(address)
    const entered: [InFlight, string][] = []
    const leaveAll = () => {
      for (const [counter, key] of entered) counter.leave(key)
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

    const pair = this.pairKey(email, group)
    try {
      await this.pairs.consume(pair)
    } catch (e) {
      leaveAll()
      const started = isFirstRefusal(e, this.o.perPair) ? ('pair' as const) : undefined
      return { denied: 'locked', retryMs: await this.lockFor(pair, e), started }
    }
    try {
      await this.addresses.consume(group)
    } catch (e) {
      await this.pairs.reward(pair)
      leaveAll()
      const started = isFirstRefusal(e, this.o.perAddress) ? ('address' as const) : undefined
      return { denied: 'locked', retryMs: msBefore(e), started }
    }

    return {
      succeeded: async () => {
        await Promise.all([
          this.pairs.delete(pair),
          this.locks.delete(pair),
          this.addresses.reward(group),
        ])
      },
      done: leaveAll,
    }
  }

  /** A refused pair: the first refusal of a window starts a lock, twice as long as the last. */
  private async lockFor(pair: string, refusal: unknown): Promise<number> {
    if (!isFirstRefusal(refusal, this.o.perPair)) return msBefore(refusal)
    const earlier = (await this.locks.get(pair))?.consumedPoints ?? 0
    const seconds = Math.min(this.o.lockSeconds * 2 ** earlier, this.o.maxLockSeconds)
    // Remembered until `lockMemorySeconds` after this lock ends, however many came before.
    await this.locks.set(pair, earlier + 1, seconds + this.o.lockMemorySeconds)
    await this.pairs.block(pair, seconds)
    return seconds * 1000
  }

  /** Forgets every failure and lock of `email`, from any address (its password was reset). */
  liftEmail(email: string): void {
    this.epochs.set(email, (this.epochs.get(email) ?? 0) + 1)
  }

  /** Entries held now, for tests of boundedness. */
  stored(): number {
    return (
      this.pairs.dump().storage.length +
      this.addresses.dump().storage.length +
      this.locks.dump().storage.length +
      this.running.address.size +
      this.running.email.size +
      this.running.total.size
    )
  }
}

/** The refusal that used the first point past `allowed` (the ones after it meet the lock). */
function isFirstRefusal(refusal: unknown, allowed: number): boolean {
  return refusal instanceof RateLimiterRes && refusal.consumedPoints === allowed + 1
}

function msBefore(refusal: unknown): number {
  return refusal instanceof RateLimiterRes ? Math.max(refusal.msBeforeNext, 1000) : 60_000
}

export function tooManyMessage(retryMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryMs / 60_000))
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

export const BUSY_MESSAGE = 'Too many sign-in attempts at once. Please try again in a moment.'
