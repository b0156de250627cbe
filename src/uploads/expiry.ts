// Uploads expire 24 h (or the configured period) after their creation, finished or not, unless a
// video change takes them first. @tus/file-store counts from creation too but leaves the running
// of its clean-up to us (Server.cleanUpExpiredUploads); this holds what it lacks: the rule itself
// (also for uploads registered from a multipart body), the sweep of half-written pairs, the timer.
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isUploadId } from './upload-ids.ts'

export const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000
const CLEANUP_EVERY_MS = 60 * 60 * 1000

/** Whether an upload's period from its creation has passed. */
export function isExpired(upload: { creation_date?: string }, expiryMs: number): boolean {
  if (expiryMs <= 0) return false
  const created = upload.creation_date ? Date.parse(upload.creation_date) : Number.NaN
  // An info file without a readable creation date is not one we wrote: it expires too.
  return !(created + expiryMs > Date.now())
}

/**
 * When the upload expires, as `Upload-Expires` says it (RFC 7231's date format): every answer
 * that tells an upload's state carries it, a finished upload's too, since those expire as well.
 */
export function expiresHeader(
  upload: { creation_date?: string },
  expiryMs: number,
): string | undefined {
  const created = upload.creation_date ? Date.parse(upload.creation_date) : Number.NaN
  if (expiryMs <= 0 || Number.isNaN(created)) return undefined
  return new Date(created + expiryMs).toUTCString()
}

/**
 * Removes files of `dir` older than the expiry that are not an upload's pair (`<id>` +
 * `<id>.json`): a crash between creating one and the other leaves a half. Returns how many went.
 */
export async function sweepStrays(dir: string, expiryMs: number): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[])
  const present = new Set(names)
  const cutoff = Date.now() - expiryMs
  let removed = 0
  for (const name of names) {
    const id = name.endsWith('.json') ? name.slice(0, -5) : name
    const paired = present.has(id) && present.has(`${id}.json`)
    if (paired && isUploadId(id)) continue
    const info = await stat(join(dir, name)).catch(() => undefined)
    if (info && info.mtimeMs < cutoff) {
      await rm(join(dir, name), { recursive: true, force: true })
      removed++
    }
  }
  return removed
}

/** Runs `cleanUp` hourly, never keeping the process alive; returns the stop. */
export function scheduleCleanup(cleanUp: () => Promise<unknown>): () => void {
  const timer = setInterval(() => {
    cleanUp().catch((error) => console.error('[tus] clean-up failed', error))
  }, CLEANUP_EVERY_MS)
  timer.unref()
  return () => clearInterval(timer)
}
