// The queue of password checks on its own (src/accounts/check-queue.ts): at most `running` at once,
// the rest wait instead of being refused; addresses without failures go first, addresses take
// turns within a lane, and a lane that is full or a turn that comes too late refuses as busy.
// tests/review-links/links.test.ts floods a real link through the app.
import { describe, expect, test } from 'bun:test'
import { CheckQueue } from '../../src/accounts/check-queue.ts'

/** A check that runs until `release()` is called, noting when it started. */
function gated(order: string[], name: string) {
  let release!: () => void
  const done = new Promise<void>((resolve) => {
    release = resolve
  })
  return {
    release: () => release(),
    check: async () => {
      order.push(name)
      await done
      return name
    },
  }
}

const tick = () => Bun.sleep(5)

describe('CheckQueue', () => {
  test('runs at most `running` at once; the others wait and then run, none refused', async () => {
    const queue = new CheckQueue({ running: 2, waiting: { clean: 8, failed: 8 }, maxWaitMs: 5000 })
    const order: string[] = []
    const checks = ['a', 'b', 'c', 'd'].map((name) => gated(order, name))
    const results = checks.map((c, i) =>
      queue.run({ address: `10.0.0.${i}`, clean: true }, c.check),
    )
    await tick()
    expect(order).toEqual(['a', 'b'])
    expect(queue.load).toEqual({ running: 2, waiting: 2 })
    for (const c of checks) c.release()
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd'])
    expect(queue.load).toEqual({ running: 0, waiting: 0 })
  })

  test('an address without failures goes before every waiting address with some', async () => {
    const queue = new CheckQueue({ running: 1, waiting: { clean: 8, failed: 8 }, maxWaitMs: 5000 })
    const order: string[] = []
    const first = gated(order, 'first')
    const running = queue.run({ address: '10.0.0.1', clean: false }, first.check)
    await tick()
    const guesses = [1, 2, 3].map((i) => gated(order, `guess-${i}`))
    const waiting = guesses.map((g) => queue.run({ address: '10.0.0.1', clean: false }, g.check))
    const client = gated(order, 'client')
    const clientRun = queue.run({ address: '10.0.9.9', clean: true }, client.check)
    for (const g of guesses) g.release()
    client.release()
    first.release()
    await Promise.all([running, ...waiting, clientRun])
    expect(order).toEqual(['first', 'client', 'guess-1', 'guess-2', 'guess-3'])
  })

  test('within a lane addresses take turns: a newcomer waits one check per busy address', async () => {
    const queue = new CheckQueue({ running: 1, waiting: { clean: 32, failed: 8 }, maxWaitMs: 5000 })
    const order: string[] = []
    const first = gated(order, 'first')
    const running = queue.run({ address: 'x', clean: true }, first.check)
    await tick()
    const runs: Promise<unknown>[] = []
    for (const address of ['a', 'b']) {
      for (let i = 1; i <= 3; i++) {
        const g = gated(order, `${address}${i}`)
        g.release()
        runs.push(queue.run({ address, clean: true }, g.check))
      }
    }
    const late = gated(order, 'newcomer')
    late.release()
    runs.push(queue.run({ address: 'n', clean: true }, late.check))
    first.release()
    await Promise.all([running, ...runs])
    expect(order).toEqual(['first', 'a1', 'b1', 'newcomer', 'a2', 'b2', 'a3', 'b3'])
  })

  test('a full lane, or a turn that does not come in time, refuses without running the check', async () => {
    const queue = new CheckQueue({ running: 1, waiting: { clean: 1, failed: 1 }, maxWaitMs: 100 })
    const order: string[] = []
    const first = gated(order, 'first')
    const running = queue.run({ address: 'a', clean: true }, first.check)
    await tick()
    const waits = queue.run({ address: 'b', clean: false }, async () => 'waited')
    // The failed lane is full; the clean one still has room.
    expect(await queue.run({ address: 'c', clean: false }, async () => 'ran')).toBeNull()
    const started = performance.now()
    expect(await waits).toBeNull()
    expect(performance.now() - started).toBeGreaterThanOrEqual(90)
    expect(queue.load).toEqual({ running: 1, waiting: 0 })
    first.release()
    expect(await running).toBe('first')
    expect(queue.load).toEqual({ running: 0, waiting: 0 })
    expect(order).toEqual(['first'])
  })
})
