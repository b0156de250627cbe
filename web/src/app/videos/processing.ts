// What the Manage page knows about a video's processing (docs/media.md): its state, and when the
// list must keep asking the server for news.
import type { Video } from '../../api.ts'

/** How often the list asks for news while a video on the page is queued or processing. */
export const PROCESSING_POLL_MS = 1500

/** Whether anything on this page is still on its way to `ready` or `failed`. */
export function anyInProgress(videos: readonly Pick<Video, 'status'>[]): boolean {
  return videos.some((v) => v.status === 'queued' || v.status === 'processing')
}

/** "0:42", "12:05", "1:02:03" for a duration in seconds. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = String(total % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}
