// Fixed-size sliding windows in memory: one process serves the site, so no shared store is needed.
export class RateLimiter {
  private hits = new Map<string, number[]>()
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs)
    if (list.length) this.hits.set(key, list)
    else this.hits.delete(key)
    return list
  }

  /** Milliseconds until `key` may try again, or 0 when it is under the limit. */
  retryAfter(key: string, now = Date.now()): number {
    const list = this.recent(key, now)
    if (list.length < this.max) return 0
    return this.windowMs - (now - list[list.length - this.max]!)
  }

  hit(key: string, now = Date.now()): void {
    const list = this.recent(key, now)
    list.push(now)
    this.hits.set(key, list)
  }

  reset(key: string): void {
    this.hits.delete(key)
  }
}

export function tooManyMessage(retryMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryMs / 60_000))
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}
