// bench/fuzz: 20,000 generated hostile requests against the real app and database (same
// generators as tests/fuzz, from testkit/fuzz). Prints counts by status; exits 1 on any 5xx, leak, or a refused
// request that changed the database or media store, and on a hostile SVG logo stored with an
// outside reference or over the budget, or refused later than a second.
import fc from 'fast-check'
import { fuzzRequest, LEAK, sendFuzz, svgProblem } from '../testkit/fuzz/requests.ts'
import { snapshot } from '../testkit/fuzz/snapshot.ts'
import { startTestApp } from '../testkit/test-app.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 20_000)
const t = await startTestApp()
const token = await t.login()
const counts = new Map<number, number>()
const problems: string[] = []
let skipped = 0
const svgTimes: number[] = []
const started = performance.now()

for (const r of fc.sample(fuzzRequest, {
  numRuns: RUNS,
  seed: Number(process.env.FUZZ_SEED ?? Date.now() % 1e9),
})) {
  // Snapshots cost two queries and a directory walk: take them for every 10th request.
  const check = counts.size === 0 || Math.random() < 0.1
  const before = check ? await snapshot(t) : ''
  const res = await sendFuzz(t, r, token)
  if (!res) {
    skipped++
    continue
  }
  counts.set(res.status, (counts.get(res.status) ?? 0) + 1)
  if (res.status >= 500) problems.push(`${res.status} ${r.method} ${r.path}`)
  if (LEAK.test(res.text)) problems.push(`leak ${r.method} ${r.path}: ${res.text.slice(0, 200)}`)
  if (r.svg) {
    if (r.svg === 'heavy') svgTimes.push(res.ms)
    const problem = await svgProblem(t, r, res)
    if (problem) problems.push(problem)
  }
  if (check && res.status >= 400 && (await snapshot(t)) !== before)
    problems.push(`refused request changed state: ${r.method} ${r.path}`)
}
const up = (await t.fetch('/healthz')).status === 200
await t.stop()

console.log(
  `requests: ${RUNS - skipped} (skipped ${skipped} fetch cannot express) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
)
for (const [status, n] of [...counts].sort((a, b) => a[0] - b[0])) console.log(`  ${status}: ${n}`)
if (svgTimes.length > 0) {
  svgTimes.sort((a, b) => a - b)
  console.log(
    `SVGs over the budget: ${svgTimes.length}, refused in p50 ${svgTimes[Math.floor(svgTimes.length / 2)]!.toFixed(1)} ms, max ${svgTimes.at(-1)!.toFixed(1)} ms`,
  )
}
console.log(`server up after the run: ${up}`)
console.log(`problems: ${problems.length}`)
for (const p of problems.slice(0, 20)) console.log(`  ${p}`)
process.exit(problems.length || !up ? 1 : 0)
