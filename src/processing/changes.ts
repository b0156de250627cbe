// Notices changes to the videos made by other processes (a `bun run worker`, `media:reprocess`,
// another server on the same database), so cached answers follow within about a second.
// LISTEN/NOTIFY would be the usual way, but it is not delivered through the embedded database's
// socket (one PGlite session for everyone). Instead one small query a second over a fingerprint
// that every committed write moves: the row count (deletes), and the sum over the rows of `xmin`,
// the transaction that wrote each row's current version, so an insert or an update of any column
// (an edit's title, the curated order, `published`) moves it; an uncommitted write is not seen.
// The pipeline's writes also move `media_revision` (src/processing/video-rows.ts).
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
        sql`select count(*) || ':' || coalesce(sum(media_revision), 0) || ':'
              || coalesce(sum(xmin::text::bigint), 0) as fingerprint from videos`,
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
