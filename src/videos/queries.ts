// The videos' reads: the admins' list, the public list (whole or in pages, with their cursors),
// one work by id or address, the review page's work, the names /media keeps from visitors, and
// the counts. Each answer is kept in the shared read cache until the next change.
import { and, asc, count, desc, eq, isNotNull, ne, or, sql } from 'drizzle-orm'
import { videoCaptions, videoSlugs, videos, videoVersions } from '../../db/schema.ts'
import { versionMessages } from '../contract/version.ts'
import {
  invalidCursor,
  type PublicListInput,
  publicPageSize,
  type VideoOrder,
} from '../contract/video.ts'
import { AppError } from '../errors.ts'
import type { FolderCaptions } from './captions.ts'
import { CURATED, UUID_RE, type VideosContext } from './context.ts'
import { keysOf } from './files.ts'
import { versionFiles } from './versions.ts'
import {
  moveMediaUrls,
  type PublicVideoView,
  type StoredCaption,
  toPublicView,
  toView,
  type VideoView,
  type ViewRow,
  viewColumns,
} from './views.ts'

/** Where a page of the public list ends: the last work's place in the curated order. */
type Cursor = { position: number; createdAt: string; id: string }
export type PublicPage = { videos: PublicVideoView[]; nextCursor: string | null }
/** The creation time as PostgreSQL writes it: exact to the microsecond, unlike a JS Date. */
const createdText = sql<string>`${videos.createdAt}::text`

const encodeCursor = (c: Cursor) =>
  Buffer.from(JSON.stringify([c.position, c.createdAt, c.id])).toString('base64url')

function decodeCursor(text: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
    if (Array.isArray(value) && value.length === 3) {
      const [position, createdAt, id] = value
      if (
        Number.isSafeInteger(position) &&
        typeof createdAt === 'string' &&
        /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(createdAt) &&
        typeof id === 'string' &&
        UUID_RE.test(id)
      ) {
        return { position, createdAt, id }
      }
    }
  } catch {}
  throw new AppError('BAD_REQUEST', invalidCursor, 'cursor')
}

/** Newest first: the admins' list's default order (docs/api.md). */
const NEWEST = [desc(videos.createdAt), desc(videos.id)]
/**
 * What visitors see: published works whose streams exist and that have not failed
 * (docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md). A work waiting for its first
 * streams is not on the site at all, so no public answer ever names its master. A reprocess keeps
 * naming the previous complete folder until the new one replaces it, so a work being reprocessed
 * stays shown. A failed video is the admins' to fix or retry; any streams of an earlier run stay
 * out of every public answer.
 */
const VISIBLE = and(
  eq(videos.published, true),
  isNotNull(videos.streamsKey),
  ne(videos.status, 'failed'),
)

/**
 * A shown work as visitors get it: ready, since what they play is a complete folder (also while
 * a reprocess makes the next one).
 */
const visitorView = (row: ViewRow): PublicVideoView => ({
  ...toPublicView(toView(row)),
  status: 'ready',
})

type VersionRow = typeof videoVersions.$inferSelect

/**
 * The work's row with `version`'s media in place of its own. The current version's media are the
 * work's own (its file columns on its version row are empty), so its row is returned as it is.
 */
function withVersion(row: ViewRow, version: VersionRow): ViewRow {
  if (!version.masterKey) return row
  return {
    ...row,
    videoKey: version.masterKey,
    status: version.status,
    progress: version.progress,
    duration: version.duration,
    width: version.width,
    height: version.height,
    streamsKey: version.streamsKey,
    hasPreview: version.hasPreview,
    processingError: version.processingError,
    loudnessIntegrated: version.loudnessIntegrated,
    loudnessRange: version.loudnessRange,
    loudnessTruePeak: version.loudnessTruePeak,
    videoCodec: version.videoCodec,
    audioCodec: version.audioCodec,
    captions: (version.captions as StoredCaption[] | null) ?? [],
    version: version.number,
  }
}

/** The names a review page may fetch of a work's row: poster, logo, streams and captions. */
const reviewNamesOf = (row: ViewRow): Set<string> =>
  new Set([
    row.thumbnailKey,
    row.brandLogoKey,
    ...(row.streamsKey ? [row.streamsKey] : []),
    ...row.captions.map((caption) => caption.key),
  ])

/** One version of a work as its review page lists it, its media at their /media addresses. */
export type ReviewVersion = {
  id: string
  number: number
  current: boolean
  createdAt: string
  video: PublicVideoView
  names: ReadonlySet<string>
}

export function createVideoQueries(ctx: VideosContext) {
  const { db, reads, syncBucket, adminView, find, titleAvailable, prefixes } = ctx

  /**
   * The work's row as it would read with `versionId` current: the current one's row as it is,
   * another version's media in place of the row's; undefined for an id not of this work.
   */
  async function asVersion(row: ViewRow, versionId: string): Promise<ViewRow | undefined> {
    const [version] = UUID_RE.test(versionId)
      ? await db
          .select()
          .from(videoVersions)
          .where(and(eq(videoVersions.id, versionId), eq(videoVersions.videoId, row.id)))
      : []
    return version && withVersion(row, version)
  }

  async function listPage(input: { page: number; limit: number; order: VideoOrder }) {
    const { page, limit, order } = input
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(videos)
    const rows = await db
      .select(viewColumns)
      .from(videos)
      .orderBy(...(order === 'curated' ? CURATED : NEWEST))
      .limit(limit)
      .offset((page - 1) * limit)
    const totalPages = Math.max(1, Math.ceil(total / limit))
    return { videos: rows.map(adminView), total, totalPages, page, limit, order }
  }

  /** Every published work, in the curated order: the bare path's answer, no cap. */
  async function publicAll(): Promise<{ videos: PublicVideoView[] }> {
    const rows = await db
      .select(viewColumns)
      .from(videos)
      .where(VISIBLE)
      .orderBy(...CURATED)
    return { videos: rows.map(visitorView) }
  }

  /**
   * One page of published works after `cursor` (keyset on the curated order, so a page costs the
   * same at any depth and works added meanwhile, which lead the order, never shift it).
   */
  async function publicPage(limit: number, cursor: Cursor | null): Promise<PublicPage> {
    const after = cursor
      ? or(
          sql`${videos.position} > ${cursor.position}`,
          and(
            eq(videos.position, cursor.position),
            or(
              sql`${videos.createdAt} < ${cursor.createdAt}::timestamptz`,
              and(
                sql`${videos.createdAt} = ${cursor.createdAt}::timestamptz`,
                sql`${videos.id} < ${cursor.id}::uuid`,
              ),
            ),
          ),
        )
      : undefined
    const rows = await db
      .select({ ...viewColumns, position: videos.position, createdText: createdText })
      .from(videos)
      .where(and(VISIBLE, after))
      .orderBy(...CURATED)
      .limit(limit + 1)
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    return {
      videos: page.map(visitorView),
      nextCursor:
        rows.length > limit && last
          ? encodeCursor({ position: last.position, createdAt: last.createdText, id: last.id })
          : null,
    }
  }

  return {
    async list(input: { page: number; limit: number; order: VideoOrder }) {
      syncBucket()
      return reads.get(`list:${input.page}:${input.limit}:${input.order}`, () => listPage(input))
    },

    /** Every published work (no input), or one page of them (`limit`, `cursor`). */
    async publicList(input?: PublicListInput): Promise<PublicPage | { videos: PublicVideoView[] }> {
      if (input?.limit === undefined && input?.cursor === undefined) {
        return reads.get('public', publicAll)
      }
      const limit = input.limit ?? publicPageSize.default
      const cursor = input.cursor === undefined ? null : decodeCursor(input.cursor)
      return reads.get(`public:${limit}:${input.cursor ?? ''}`, () => publicPage(limit, cursor))
    },

    async get(id: string): Promise<VideoView> {
      return adminView(await find(id))
    },

    /**
     * The stream folders and stored names of every work visitors do not see (hidden or failed),
     * and of every version that is not current: /media answers them only to admins
     * (docs/decisions/064-a-hidden-works-media-by-set-lookup-signed-prefixes-and-link-paths.md).
     * Kept until the next change, so a shown work's request pays one set lookup.
     */
    async privateNames(): Promise<ReadonlySet<string>> {
      return reads.get('private-names', async () => {
        const rows = await db
          .select({
            streamsKey: videos.streamsKey,
            videoKey: videos.videoKey,
            thumbnailKey: videos.thumbnailKey,
            brandLogoKey: videos.brandLogoKey,
          })
          .from(videos)
          .where(or(eq(videos.published, false), eq(videos.status, 'failed')))
        const names = new Set<string>()
        for (const row of rows) {
          for (const name of [row.streamsKey, ...keysOf(row)]) if (name) names.add(name)
        }
        const captions = await db
          .select({ key: videoCaptions.key })
          .from(videoCaptions)
          .innerJoin(videos, eq(videos.id, videoCaptions.videoId))
          .where(or(eq(videos.published, false), eq(videos.status, 'failed')))
        for (const row of captions) names.add(row.key)
        // A stream still growing is the admins' to play, whatever its work's state.
        const growing = await db
          .select({ growing: videos.growing })
          .from(videos)
          .where(isNotNull(videos.growing))
        for (const row of growing) if (row.growing) names.add(row.growing.folder)
        // Versions that are not current are the admins' to play, whatever their work's state.
        const versions = await db
          .select({
            masterKey: videoVersions.masterKey,
            streamsKey: videoVersions.streamsKey,
            captions: videoVersions.captions,
          })
          .from(videoVersions)
        for (const row of versions) {
          const files = versionFiles(row)
          for (const name of [...files.names, ...files.folders]) names.add(name)
        }
        return names
      })
    },

    /**
     * The stream folders, thumbnails and logos visitors may fetch: those of shown works (the
     * complement of `privateNames` among the works, masters and captions aside). What the bucket's
     * public copies are made of
     * (docs/decisions/087-public-copies-under-public-for-shown-works-only.md); read fresh on every
     * call.
     */
    async publicNames(): Promise<Set<string>> {
      const rows = await db
        .select({
          streamsKey: videos.streamsKey,
          thumbnailKey: videos.thumbnailKey,
          brandLogoKey: videos.brandLogoKey,
        })
        .from(videos)
        .where(and(eq(videos.published, true), ne(videos.status, 'failed')))
      return new Set(
        rows.flatMap((row) => [row.streamsKey ?? [], row.thumbnailKey, row.brandLogoKey].flat()),
      )
    },

    /**
     * A work as its review page shows it, shown or hidden, with the folder and names its page
     * may fetch (never the master: that is for admins only); null when it is gone. With
     * `versionId`, one of its versions instead of the current one (a review round's earlier cut):
     * the work's title, poster and logo with that version's streams, length, loudness and
     * captions; null when it is not one of the work's versions. Read fresh: a version that is not
     * current is processed without moving the cached answers.
     */
    async forReview(
      id: string,
      versionId?: string,
    ): Promise<{ video: PublicVideoView; names: ReadonlySet<string> } | null> {
      const read = async () => {
        const [row] = UUID_RE.test(id)
          ? await db.select(viewColumns).from(videos).where(eq(videos.id, id))
          : []
        if (!row) return null
        const shown = versionId === undefined ? row : await asVersion(row, versionId)
        if (!shown) return null
        return { video: toPublicView(toView(shown)), names: reviewNamesOf(shown) }
      }
      return versionId === undefined ? reads.get(`review:${id}`, read) : read()
    },

    /**
     * One version of a work as admins see it, to play on the work's review page: the current one
     * as `get` answers it, another with its own streams, length, loudness and captions. A
     * version that is not current is private whatever the work's state, so all its files are
     * under a signed prefix. 404 for an id that is not one of the work's versions.
     */
    async versionVideo(id: string, versionId: string): Promise<VideoView> {
      const row = await find(id)
      const shown = await asVersion(row, versionId)
      if (!shown) throw new AppError('NOT_FOUND', versionMessages.notFound)
      if (shown === row) return adminView(row)
      const sign = (url: string) => prefixes.url(url)
      const view = toView(shown)
      return { ...moveMediaUrls(view, sign), videoUrl: sign(view.videoUrl) }
    },

    /**
     * Every version of a work a review link may offer besides the current one, oldest first:
     * those that are ready, with their streams (a version still processing, failed or deleted
     * is not among them). Each with the names its page may fetch, never its master. Read fresh,
     * as `forReview` with a version is: a version's processing moves no cached answer. Empty
     * for an unknown work.
     */
    async readyVersions(id: string): Promise<ReviewVersion[]> {
      const [row] = UUID_RE.test(id)
        ? await db.select(viewColumns).from(videos).where(eq(videos.id, id))
        : []
      if (!row) return []
      const rows = await db
        .select()
        .from(videoVersions)
        .where(eq(videoVersions.videoId, row.id))
        .orderBy(asc(videoVersions.number))
      return rows.flatMap((version) => {
        // The current version (empty file columns) is the caller's, read through the cache.
        if (!version.masterKey || version.status !== 'ready' || !version.streamsKey) return []
        const shown = withVersion(row, version)
        return [
          {
            id: version.id,
            number: version.number,
            current: false,
            createdAt: version.createdAt.toISOString(),
            video: toPublicView(toView(shown)),
            names: reviewNamesOf(shown),
          },
        ]
      })
    },

    /**
     * The caption tracks of each stream folder, with its video's length: what the master and the
     * subtitle playlists /media renders for it. Kept until the next change, so a work without
     * captions pays one map lookup.
     */
    async captionsByFolder(): Promise<ReadonlyMap<string, FolderCaptions>> {
      return reads.get('caption-folders', async () => {
        const rows = await db
          .select({
            folder: videos.streamsKey,
            duration: videos.duration,
            language: videoCaptions.language,
            label: videoCaptions.label,
            key: videoCaptions.key,
          })
          .from(videoCaptions)
          .innerJoin(videos, eq(videos.id, videoCaptions.videoId))
          .where(isNotNull(videos.streamsKey))
          .orderBy(asc(videoCaptions.label), asc(videoCaptions.language))
        const folders = new Map<string, FolderCaptions>()
        for (const { folder, duration, ...track } of rows) {
          if (!folder) continue
          const entry = folders.get(folder) ?? { duration: duration ?? 0, tracks: [] }
          entry.tracks.push(track)
          folders.set(folder, entry)
        }
        return folders
      })
    },

    async checkTitle(title: string, exceptId?: string) {
      return { available: await titleAvailable(title, exceptId) }
    },

    async stats() {
      return reads.get('stats', async () => {
        const [{ totalVideos } = { totalVideos: 0 }] = await db
          .select({ totalVideos: count() })
          .from(videos)
        return { totalVideos }
      })
    },

    /**
     * A published work by its address: `{ video }`, or `{ redirect }` to its address now when
     * `slug` is one it had before a rename; null when no published work has it.
     */
    async bySlug(slug: string): Promise<{ video: PublicVideoView } | { redirect: string } | null> {
      return reads.get(`slug:${slug}`, async () => {
        const [row] = await db
          .select(viewColumns)
          .from(videos)
          .where(and(eq(videos.slug, slug), VISIBLE))
        if (row) return { video: visitorView(row) }
        const [moved] = await db
          .select({ slug: videos.slug })
          .from(videoSlugs)
          .innerJoin(videos, eq(videos.id, videoSlugs.videoId))
          .where(and(eq(videoSlugs.slug, slug), VISIBLE))
        return moved ? { redirect: moved.slug } : null
      })
    },
  }
}
