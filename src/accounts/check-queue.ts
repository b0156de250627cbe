// Password checks (argon2id, tens of milliseconds of a core each) a few at a time, the rest waiting
// their turn instead of being refused: a flood of wrong guesses then slows down, but cannot take
// the place of a right password. Checks from addresses with no failures wait in a lane of their
// own that is always served first, so a guesser's queue never stands before a client's first try;
// within a lane the addresses take turns (one check each, round and round), so the first tries of
// a few busy addresses, which have no failures yet either, hold a newcomer back by one check each.
// Each lane is bounded in length and in waiting time: past either, a check is refused as busy.
// This process's memory: it bounds this process's CPU, as the in-flight caps of rate-limit.ts do.

export type CheckQueueOptions = {
  /** Checks running at once. */
  running: number
  /** Checks waiting at most, per lane (addresses without failures, and the others). */
  waiting: { clean: number; failed: number }
  /** The longest a check waits for its turn before it is refused. */
  maxWaitMs: number
}

type Waiter = { start: () => void }

/** The checks waiting in one lane, by address, in the order the addresses take their turns. */
class Lane {
  private readonly byAddress = new Map<string, Waiter[]>()
  size = 0

  add(address: string, waiter: Waiter): void {
    const queue = this.byAddress.get(address)
    if (queue) queue.push(waiter)
    else this.byAddress.set(address, [waiter])
    this.size++
  }

  remove(address: string, waiter: Waiter): void {
    const queue = this.byAddress.get(address)
    const at = queue?.indexOf(waiter) ?? -1
    if (!queue || at < 0) return
    queue.splice(at, 1)
    this.size--
    if (queue.length === 0) this.byAddress.delete(address)
  }

  /** The next address's oldest check; that address then goes to the back of the turns. */
  take(): Waiter | undefined {
    for (const [address, queue] of this.byAddress) {
      const waiter = queue.shift()!
      this.size--
      this.byAddress.delete(address)
      if (queue.length) this.byAddress.set(address, queue)
      return waiter
    }
    return undefined
  }
}

export class CheckQueue {
  private running = 0
  private readonly lanes = { clean: new Lane(), failed: new Lane() }

  constructor(private readonly o: CheckQueueOptions) {}

  /**
   * Runs `check` once a place is free: first among the waiting when `clean` (its address has no
   * failures), in turn with other addresses of its lane. Null, without running it, when its lane
   * is full or its turn did not come in time.
   */
  async run<T>(
    who: { address: string; clean: boolean },
    check: () => Promise<T>,
  ): Promise<T | null> {
    if (!(await this.turn(who.address, who.clean ? 'clean' : 'failed'))) return null
    try {
      return await check()
    } finally {
      this.next()
    }
  }

  /** Checks running and waiting now (tests, metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.lanes.clean.size + this.lanes.failed.size }
  }

  private turn(address: string, which: 'clean' | 'failed'): Promise<boolean> {
    if (this.running < this.o.running) {
      this.running++
      return Promise.resolve(true)
    }
    const lane = this.lanes[which]
    if (lane.size >= this.o.waiting[which]) return Promise.resolve(false)
    return new Promise((resolve) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(timer)
          resolve(true)
        },
      }
      const timer = setTimeout(() => {
        lane.remove(address, waiter)
        resolve(false)
      }, this.o.maxWaitMs)
      lane.add(address, waiter)
    })
  }

  /** A check ended: its place goes to the next waiting one, clean addresses first. */
  private next(): void {
    const waiter = this.lanes.clean.take() ?? this.lanes.failed.take()
    if (waiter) waiter.start()
    else this.running--
  }
}
