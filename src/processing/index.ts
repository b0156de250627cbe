// The processing side of the app, once the queue is up: jobs for videos still waiting (a start
// after a crash, or after the migration that brought the pipeline), this process's workers, and
// the watch that keeps cached answers in step with other processes' work.

import { watchVideoChanges } from '../db/changes.ts'
import type { Db } from '../db/database.ts'
import type { MediaStore } from '../storage/store.ts'
import type { MediaQueue } from './queue.ts'

export async function startProcessing(deps: {
  queue: MediaQueue
  db: Db
  store: MediaStore
  workers: number
  previewMaxBytes: number
  growingKeepSeconds: number
  videos: { enqueueQueued(): Promise<number>; invalidate(): void }
}): Promise<() => void> {
  const { queue, db, store, videos } = deps
  const added = await videos.enqueueQueued()
  if (added > 0) console.log(`[media] ${added} video(s) queued for processing`)
  const missing = missingTools()
  if (deps.workers > 0 && missing) {
    // Better than failing every video: they wait, and play as masters meanwhile.
    console.log(`[media] ${missing}: videos wait in the queue until a worker with it runs.`)
  } else {
    await queue.work(deps.workers, {
      db,
      store,
      onChange: videos.invalidate,
      previewMaxBytes: deps.previewMaxBytes,
      growingKeepSeconds: deps.growingKeepSeconds,
    })
  }
  return watchVideoChanges(db, videos.invalidate)
}

/** Why this process cannot process videos, or undefined when it can. */
export function missingTools(): string | undefined {
  const missing = ['ffmpeg', 'ffprobe'].filter((tool) => !Bun.which(tool))
  if (missing.length === 0) return undefined
  return `${missing.join(' and ')} not installed (Debian: apt-get install ffmpeg)`
}
