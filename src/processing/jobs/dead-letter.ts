// Job `media-failed`: a media job that used every attempt without an answer is moved here by
// pg-boss. Without this the video would stay `processing` for ever (a job killed on its last
// attempt never gets to write `failed` itself). Its scratch folder (partial outputs) goes too.
import { rm } from 'node:fs/promises'
import type { JobWithMetadata } from 'pg-boss'
import type { Db } from '../../db/database.ts'
import { jobScratch, type MediaStore } from '../../storage/store.ts'
import { isPayload, type ProcessVideoPayload } from '../../videos/job.ts'
import { markFailed } from '../../videos/rows.ts'

export type DeadLetterDeps = { db: Db; store: MediaStore; onChange?: () => void }

// What pg-boss itself writes when an attempt ended without the handler's answer.
const NO_ANSWER = /heartbeat|expired|shut down|timeout/i

/**
 * The last error's message pg-boss kept as the job's output, if any: a thrown Error is kept as
 * `{ message, stack, … }` (the stack never reaches the row), its own failures as `{ value }`.
 */
function lastError(output: unknown): string | undefined {
  if (typeof output === 'string') return output.trim() || undefined
  const o = output as { message?: unknown; value?: unknown } | null
  if (typeof o?.message === 'string') return o.message.trim() || undefined
  if (o?.value !== undefined && o.value !== output) return lastError(o.value)
  return undefined
}

export function deadLetterReason(attempts: number, output: unknown): string {
  const last = lastError(output)
  const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`
  if (!last || NO_ANSWER.test(last)) {
    return `Processing did not finish after ${tries}: the worker stopped or stopped responding. Retry to try again.`
  }
  return `Processing failed after ${tries}. Last error: ${last}`
}

export async function markDeadLettered(
  deps: DeadLetterDeps,
  job: JobWithMetadata<ProcessVideoPayload>,
  original: (id: string) => Promise<{ output: unknown; retryCount: number } | undefined>,
): Promise<void> {
  const payload = job.data
  if (!isPayload(payload)) return
  const source = job.sourceId ? await original(job.sourceId) : undefined
  const attempts = (job.sourceRetryCount ?? source?.retryCount ?? 0) + 1
  if (job.sourceId) await rm(jobScratch(deps.store, job.sourceId), { recursive: true, force: true })
  // Only a video still waiting on that file: a Retry or a replacement since then has its own job.
  const reason = deadLetterReason(attempts, source?.output)
  if (await markFailed(deps.db, payload, reason, ['queued', 'processing'])) deps.onChange?.()
}
