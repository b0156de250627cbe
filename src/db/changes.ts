// Notices changes to the videos made by other processes (a `bun run worker`, `media:reprocess`,
// another server on the same database), so cached answers follow within about a second.
// LISTEN/NOTIFY would be the usual way, but it is not delivered through the embedded database's
// socket (one PGlite session for everyone). Instead one small query a second over a fingerprint
// that every committed write moves: the row count (deletes), and the sum over the rows of `xmin`,
// the transaction that wrote each row's current version, so an insert or an update of any column
// (an edit's title, the curated order, `published`) moves it; an uncommitted write is not seen. The
// pipeline's writes also move `media_revision` (src/videos/rows.ts), and the bucket's public copies
// (docs/decisions/087-public-copies-under-public-for-shown-works-only.md) move it too: a copy done
// or withdrawn elsewhere changes redirects. The site content's versions are watched the same way,
// for servers sharing one database.
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from './database.ts'

export const WATCH_EVERY_MS = 1000

/** Calls `onChange` when the videos' fingerprint moves; returns the stop. */
export const watchVideoChanges = (db: Db, onChange: () => void, everyMs = WATCH_EVERY_MS) =>
  watchFingerprint(
    db,
    sql`select count(*) || ':' || coalesce(sum(media_revision), 0) || ':'
          || coalesce(sum(xmin::text::bigint), 0) || ':'
          || (select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) from public_copies)
          as fingerprint from videos`,
    onChange,
    everyMs,
  )

/**
 * Calls `onChange` when the site content's versions move (a save or an undo on another server);
 * returns the stop.
 */
export const watchSiteChanges = (db: Db, onChange: () => void, everyMs = WATCH_EVERY_MS) =>
  watchFingerprint(
    db,
    sql`select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) as fingerprint
          from site_versions`,
    onChange,
    everyMs,
  )

/**
 * Calls `onChange` when clients' notes or their resolutions move (a note taken by another
 * server): admins' video answers count open notes. Returns the stop.
 */
export const watchNoteChanges = (db: Db, onChange: () => void, everyMs = WATCH_EVERY_MS) =>
  watchFingerprint(
    db,
    sql`select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) as fingerprint
          from review_notes`,
    onChange,
    everyMs,
  )

function watchFingerprint(db: Db, query: SQL, onChange: () => void, everyMs: number) {
  let last: string | undefined
  let busy = false
  let stopped = false
  const tick = async () => {
    if (busy || stopped) return
    busy = true
    try {
      const [row] = await db.execute<{ fingerprint: string }>(query)
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
