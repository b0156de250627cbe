// Job `media`: one video file → streams, MP4 and preview (src/processing/transcode.ts), made in
// the job's local scratch folder and stored under a new folder once complete. The row follows the attempt:
// processing with progress, then ready with the probe's figures, or failed with a reason an
// admin can act on. A bad file fails at once (another attempt would say the same); anything
// else (ffmpeg killed, a full disk, a stopped worker) is thrown for pg-boss to retry, and the
// dead-letter worker (dead-letter.ts) marks the video failed when no attempt is left.
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Job } from 'pg-boss'
import type { Db } from '../../db/database.ts'
import { keyOfName } from '../../storage/layout.ts'
import { jobScratch, type MediaStore, removeFolders } from '../../storage/store.ts'
import { isPayload, type ProcessVideoPayload } from '../../videos/job.ts'
import {
  markFailed,
  markProcessing,
  markReady,
  takeGrowing,
  writeProgress,
} from '../../videos/rows.ts'
import { growingInStore } from '../growing-store.ts'
import { ProcessingError } from '../processing-error.ts'
import { processVideo } from '../transcode.ts'

export type ProcessVideoDeps = {
  db: Db
  store: MediaStore
  /** Told after each write to a row, so this process's cached answers follow at once. */
  onChange?: () => void
  /** MEDIA_PREVIEW_MAX_BYTES. */
  previewMaxBytes?: number
  /** MEDIA_GROWING_KEEP_SECONDS: how long a growing stream stays once the work is ready. */
  growingKeepSeconds?: number
}

export const PROGRESS_EVERY_MS = 1000

export function processVideoJob(deps: ProcessVideoDeps) {
  const { db, store } = deps
  const changed = () => deps.onChange?.()

  return async function handle(job: Job<ProcessVideoPayload>): Promise<void> {
    if (!isPayload(job.data)) throw new Error(`media job ${job.id}: unexpected data`)
    const payload = job.data
    const sourceKey = keyOfName(payload.sourceKey)
    if (!sourceKey) throw new Error(`media job ${job.id}: not a store name`)
    const scratch = jobScratch(store, job.id)
    const outDir = join(scratch, 'out')
    // What an earlier attempt of this job left when its process was killed.
    await rm(scratch, { recursive: true, force: true })
    if (!(await markProcessing(db, payload))) return // replaced, deleted or already done
    changed()
    // The growing stream of an attempt whose process was killed: this attempt makes its own.
    const left = await takeGrowing(db, payload)
    if (left) await removeFolders(store, [left])

    // Stops ffmpeg when the worker stops (job.signal) or the video's file changes (below).
    const obsolete = new AbortController()
    const signal = AbortSignal.any([job.signal, obsolete.signal])
    const progress = progressWriter(async (percent) => {
      if (await writeProgress(db, payload, percent)) changed()
      else obsolete.abort()
    })
    // A version's run makes no growing stream: the work plays its current version meanwhile.
    const growing = payload.versionId
      ? undefined
      : growingInStore({ db, store, job: payload, onChange: changed })
    const keep = deps.growingKeepSeconds ?? 0
    let keepGrowing = 0
    try {
      const source = await localSource(store, sourceKey, scratch)
      const result = await processVideo({
        source,
        outDir,
        signal,
        onProgress: progress.push,
        ...(growing ? { onLadder: (plan) => growing.follow(outDir, plan) } : {}),
        ...(deps.previewMaxBytes ? { previewMaxBytes: deps.previewMaxBytes } : {}),
      })
      await progress.settled()
      if (obsolete.signal.aborted) return
      const { probe, preview, loudness } = result
      // Kept for no one: gone before the work is ready, so nothing of it outlives the row's write.
      if (keep <= 0) await growing?.end()
      const ready = await markReady(db, store, payload, outDir, probe, preview, loudness)
      if (!ready) return
      changed()
      // A player on the growing stream moves to the final one at its next look at the work.
      keepGrowing = keep
      if (ready.previous) await removeFolders(store, [ready.previous])
    } catch (error) {
      await progress.settled()
      if (obsolete.signal.aborted) return
      if (!(error instanceof ProcessingError)) throw error
      if (await markFailed(db, payload, error.message)) changed()
    } finally {
      // The outputs are stored (or dropped) by now, and a fetched master is not needed again;
      // the growing stream has been replaced by the final one, or its attempt is over.
      await growing?.end(keepGrowing)
      await rm(scratch, { recursive: true, force: true })
    }
  }
}

/**
 * A path ffmpeg can read the master at: the storage's own file when it keeps one here, otherwise
 * a copy fetched into the job's scratch folder (ffmpeg seeks in it: an MP4's index is often at
 * its end). A master gone meanwhile leaves no file, and the probe says it cannot be read.
 */
async function localSource(store: MediaStore, key: string, scratch: string): Promise<string> {
  const local = store.storage.localPath(key)
  if (local) return local
  const path = join(scratch, key.slice(key.lastIndexOf('/') + 1))
  await mkdir(scratch, { recursive: true })
  const read = await store.storage.read(key)
  if (read) await Bun.write(path, new Response(read.body))
  return path
}

/**
 * Passes on whole percents that changed, at most one a second and one at a time (a slow
 * database never queues writes). A value that arrives too soon waits for the next report
 * (ffmpeg reports twice a second); nothing is written after the run ends, so no late write can
 * land on a row already marked ready.
 */
export function progressWriter(write: (percent: number) => Promise<void>) {
  let written = -1
  let lastAt = 0
  let waiting: number | undefined
  let running: Promise<void> = Promise.resolve()
  let busy = false

  const flush = () => {
    if (busy || waiting === undefined) return
    const wait = lastAt + PROGRESS_EVERY_MS - Date.now()
    if (wait > 0) return
    const percent = waiting
    waiting = undefined
    busy = true
    lastAt = Date.now()
    written = percent
    running = write(percent)
      .catch((error) => console.error(`[media] progress: ${(error as Error).message}`))
      .finally(() => {
        busy = false
      })
  }

  return {
    push(value: number) {
      const percent = Math.floor(value)
      if (!Number.isFinite(percent) || percent === written) return
      waiting = percent
      flush()
    },
    /** Waits for a write in flight (the row's next write must not race it). */
    settled: () => running,
  }
}
