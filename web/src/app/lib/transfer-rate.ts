// Speed and time left of a transfer, from the bytes sent over the last few seconds (a sliding
// window, so a burst or a stall shows within seconds and older history does not drag it).

export interface RateMeter {
  /** Record the bytes sent so far at `now` (ms). Fewer than before starts a new measurement. */
  add(sent: number, now?: number): void
  /** Bytes per second over the window, or null until it spans at least `minSpanMs`. */
  rate(): number | null
  /** Seconds until `total` at the current rate, or null when the rate is unknown or zero. */
  secondsLeft(total: number): number | null
  reset(): void
}

export function createRateMeter({ windowMs = 5000, minSpanMs = 1000 } = {}): RateMeter {
  let samples: { at: number; sent: number }[] = []

  const rate = () => {
    const first = samples[0]
    const last = samples.at(-1)
    if (!first || !last || last.at - first.at < minSpanMs) return null
    return ((last.sent - first.sent) * 1000) / (last.at - first.at)
  }

  return {
    add(sent, now = performance.now()) {
      const last = samples.at(-1)
      // A chunk sent again after a failure restarts from the server's offset.
      if (last && sent < last.sent) samples = []
      samples.push({ at: now, sent })
      // Keep one sample at or before the window's start, so the window is always full.
      while (samples.length > 2 && (samples[1]?.at ?? now) <= now - windowMs) samples.shift()
    },
    rate,
    secondsLeft(total) {
      const perSecond = rate()
      const last = samples.at(-1)
      if (!perSecond || perSecond <= 0 || !last) return null
      return Math.max(0, total - last.sent) / perSecond
    },
    reset() {
      samples = []
    },
  }
}
