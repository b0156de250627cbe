// Waiting on what another process does (the media worker processing a work, say): read again
// every so often until the answer will do, and when time runs out, fail with what was read last.

export type PollOptions<T> = {
  /** What is awaited, for the failure's message: "the sample works processed". */
  what: string
  timeoutMs: number
  everyMs?: number
  /** An answer that will never do (a work whose processing failed): stop at once. */
  failed?: (value: T) => boolean
  /** How the last answer reads in the failure's message. */
  show?: (value: T) => string
}

/** Calls `read` until `done` holds for its answer, and returns that answer. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { what, timeoutMs, everyMs = 500, failed, show = (v) => JSON.stringify(v) }: PollOptions<T>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (failed?.(value)) throw new Error(`${what}: it cannot happen now (${show(value)})`)
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs / 1000} s (last seen: ${show(value)})`)
    }
    await Bun.sleep(everyMs)
  }
}
