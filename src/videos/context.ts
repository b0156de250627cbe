// What the videos' queries, commands and maintenance share: their dependencies, the one read
// cache (every write empties it), the admins' view of a row, and the lookups the writes check
// against.
import { asc, desc, eq, sql } from 'drizzle-orm'
import { videos } from '../../db/schema.ts'
import { msg } from '../contract/messages.ts'
import type { Db } from '../db/database.ts'
import { ReadCache } from '../db/read-cache.ts'
import { AppError } from '../errors.ts'
import type { MasterLinks } from '../signing/master-links.ts'
import type { MediaPrefixes } from '../signing/media-prefixes.ts'
import type { PublicCopies } from '../storage/public-copies.ts'
import type { MediaStore } from '../storage/store.ts'
import type { TusEndpoint } from '../uploads/tus.ts'
import type { MediaJobs } from './job.ts'
import { moveMediaUrls, toView, type VideoView, type ViewRow, viewColumns } from './views.ts'

export type VideosDeps = {
  db: Db
  store: MediaStore
  uploads: Pick<TusEndpoint, 'finished' | 'release' | 'claim' | 'unclaim'>
  queue: MediaJobs
  links: Pick<MasterLinks, 'sign'>
  /**
   * Signs the media URLs of hidden works in admins' answers
   * (docs/decisions/064-a-hidden-works-media-by-set-lookup-signed-prefixes-and-link-paths.md).
   */
  prefixes: MediaPrefixes
  /**
   * The bucket's public copies of shown works' files
   * (docs/decisions/087-public-copies-under-public-for-shown-works-only.md).
   */
  publicCopies: Pick<PublicCopies, 'withdraw' | 'schedule'>
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** The public order admins set; videos created at once (one position) newest first. */
export const CURATED = [asc(videos.position), desc(videos.createdAt), desc(videos.id)]
const titleKey = (title: string) => title.trim().toLowerCase()

export type VideosContext = ReturnType<typeof createVideosContext>

export function createVideosContext(deps: VideosDeps) {
  const { db, prefixes } = deps
  // Any change to the videos may change what visitors may fetch: the public copies follow.
  const reads = new ReadCache(200, () => deps.publicCopies.schedule())
  // Admins' answers hold signed prefixes of the bucket they were made in: a new bucket makes
  // every kept answer stale, as a write does.
  let bucket = prefixes.bucket()
  const syncBucket = () => {
    const now = prefixes.bucket()
    if (now !== bucket) {
      bucket = now
      reads.invalidate()
    }
  }

  /**
   * A video as admins see it. The master's own address closes to visitors once streams exist, so an
   * admin's `videoUrl` is always under a signed prefix: it keeps answering (the original, byte for
   * byte) whatever the processing does. A hidden work's other files are signed as well.
   * Synchronous, from the row alone: it asks nothing of the database
   * (docs/decisions/084-a-transaction-never-waits-on-another-connection.md).
   */
  function adminView(row: ViewRow): VideoView {
    const view = toView(row)
    const sign = (url: string) => prefixes.url(url)
    // A growing stream is never public: only its signed prefix reaches it.
    const growing = view.growing && { ...view.growing, hlsUrl: sign(view.growing.hlsUrl) }
    if (row.published && row.status !== 'failed') {
      return { ...view, videoUrl: sign(view.videoUrl), growing }
    }
    return { ...moveMediaUrls(view, sign), videoUrl: sign(view.videoUrl), growing }
  }

  async function find(id: string): Promise<ViewRow> {
    const [row] = UUID_RE.test(id)
      ? await db.select(viewColumns).from(videos).where(eq(videos.id, id))
      : []
    if (!row) throw new AppError('NOT_FOUND', msg.videoNotFound)
    return row
  }

  async function titleAvailable(title: string, exceptId?: string): Promise<boolean> {
    const [taken] = await db
      .select({ id: videos.id })
      .from(videos)
      .where(sql`lower(${videos.title}) = ${titleKey(title)}`)
      .limit(1)
    return !taken || taken.id === exceptId
  }

  return { ...deps, reads, syncBucket, adminView, find, titleAvailable }
}
