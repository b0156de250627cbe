// Work that must not run right after the answer that asked for it: done after a random pause,
// in batches, one batch at a time. A reset request for a known address starts a transaction
// and a mail; run at once, that work slows the next answer the server gives, which an attacker
// can time (ASVS 6.3.8). At a random later moment it lands on whoever is being served then.
// One batch at a time also bounds the work a flood of requests can start.
export class DeferredQueue {
  private readonly waiting = new Set<string>()
  private worker: Promise<void> | undefined

  constructor(
    private readonly work: (key: string) => Promise<void>,
    private readonly opts: { pauseMs: { min: number; max: number }; maxWaiting: number },
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Queues `key` (once, however often it is added before its turn); dropped when full. */
  add(key: string): void {
    if (this.waiting.size >= this.opts.maxWaiting) return
    this.waiting.add(key)
    this.worker ??= this.drain().finally(() => {
      this.worker = undefined
    })
  }

  /** Resolves when nothing is waiting or running (shutdown, tests). */
  async settle(): Promise<void> {
    while (this.worker) await this.worker
  }

  private async drain(): Promise<void> {
    const { min, max } = this.opts.pauseMs
    while (this.waiting.size > 0) {
      await Bun.sleep(min + Math.random() * (max - min))
      const batch = [...this.waiting]
      this.waiting.clear()
      for (const key of batch) await this.work(key).catch(this.onError)
    }
  }
}
