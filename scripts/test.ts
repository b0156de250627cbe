// `bun run test`: the whole suite. Server and unit tests on the embedded database; when
// TEST_DATABASE_URL is set, the storage tests and those that depend on the kind of database again
// on that PostgreSQL server; then the browser tests against the built app.
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
  const started = performance.now()
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
  // How long each run took, where CI's time goes.
  console.log(`\n=== ${label} (${Math.round((performance.now() - started) / 1000)} s) ===`)
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
// The tests of what stores media (uploads, videos, processing through the app, site images,
// captions, review links' media): on PostgreSQL these run with every app on a bucket of the S3
// server (TEST_STORAGE=s3; on the disk where none can be found), the rest of ./tests on disk.
// With the embedded run on disk, each engine and each database runs them (but the few in
// `engineFree` below), without a third pass of the suite.
const storageTests = [
  'tests/captions/convert.test.ts',
  'tests/captions/first-request.test.ts',
  'tests/captions/rest.test.ts',
  'tests/captions/streams.test.ts',
  'tests/captions/thread.test.ts',
  'tests/db/embedded-socket.test.ts',
  'tests/media/masters.test.ts',
  'tests/pages/work.test.ts',
  'tests/processing/across-processes.test.ts',
  'tests/processing/growing.test.ts',
  'tests/processing/in-server.test.ts',
  'tests/processing/jobs.test.ts',
  'tests/processing/loudness-in-app.test.ts',
  'tests/processing/progress.test.ts',
  'tests/processing/versions.test.ts',
  'tests/review-links/links.test.ts',
  'tests/review-notes/notes.test.ts',
  'tests/site/content.test.ts',
  'tests/site/images.test.ts',
  'tests/site/svg-load.test.ts',
  'tests/site/svg.test.ts',
  'tests/uploads/disk-full.test.ts',
  'tests/uploads/killed-mid-upload.test.ts',
  'tests/uploads/multipart.test.ts',
  'tests/uploads/pg-locker.test.ts',
  'tests/uploads/sniff.test.ts',
  'tests/uploads/tus-bucket-servers.test.ts',
  'tests/uploads/tus-bucket.test.ts',
  'tests/uploads/tus-js-client.test.ts',
  'tests/uploads/tus-protocol.test.ts',
  'tests/uploads/tus-refusals.test.ts',
  'tests/uploads/tus-servers.test.ts',
  'tests/uploads/tus.test.ts',
  'tests/videos/crash.test.ts',
  'tests/videos/curate.test.ts',
  'tests/videos/public-list.test.ts',
  'tests/videos/races.test.ts',
  'tests/videos/ready-only.test.ts',
  'tests/videos/rest.test.ts',
  'tests/videos/trpc.test.ts',
  'tests/videos/versions.test.ts',
]
// Outside those folders, the tests that depend on the kind of database run on both kinds. The
// others ask nothing the embedded database answers differently: it is PostgreSQL too, reached by
// the same driver over the same protocol; what it lacks is a second connection and a second
// process, and these files are the ones that test those.
const databaseKindTests = [
  // Start-up, migrations, the seed, backup and restore, and what the data folder exposes.
  'tests/server/startup.test.ts',
  'tests/server/foundation.test.ts',
  'tests/seed.test.ts',
  'tests/db/versions-migration.test.ts',
  'tests/backup/backup.test.ts',
  'tests/backup/versions.test.ts',
  'tests/storage/s3-startup.test.ts',
  // What the bucket's public address serves after a hide
  // (docs/decisions/087-public-copies-under-public-for-shown-works-only.md), on the bucket.
  'tests/storage/media-public-url.test.ts',
  'tests/storage/versions-public-copies.test.ts',
  'tests/db/embedded-private.test.ts',
  // Writers racing on several connections, a server killed or stopped, several servers at once.
  'tests/fuzz/races.test.ts',
  'tests/uploads/killed-server.test.ts',
  'tests/server/shutdown.test.ts',
  'tests/cluster/topology.test.ts',
  'tests/cluster/read-cache.test.ts',
  'tests/cluster/rate-limits.test.ts',
  'tests/cluster/startup.test.ts',
  'tests/cluster/review-notes.test.ts',
  // A transaction that would wait on another connection throws (a freeze on the embedded one).
  'tests/db/transactions.test.ts',
]
// Tests that use no database and no stored media (ffmpeg and the S3 client on their own): one run
// is enough, and with a PostgreSQL server it is the shorter of the two runs.
const databaseFree = [
  'tests/processing/ffmpeg.test.ts',
  'tests/processing/ladder.test.ts',
  'tests/processing/loudness.test.ts',
  'tests/processing/probe.test.ts',
  'tests/processing/process-video.test.ts',
  'tests/storage/s3.test.ts',
]
// Files that ask nothing of the kind of database either, run once on PostgreSQL rather than on the
// embedded database, so that the two runs end together (measured: 774 s and 693 s without them).
const evenOut = [
  'tests/security.test.ts',
  'tests/ops/metrics.test.ts',
  // Starts an S3 engine of its own to pause: once is enough, and two at once would be two engines.
  'tests/storage/s3-stall.test.ts',
]
// Files in the storage folders that keep nothing through the storage engine (site texts in the
// database, the SVG sanitiser's and the caption reader's verdicts): the bucket run leaves them to
// the embedded run.
const engineFree = [
  'tests/site/content.test.ts',
  'tests/site/svg.test.ts',
  'tests/site/svg-load.test.ts',
  'tests/captions/convert.test.ts',
  'tests/captions/thread.test.ts',
]
/** Stops the run when a list here names a file (or folder) the tests no longer have. */
function mustExist(listed: string[], files: string[]) {
  for (const name of listed) {
    if (!files.some((file) => file.startsWith(name)))
      throw new Error(`scripts/test.ts names ${name}, which is not a test file any more`)
  }
}
const serverTests = [...new Bun.Glob('tests/**/*.test.ts').scanSync({ cwd: root })].sort()
mustExist(
  [...storageTests, ...databaseKindTests, ...databaseFree, ...evenOut, ...engineFree],
  serverTests,
)
/** The files run once, on PostgreSQL, when there is one. */
const onPostgresOnly = (file: string) => databaseFree.includes(file) || evenOut.includes(file)
const withServer = !!process.env.TEST_DATABASE_URL
const embeddedRun = withServer
  ? [
      ...serverTests.filter((file) => !onPostgresOnly(file)).map((file) => `./${file}`),
      ...unitDirs.filter((dir) => dir !== './tests'),
    ]
  : unitDirs
await ensureSystemDeps()
// A test's own limit on a loaded machine (CI builds the Docker image beside the tests): bun's
// default of 5 s failed tests that upload several files to the bucket, which take 1–2 s quietly.
const serverTimeout = ['--timeout', '30000']
// The two server runs go side by side: each waits on its database, ffmpeg and timers part of the
// time, so together they take less than one after the other.
await Promise.all([
  run(
    'server and unit tests (embedded database)',
    [process.execPath, 'test', ...serverTimeout, ...embeddedRun],
    {
      TEST_DATABASE_URL: '',
    },
  ),
  withServer
    ? (async () => {
        await run(
          'server tests (PostgreSQL at TEST_DATABASE_URL, media on S3)',
          [
            process.execPath,
            'test',
            ...serverTimeout,
            ...serverTests
              .filter((file) => storageTests.includes(file) && !engineFree.includes(file))
              .map((file) => `./${file}`),
          ],
          { TEST_STORAGE: 's3' },
        )
        await run('server tests (PostgreSQL at TEST_DATABASE_URL)', [
          process.execPath,
          'test',
          ...serverTimeout,
          ...serverTests
            .filter((file) => databaseKindTests.includes(file) || onPostgresOnly(file))
            .map((file) => `./${file}`),
        ])
      })()
    : undefined,
])
// The browser tests in two runs side by side: one run left about a third of two cores idle (the
// browser, the server and the test wait on each other), and each file has its own server,
// browser, ports and folders. The files are shared out largest first, as a stand-in for time.
// The files that time a drag or an animation frame by frame run afterwards on their own: with
// two browsers on two cores, their frames came over a second late.
const timedAlone = ['e2e/public.test.ts', 'e2e/site.test.ts']
const e2eFiles = [...new Bun.Glob('e2e/*.test.ts').scanSync({ cwd: root })]
mustExist(timedAlone, e2eFiles)
const browserFiles = e2eFiles
  .filter((file) => !timedAlone.includes(file))
  .map((file) => ({ file, size: Bun.file(`${root}/${file}`).size }))
  .sort((a, b) => b.size - a.size || a.file.localeCompare(b.file))
const shards: { files: string[]; size: number }[] = [
  { files: [], size: 0 },
  { files: [], size: 0 },
]
for (const { file, size } of browserFiles) {
  const lighter = shards[0]!.size <= shards[1]!.size ? shards[0]! : shards[1]!
  lighter.files.push(`./${file}`)
  lighter.size += size
}
const browserRun = (label: string, files: string[]) =>
  run(label, [process.execPath, 'test', '--timeout', '120000', ...files], {
    TEST_DATABASE_URL: '',
  })
if (await step('build web app', [process.execPath, 'run', 'build'])) {
  await Promise.all(
    shards.map((shard, i) =>
      browserRun(`browser tests (Chromium, part ${i + 1} of ${shards.length + 1})`, shard.files),
    ),
  )
  await browserRun(
    `browser tests (Chromium, part ${shards.length + 1} of ${shards.length + 1}, on their own)`,
    timedAlone.map((file) => `./${file}`),
  )
}

if (skippedTests.length) console.log(`\nSkipped tests:\n${skippedTests.join('\n')}`)
if (failedTests.length) console.log(`\nFailed tests:\n${failedTests.join('\n')}`)
console.log(
  `\n${failures.length ? `Failed: ${failures.join('; ')}\n` : ''}${passed} passed, ${failed} failed, ${skipped} skipped`,
)
process.exit(failures.length || failed ? 1 : 0)
