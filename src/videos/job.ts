// The media job a video's file gets: what it carries, what the videos ask of the queue that runs
// it, what processing learns of the file (its probe, its loudness), and the check a handler makes
// of what pg-boss hands it. The videos' rules and the processing that serves them both import
// these from here, so processing depends on the videos and never the other way.
import type { DrizzleTransactionLike } from 'pg-boss'

/**
 * The video and the file (its store name) the job was made for; `versionId` when the file is a
 * version that is not current (its writes go to its own row, and the work keeps playing).
 */
export type ProcessVideoPayload = { videoId: string; sourceKey: string; versionId?: string }

/** A transaction the job is created (or cancelled) in, so it commits or rolls back with the row. */
export type QueueTx = DrizzleTransactionLike

/** Creates the job for a video's current file, in `tx` when given (the media queue's `enqueue`). */
export type EnqueueJob = (job: ProcessVideoPayload, tx?: QueueTx) => Promise<string | null>

export function isPayload(data: unknown): data is ProcessVideoPayload {
  const d = data as Partial<ProcessVideoPayload> | null
  return (
    typeof d?.videoId === 'string' &&
    typeof d.sourceKey === 'string' &&
    (d.versionId === undefined || typeof d.versionId === 'string')
  )
}

/** What the videos ask of the media queue (src/processing/queue.ts runs it). */
export type MediaJobs = {
  /**
   * Creates the job for a video's current file, in `tx` when given. Idempotent: while a job for
   * the same file is queued or running, none is added (pg-boss's `exclusive` policy). Call
   * `wake()` once the transaction has committed.
   */
  enqueue(job: ProcessVideoPayload, tx?: QueueTx): Promise<string | null>
  /** Cancels the queued or running jobs of a file a change replaced or deleted. */
  cancel(job: ProcessVideoPayload, tx?: QueueTx): Promise<void>
  /** Starts a job just committed now rather than at this process's next poll. */
  wake(): void
  /**
   * Which of these job ids are running, or were when their process died and are not yet given
   * up (their heartbeat has not expired): a worker may be writing their outputs right now.
   */
  activeJobs(ids: string[]): Promise<Set<string>>
}

/** What ffprobe says of a master (src/processing/probe.ts reads it). */
export type MediaProbe = {
  /** Seconds; null when the container does not say (a live-recorded WebM, for one). */
  duration: number | null
  width: number
  height: number
  frameRate: number | null
  videoCodec: string
  audioCodec: string | null
  /** The whole file's bit/s. */
  bitrate: number | null
  hasAudio: boolean
}

/** A work's loudness as EBU R 128 measures it (src/processing/loudness.ts). */
export type Loudness = {
  /** LUFS. */
  integrated: number
  /** LU. */
  range: number
  /** dBTP; null for digital silence (minus infinity). */
  truePeak: number | null
}
