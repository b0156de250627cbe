// /healthz: whether what this server needs answers, as a list of named checks (the database, the
// storage, the job queue; an object store would be one more), each bounded by a short timeout so
// the answer never hangs. 200 when all are ok, 503 naming the failing ones. An answer carries no
// error text from the system: only the check's name, a fixed reason and, for a file or network
// error, its code (docs/decisions/062-limits-in-the-database-health-and-metrics.md).
import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import type { Database } from '../db/database.ts'
import type { MediaQueue } from '../processing/queue.ts'
import type { MediaStore } from '../storage/store.ts'

export type HealthCheck = {
  name: string
  /** Resolves when the part answers; anything thrown, or no answer in time, is a failure. */
  run(): Promise<unknown>
}

export type CheckResult = { status: 'ok' | 'error'; latencyMs: number; error?: string }

/** A check still running after this is reported failed (Docker's HEALTHCHECK waits 5 s). */
export const CHECK_TIMEOUT_MS = 2000

/** The checks of this app: its database, its media storage and scratch folder, its job queue. */
export function appChecks(deps: {
  database: Database
  media: MediaStore
  queue: MediaQueue
}): HealthCheck[] {
  return [
    { name: 'database', run: () => deps.database.sql`select 1` },
    {
      name: 'storage',
      run: async () => {
        await deps.media.storage.check()
        await folders([deps.media.tmpDir])
      },
    },
    { name: 'queue', run: () => deps.queue.ping() },
  ]
}

/** Each folder exists, is a folder, and this process may list, read and write it. */
async function folders(paths: string[]): Promise<void> {
  for (const path of paths) {
    if (!(await stat(path)).isDirectory()) {
      throw Object.assign(new Error(`${path} is not a folder`), { code: 'ENOTDIR' })
    }
    await access(path, constants.R_OK | constants.W_OK | constants.X_OK)
  }
}

export function createHealth(
  checks: HealthCheck[],
  timeoutMs = CHECK_TIMEOUT_MS,
): () => Promise<Response> {
  return async () => {
    const results = await Promise.all(checks.map((check) => runCheck(check, timeoutMs)))
    const byName = Object.fromEntries(checks.map((check, i) => [check.name, results[i]!]))
    const failing = checks.filter((_, i) => results[i]!.status === 'error').map((c) => c.name)
    const body =
      failing.length === 0
        ? { status: 'ok', checks: byName }
        : { status: 'error', failing, checks: byName }
    return Response.json(body, {
      status: failing.length === 0 ? 200 : 503,
      headers: { 'Cache-Control': 'no-store' },
    })
  }
}

const TIMED_OUT = Symbol('timed out')

async function runCheck(check: HealthCheck, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, TIMED_OUT)
  })
  try {
    // A check that hangs is abandoned, not cancelled: it ends on its own, unread.
    const answered = Promise.resolve().then(check.run)
    const outcome = await Promise.race([answered.then(() => undefined), late])
    const latencyMs = elapsed(started)
    if (outcome !== TIMED_OUT) return { status: 'ok', latencyMs }
    console.error(`[healthz] ${check.name}: no answer in ${timeoutMs} ms`)
    return { status: 'error', latencyMs, error: `no answer in ${timeoutMs} ms` }
  } catch (error) {
    const latencyMs = elapsed(started)
    console.error(`[healthz] ${check.name}: ${(error as Error)?.message ?? error}`)
    return { status: 'error', latencyMs, error: reasonOf(error) }
  } finally {
    clearTimeout(timer)
  }
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10

/** A system code (ENOENT, EACCES, ECONNREFUSED, a PostgreSQL SQLSTATE) is safe to show; text is not. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? `failed: ${code}` : 'failed'
}
