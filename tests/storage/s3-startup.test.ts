// With S3_BUCKET set, the server and `bun run worker` ask the bucket first: one that is missing
// or out of reach stops them with one line naming it, before anything else is opened.
import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createTestDatabase } from '../../testkit/database.ts'
import { runServer, traceLines } from '../../testkit/run-server.ts'
import { dropBucket, makeBucket, s3Available } from '../../testkit/s3.ts'
import { testSkipIf } from '../../testkit/skip.ts'

const ROOT = join(import.meta.dir, '..', '..')
const cleanups: (() => unknown)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

/** DATA_DIR, and DATABASE_URL on a database of its own when the tests run on a server. */
async function baseEnv(): Promise<Record<string, string>> {
  const db = await createTestDatabase()
  cleanups.push(() => db.drop())
  return { DATA_DIR: db.dataDir, ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}) }
}

function closedPort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

/** `bun src/worker.ts` until it exits (or 30 s). */
async function runWorker(env: Record<string, string>) {
  const started = Date.now()
  const proc = Bun.spawn([process.execPath, 'src/worker.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'production', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000)
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  clearTimeout(timer)
  return { code, stdout, stderr, ms: Date.now() - started }
}

const s3 = s3Available()
const credentials = {
  AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? 'test-access-key',
  AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'test-secret-key',
}

function expectOneLine(
  outcome: { code: unknown; stdout: string; stderr: string; ms: number },
  line: string,
) {
  expect(outcome.code).toBe(1)
  expect(outcome.stderr.trim().split('\n')).toEqual([line])
  expect(traceLines(outcome.stderr + outcome.stdout)).toEqual([])
  expect(outcome.ms).toBeLessThan(12_000)
}

for (const [name, run] of [
  ['the server', runServer],
  ['the worker', runWorker],
] as const) {
  testSkipIf(s3.reason)(
    `${name}: a bucket that does not exist stops the start in one line`,
    async () => {
      const endpoint = process.env.S3_ENDPOINT!
      const bucket = `missing-${crypto.randomUUID().slice(0, 8)}`
      const outcome = await run({
        ...(await baseEnv()),
        ...credentials,
        S3_BUCKET: bucket,
        S3_ENDPOINT: endpoint,
        S3_FORCE_PATH_STYLE: 'true',
      })
      expectOneLine(outcome, `S3 bucket "${bucket}" at ${endpoint} is not reachable (NoSuchBucket)`)
    },
    30_000,
  )

  test(`${name}: nothing listening at S3_ENDPOINT stops the start in one line`, async () => {
    const endpoint = `http://127.0.0.1:${closedPort()}`
    const outcome = await run({
      ...(await baseEnv()),
      ...credentials,
      S3_BUCKET: 'media',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
    })
    expectOneLine(outcome, `S3 bucket "media" at ${endpoint} is not reachable (ECONNREFUSED)`)
  }, 30_000)
}

testSkipIf(s3.reason)(
  'the server: credentials the store refuses stop the start in one line saying which to check',
  async () => {
    const config = await makeBucket()
    cleanups.push(() => dropBucket(config))
    const outcome = await runServer({
      ...(await baseEnv()),
      AWS_ACCESS_KEY_ID: 'not-a-key-of-this-store',
      AWS_SECRET_ACCESS_KEY: 'not-its-secret',
      S3_BUCKET: config.bucket,
      S3_ENDPOINT: config.endpoint!,
      S3_FORCE_PATH_STYLE: 'true',
    })
    expectOneLine(
      outcome,
      `S3 bucket "${config.bucket}" at ${config.endpoint} is not reachable (403 Forbidden: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)`,
    )
  },
  30_000,
)
