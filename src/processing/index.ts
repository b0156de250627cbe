// The processing side of the app, once the queue is up: jobs for videos still waiting (a start
// after a crash, or after the migration that brought the pipeline), this process's workers, and
// the watch that keeps cached answers in step with other processes' work.
import type { Db } from '../database.ts'
import type { MediaStore } from '../media/store.ts'
import { watchVideoChanges } from './changes.ts'
import type { MediaQueue } from './queue.ts'

export async function startProcessing(deps: {
  queue: MediaQueue
  db: Db
  store: MediaStore
  workers: number
  videos: { enqueueQueued(): Promise<number>; invalidate(): void }
}): Promise<() => void> {
  const { queue, db, store, videos } = deps
  const added = await videos.enqueueQueued()
  if (added > 0) console.log(`[media] ${added} video(s) queued for processing`)
  await queue.work(deps.workers, { db, store, onChange: videos.invalidate })
  return watchVideoChanges(db, videos.invalidate)
}
