// `bun run test`: the whole suite. Server and unit tests on the embedded database, again on a real
// PostgreSQL server when TEST_DATABASE_URL is set, then the browser tests against the built app.
// Ends with one line "N passed, N failed".
import { existsSync } from 'node:fs'
import { ensureSystemDeps } from './system-deps.ts'

const root = new URL('..', import.meta.url).pathname
let passed = 0
let failed = 0
const failures: string[] = []

/**
 * One `bun test` run. Its output is kept and printed whole when it ends, so two runs at once
 * never interleave their lines; the counts come from bun's own summary.
 */
async function run(label: string, cmd: string[], env: Record<string, string | undefined> = {}) {
  const proc = Bun.spawn(cmd, {
    cwd: root,
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  console.log(`\n=== ${label} ===`)
  process.stdout.write(out)
  process.stderr.write(err)
  const pass = Number(err.match(/^\s*(\d+) pass$/m)?.[1] ?? 0)
  const fail = Number(err.match(/^\s*(\d+) fail$/m)?.[1] ?? 0)
  passed += pass
  failed += fail
  if (code !== 0 || fail > 0 || (cmd.includes('test') && pass === 0)) failures.push(label)
}

async function step(label: string, cmd: string[]) {
  console.log(`\n=== ${label} ===`)
  const code = await Bun.spawn(cmd, { cwd: root, stdout: 'inherit', stderr: 'inherit' }).exited
  if (code !== 0) failures.push(label)
  return code === 0
}

const unitDirs = ['./tests', './web/src'].filter((d) => existsSync(`${root}/${d}`))
await ensureSystemDeps()
// The two server runs go side by side: each waits on its database, ffmpeg and timers much of the
// time, so together they take about 4 minutes on two cores instead of about 7 one after the other.
await Promise.all([
  run('server and unit tests (embedded database)', [process.execPath, 'test', ...unitDirs], {
    TEST_DATABASE_URL: '',
  }),
  process.env.TEST_DATABASE_URL
    ? run('server tests (PostgreSQL at TEST_DATABASE_URL)', [process.execPath, 'test', './tests'])
    : undefined,
])
if (await step('build web app', [process.execPath, 'run', 'build'])) {
  await run(
    'browser tests (Chromium)',
    [process.execPath, 'test', '--timeout', '120000', './e2e'],
    {
      TEST_DATABASE_URL: '',
    },
  )
}

console.log(
  `\n${failures.length ? `Failed: ${failures.join('; ')}\n` : ''}${passed} passed, ${failed} failed`,
)
process.exit(failures.length || failed ? 1 : 0)
