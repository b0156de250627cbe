// `bun run test`: the whole suite. Server and unit tests on the embedded database, again on a real
// PostgreSQL server when TEST_DATABASE_URL is set, then the browser tests against the built app.
// Ends with one line "N passed, N failed, N skipped", after the list of the skipped tests, each with
// the reason it gives (testkit/skip.ts puts it in the name), and of the failed ones.
import { existsSync } from 'node:fs'
import { SKIPPED } from './skip-marker.ts'
import { ensureSystemDeps } from './system-deps.ts'

const root = new URL('..', import.meta.url).pathname
let passed = 0
let failed = 0
let skipped = 0
const failures: string[] = []
/** Each failed test's line, by run: repeated at the very end, where a CI log's tail is read. */
const failedTests: string[] = []
/** Each test that did not run, with its file and its reason. */
const skippedTests: string[] = []

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
  // A test written down but not yet written (`test.todo`) did not run either.
  const skip =
    Number(err.match(/^\s*(\d+) skip$/m)?.[1] ?? 0) +
    Number(err.match(/^\s*(\d+) todo$/m)?.[1] ?? 0)
  passed += pass
  failed += fail
  skipped += skip
  skippedTests.push(...skippedIn(err).map((test) => `${label}: ${test}`))
  failedTests.push(...failedIn(err).map((test) => `${label}: ${test}`))
  if (code !== 0 || fail > 0 || (cmd.includes('test') && pass === 0)) failures.push(label)
}

/**
 * The failed tests in one run's output, each with the last lines of its error (bun prints them
 * just before the test's `(fail)` line).
 */
function failedIn(output: string): string[] {
  const lines = output.split('\n')
  const found: string[] = []
  let since = 0
  lines.forEach((line, i) => {
    if (line.startsWith('(fail) ')) {
      const error = lines.slice(Math.max(since, i - 12), i).filter((l) => l.trim())
      found.push([line.slice(7), ...error.map((l) => `    ${l}`)].join('\n'))
    }
    if (/^\((pass|fail|skip|todo)\) |^\S.*\.test\.tsx?:$/.test(line)) since = i + 1
  })
  return found
}

/** The tests one run did not run, as `file: name — reason`. */
function skippedIn(output: string): string[] {
  const found: string[] = []
  let file = ''
  for (const line of output.split('\n')) {
    // Bun lists the skipped tests again at the end, without their files.
    if (/^\d+ tests? \w+:$/.test(line)) break
    const header = /^(\S.*\.test\.tsx?):$/.exec(line)
    if (header) file = header[1]!
    const skip = /^\((skip|todo)\) (.*?)(?: \[[\d.]+m?s\])?$/.exec(line)
    if (!skip) continue
    const [, kind, full] = skip as unknown as [string, string, string]
    const at = full.indexOf(SKIPPED)
    const name = at < 0 ? full : full.slice(0, at) + full.slice(full.indexOf(']', at) + 1)
    const reason =
      kind === 'todo'
        ? 'todo: not written yet'
        : at < 0
          ? 'no reason given'
          : full.slice(at + SKIPPED.length, full.indexOf(']', at))
    found.push(`${file}: ${name} — ${reason}`)
  }
  return found
}

async function step(label: string, cmd: string[]) {
  console.log(`\n=== ${label} ===`)
  const code = await Bun.spawn(cmd, { cwd: root, stdout: 'inherit', stderr: 'inherit' }).exited
  if (code !== 0) failures.push(label)
  return code === 0
}

const unitDirs = ['./tests', './web/src'].filter((d) => existsSync(`${root}/${d}`))
// What stores media: on PostgreSQL these run with every app on a bucket of the S3 server
// (TEST_STORAGE=s3; on the disk where none can be found), the rest of ./tests on disk. With the
// embedded run on disk, each engine and each database runs every upload, media and processing
// test, without a third pass of the suite.
const storageDirs = [
  'tests/uploads',
  'tests/videos',
  'tests/pipeline',
  'tests/site',
  'tests/captions',
]
const otherServerTests = [...new Bun.Glob('tests/**/*.test.ts').scanSync({ cwd: root })]
  .filter((file) => !storageDirs.some((dir) => file.startsWith(`${dir}/`)))
  .sort()
  .map((file) => `./${file}`)
await ensureSystemDeps()
// The two server runs go side by side: each waits on its database, ffmpeg and timers much of the
// time, so together they take about 4 minutes on two cores instead of about 7 one after the other.
await Promise.all([
  run('server and unit tests (embedded database)', [process.execPath, 'test', ...unitDirs], {
    TEST_DATABASE_URL: '',
  }),
  process.env.TEST_DATABASE_URL
    ? (async () => {
        await run(
          'server tests (PostgreSQL at TEST_DATABASE_URL, media on S3)',
          [process.execPath, 'test', ...storageDirs.map((dir) => `./${dir}`)],
          { TEST_STORAGE: 's3' },
        )
        await run('server tests (PostgreSQL at TEST_DATABASE_URL)', [
          process.execPath,
          'test',
          ...otherServerTests,
        ])
      })()
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

if (skippedTests.length) console.log(`\nSkipped tests:\n${skippedTests.join('\n')}`)
if (failedTests.length) console.log(`\nFailed tests:\n${failedTests.join('\n')}`)
console.log(
  `\n${failures.length ? `Failed: ${failures.join('; ')}\n` : ''}${passed} passed, ${failed} failed, ${skipped} skipped`,
)
process.exit(failures.length || failed ? 1 : 0)
