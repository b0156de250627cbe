// bench/kill-upload: 50 tus uploads of a few hundred MB, each interrupted by SIGKILL of the server
// at a random offset and resumed after a restart on the same DATA_DIR; then kills during
// videos.create. Prints the figures; exits 1 if anything was lost, corrupted or left behind.
import { runKillTrials } from '../testkit/kill-trials.ts'

const trials = Number(process.env.KILL_TRIALS ?? 50)
const sizeMB = Number(process.env.KILL_SIZE_MB ?? 256)
const createTrials = Number(process.env.KILL_CREATE_TRIALS ?? 20)
const started = performance.now()
const r = await runKillTrials({ trials, sizeMB, createTrials, log: console.log })
const resent = [...r.resentBytes].sort((a, b) => a - b)
const mib = (n: number) => `${(n / 1048576).toFixed(2)} MiB`
console.log(
  `\nbench/kill-upload (${new Date().toISOString()}, ${((performance.now() - started) / 1000).toFixed(0)} s)`,
)
console.log(
  `upload trials: ${r.trials} of ${sizeMB} MiB, completed ${r.completed}, SHA-256 mismatches ${r.shaMismatches}`,
)
console.log(
  `bytes re-sent per interruption: median ${mib(resent[Math.floor(resent.length / 2)] ?? 0)}, max ${mib(resent.at(-1) ?? 0)}`,
)
console.log(
  `kills during videos.create: ${r.createTrials}, video complete ${r.createComplete}, nothing remains ${r.createGone}, uploads lost ${r.uploadsLost}`,
)
console.log(
  `orphan media files: ${r.orphanFiles.length}, rows pointing at missing files: ${r.danglingRows.length}`,
)
const ok =
  r.completed === r.trials &&
  r.shaMismatches === 0 &&
  r.createComplete + r.createGone === r.createTrials &&
  r.uploadsLost === 0 &&
  r.orphanFiles.length === 0 &&
  r.danglingRows.length === 0
process.exit(ok ? 0 : 1)
