// The media job a video's file gets: what it carries, and the check a handler makes of what
// pg-boss hands it. The service, the queue, the row writes and the handlers all import it from
// here, so none of them imports another for a type.
import type { DrizzleTransactionLike } from 'pg-boss'

/** The video and the file (its store name) the job was made for. */
export type ProcessVideoPayload = { videoId: string; sourceKey: string }

/** A transaction the job is created (or cancelled) in, so it commits or rolls back with the row. */
export type QueueTx = DrizzleTransactionLike

/** Creates the job for a video's current file, in `tx` when given (the media queue's `enqueue`). */
export type EnqueueJob = (job: ProcessVideoPayload, tx?: QueueTx) => Promise<string | null>

export function isPayload(data: unknown): data is ProcessVideoPayload {
  const d = data as Partial<ProcessVideoPayload> | null
  return typeof d?.videoId === 'string' && typeof d.sourceKey === 'string'
}
