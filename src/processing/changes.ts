// Notices changes to the videos made by other processes (a `bun run worker`, `media:reprocess`),
// so cached answers follow within about a second. LISTEN/NOTIFY would be the usual way, but it
// is not delivered through the embedded database's socket (one PGlite session for everyone).
// Instead one small query a second: every pipeline write takes a new number from a sequence into
// its row's `media_revision` (src/processing/video-rows.ts), so the sum over the rows moves with
// each committed write (deletes and inserts move the count), and an uncommitted one is not seen.
import { sql } from 'drizzle-orm'
import type { Db } from '../database.ts'

export const WATCH_EVERY_MS = 1000

/** Calls `onChange` when the videos' fingerprint moves; returns the stop. */
export function watchVideoChanges(db: Db, onChange: () => void, everyMs = WATCH_EVERY_MS) {
  let last: string | undefined
  let busy = false
  let stopped = false
  const tick = async () => {
    if (busy || stopped) return
    busy = true
    try {
      const [row] = await db.execute<{ fingerprint: string }>(
        sql`select count(*) || ':' || coalesce(sum(media_revision), 0) as fingerprint from videos`,
      )
      if (stopped) return
      if (last !== undefined && row?.fingerprint !== last) onChange()
      last = row?.fingerprint
    } catch {
      // The next tick asks again; a database that stays away is reported by the requests.
    } finally {
      busy = false
    }
  }
  const timer = setInterval(tick, everyMs)
  void tick()
  return () => {
    stopped = true
    clearInterval(timer)
  }
}
