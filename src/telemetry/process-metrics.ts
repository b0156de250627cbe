// What modules deep in the process count for /metrics without knowing the app: bytes uploaded
// and media job durations. A leaf (prom-client only), so the upload path, the queue and worker
// processes import it without the HTTP layer; src/ops/metrics.ts serves it.
import { Counter, Histogram, Registry } from 'prom-client'

export const processRegistry = new Registry()

const uploadedBytes = new Counter({
  name: 'studio_uploaded_bytes_total',
  help: 'Bytes of uploaded files written to disk, by the path they came through.',
  labelNames: ['path'] as const,
  registers: [processRegistry],
})

const jobDuration = new Histogram({
  name: 'studio_media_job_duration_seconds',
  help: 'How long media jobs ran in this process, from start to end, by how they ended.',
  labelNames: ['outcome'] as const,
  // From a thumbnail-sized clip to a 2 GB master at about real time.
  buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600],
  registers: [processRegistry],
})

/** Counts bytes of an upload that reached the disk: tus chunks, files of a multipart body. */
export function countUploadedBytes(path: 'tus' | 'multipart', bytes: number): void {
  if (bytes > 0) uploadedBytes.inc({ path }, bytes)
}

/** Runs a media job, timing it: `completed` when it returns, `failed` when it throws (retried). */
export async function timeMediaJob(run: () => Promise<void>): Promise<void> {
  const end = jobDuration.startTimer()
  try {
    await run()
    end({ outcome: 'completed' })
  } catch (error) {
    end({ outcome: 'failed' })
    throw error
  }
}
