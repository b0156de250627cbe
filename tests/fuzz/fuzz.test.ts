// Property: whatever a client sends, no 5xx, no stack trace, the server stays up, and a refused
// request changes nothing in the database or the media store. bench/fuzz.ts runs 20,000.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { fuzzRequest, LEAK, sendFuzz, svgProblem } from '../../testkit/fuzz/requests.ts'
import { snapshot } from '../../testkit/fuzz/snapshot.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
let token: string
beforeAll(async () => {
  t = await startTestApp()
  token = await t.login()
}, 120_000)
afterAll(() => t?.stop(), 60_000)

test('random and hostile requests: no 5xx, no leak, refused ones change nothing', async () => {
  await fc.assert(
    fc.asyncProperty(fuzzRequest, async (r) => {
      // Reset requests finish their work after the answer; let an earlier one's land first.
      await t.app.services.auth.settle()
      const before = await snapshot(t)
      const res = await sendFuzz(t, r, token)
      if (!res) return
      if (res.status >= 500) throw new Error(`${res.status} for ${r.method} ${r.path}: ${res.text}`)
      expect(res.text).not.toMatch(LEAK)
      if (res.status >= 400) expect(await snapshot(t)).toBe(before)
      expect(await svgProblem(t, r, res)).toBeNull()
    }),
    {
      numRuns: Number(process.env.FUZZ_RUNS ?? 300),
      seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
    },
  )
  // Still up and still answering a real sign-in.
  expect((await t.fetch('/healthz')).status).toBe(200)
  await t.login()
}, 300_000)
