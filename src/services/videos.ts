// Portfolio videos: the one module behind the tRPC router, the REST adapter and the tus hand-over.
// Order of work is the integrity rule: claim and verify uploads, link their files into the store,
// write the row, then release the uploads; old files are removed only after the change that
// dropped them has committed. A crash anywhere leaves the uploads usable or the change made.
// A new or replaced video file is queued for processing in the same transaction as its row
// (src/processing/queue.ts); the streams folder of a replaced or deleted file goes after commit.
import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm'
import { videoSlugs, videos } from '../../db/schema.ts'
import type { Db } from '../database.ts'
import { conflictOnUnique } from '../db-errors.ts'
import { AppError } from '../errors.ts'
import type { MasterLink, MasterLinks } from '../media/master-links.ts'
import type { MediaPrefixes } from '../media/media-prefixes.ts'
import { type MediaStore, removeFolders, removeNames, scratchJobId, sweep } from '../media/store.ts'
import type { MediaQueue } from '../processing/queue.ts'
import { requeue, unprocessed } from '../processing/video-rows.ts'
import type { FileKind } from '../schemas/file-rules.ts'
import { msg } from '../schemas/messages.ts'
import {
  invalidCursor,
  type PublicListInput,
  publicPageSize,
  retryNotFailed,
  type VideoOrder,
} from '../schemas/video.ts'
import { type Adopted, type UploadIds, withUploads } from '../uploads/intake.ts'
import type { TusEndpoint } from '../uploads/tus.ts'
import { ReadCache } from './read-cache.ts'
import { freeSlug, moveSlug } from './slugs.ts'
import {
  type PublicVideoView,
  toPublicView,
  toView,
  type VideoView,
  type ViewRow,
  viewColumns,
} from './video-view.ts'

export type { PublicVideoView, VideoView }

// The columns each file kind lives in.
const COLUMNS = {
  video: { key: 'videoKey', type: 'videoType', size: 'videoSize' },
  thumbnail: { key: 'thumbnailKey', type: 'thumbnailType', size: 'thumbnailSize' },
  brandLogo: { key: 'brandLogoKey', type: 'brandLogoType', size: 'brandLogoSize' },
} as const

type FileColumns = Partial<
  Pick<typeof videos.$inferInsert, (typeof COLUMNS)[FileKind][keyof (typeof COLUMNS)[FileKind]]>
>

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
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
/** The public order admins set; videos created at once (one position) newest first. */
const CURATED = [asc(videos.position), desc(videos.createdAt), desc(videos.id)]
const titleKey = (title: string) => title.trim().toLowerCase()
/**
 * What visitors see: published works that have not failed. A failed video is the admins' to fix
 * or retry; its master, and any streams of an earlier run, stay out of every public answer.
 */
const VISIBLE = and(eq(videos.published, true), ne(videos.status, 'failed'))
const keysOf = (row: Pick<ViewRow, 'videoKey' | 'thumbnailKey' | 'brandLogoKey'>) => [
  row.videoKey,
  row.thumbnailKey,
  row.brandLogoKey,
]

export function createVideosService(deps: {
  db: Db
  store: MediaStore
  uploads: Pick<TusEndpoint, 'finished' | 'release' | 'claim' | 'unclaim'>
  queue: Pick<MediaQueue, 'enqueue' | 'cancel' | 'wake' | 'activeJobs'>
  links: Pick<MasterLinks, 'sign'>
  /** Signs the media URLs of hidden works in admins' answers (docs/decisions/064). */
  prefixes: MediaPrefixes
}) {
  const { db, store, queue, prefixes } = deps
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
   * A video as admins see it. The master's own address closes to visitors once streams exist, so
   * an admin's `videoUrl` is always under a signed prefix: it keeps answering (the original, byte
   * for byte) whatever the processing does. A hidden work's other files are signed as well.
   */
  async function adminView(row: ViewRow): Promise<VideoView> {
    const view = toView(row)
    await prefixes.ready()
    const sign = (url: string) => prefixes.url(url)
    if (row.published && row.status !== 'failed') return { ...view, videoUrl: sign(view.videoUrl) }
    const signOrNull = (url: string | null) => (url === null ? null : sign(url))
    return {
      ...view,
      videoUrl: sign(view.videoUrl),
      thumbnailUrl: sign(view.thumbnailUrl),
      brandLogoUrl: sign(view.brandLogoUrl),
      hlsUrl: signOrNull(view.hlsUrl),
      mp4Url: signOrNull(view.mp4Url),
      previewUrl: signOrNull(view.previewUrl),
    }
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

  async function assertTitleFree(title: string, exceptId?: string) {
    if (!(await titleAvailable(title, exceptId))) {
      throw new AppError('CONFLICT', msg.titleTaken, 'title')
    }
  }

  function fileColumns(adopted: Adopted[]): FileColumns {
    const set: FileColumns = {}
    for (const file of adopted) {
      const columns = COLUMNS[file.kind]
      set[columns.key] = file.name
      set[columns.type] = file.type
      set[columns.size] = file.size
    }
    return set
  }

  const reads = new ReadCache()

  /** Deletes every listed video that exists, in one statement; unknown ids are skipped. */
  async function removeMany(ids: string[]): Promise<number> {
    const valid = [...new Set(ids.filter((id) => UUID_RE.test(id)))]
    if (valid.length === 0) return 0
    const gone = await db.delete(videos).where(inArray(videos.id, valid)).returning(viewColumns)
    if (gone.length > 0) reads.invalidate()
    // Files go only now that the delete has committed (a single statement commits on its own).
    // A job still running for one of them finds no row when it ends and drops its outputs.
    await removeNames(store, gone.flatMap(keysOf))
    await removeFolders(
      store,
      gone.flatMap((row) => row.streamsKey ?? []),
    )
    for (const row of gone) {
      await queue
        .cancel({ videoId: row.id, sourceKey: row.videoKey })
        .catch((error) => console.error(`[media] cancel: ${(error as Error).message}`))
    }
    return gone.length
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
    return { videos: await Promise.all(rows.map(adminView)), total, totalPages, page, limit, order }
  }

  /** Every published work, in the curated order: the bare path's answer, no cap. */
  async function publicAll(): Promise<{ videos: PublicVideoView[] }> {
    const rows = await db
      .select(viewColumns)
      .from(videos)
      .where(VISIBLE)
      .orderBy(...CURATED)
    return { videos: rows.map((row) => toPublicView(toView(row))) }
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
      videos: page.map((row) => toPublicView(toView(row))),
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

    /** Forgets cached reads; for writes that bypass this service (tests emptying tables). */
    invalidate: () => reads.invalidate(),

    /** A counter that moves with every change to the videos. */
    version: () => {
      syncBucket()
      return reads.version
    },

    async get(id: string): Promise<VideoView> {
      return adminView(await find(id))
    },

    /** A short-lived link to the video's master as uploaded, for an admin (docs/decisions/059). */
    async masterLink(id: string): Promise<MasterLink> {
      return deps.links.sign((await find(id)).videoKey)
    },

    /**
     * The masters visitors may fetch by their URL: those of videos whose streams do not exist
     * yet and that have not failed, the only ones a public answer names (docs/decisions/058).
     * Any other master answers only to an admin session or a signed link.
     */
    async openMasters(): Promise<ReadonlySet<string>> {
      return reads.get('open-masters', async () => {
        const rows = await db
          .select({ videoKey: videos.videoKey })
          .from(videos)
          .where(and(isNull(videos.streamsKey), ne(videos.status, 'failed')))
        return new Set(rows.map((row) => row.videoKey))
      })
    },

    /**
     * The stream folders and stored names of every work visitors do not see (hidden or failed):
     * /media answers them only to admins (docs/decisions/064). Kept until the next change, so a
     * shown work's request pays one set lookup.
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
        return names
      })
    },

    /**
     * A work as its review page shows it, shown or hidden, with the folder and names its page
     * may fetch; null when it is gone.
     */
    async forReview(
      id: string,
    ): Promise<{ video: PublicVideoView; names: ReadonlySet<string> } | null> {
      return reads.get(`review:${id}`, async () => {
        const [row] = UUID_RE.test(id)
          ? await db.select(viewColumns).from(videos).where(eq(videos.id, id))
          : []
        if (!row) return null
        const names = new Set([...keysOf(row), ...(row.streamsKey ? [row.streamsKey] : [])])
        return { video: toPublicView(toView(row)), names }
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

    async create(
      ownerId: string,
      input: { title: string; description: string; uploads: Record<FileKind, string> },
    ): Promise<VideoView> {
      await assertTitleFree(input.title)
      const row = await withUploads(deps, ownerId, input.uploads, 'create', (adopted) =>
        db.transaction(async (tx) => {
          const [created] = await tx
            .insert(videos)
            .values({
              title: input.title,
              slug: await freeSlug(tx, input.title),
              description: input.description,
              // First in the curated order, as it is first among the newest.
              position: sql`(select coalesce(min(${videos.position}), 1) - 1 from ${videos})`,
              // A create's intake always holds all three kinds: the input schema requires them.
              ...(fileColumns(adopted) as Required<ReturnType<typeof fileColumns>>),
            })
            .returning(viewColumns)
            .catch(conflictOnUnique)
          await queue.enqueue({ videoId: created!.id, sourceKey: created!.videoKey }, tx)
          return created!
        }),
      )
      reads.invalidate()
      queue.wake()
      return adminView(row)
    },

    async update(
      ownerId: string,
      input: { id: string; title?: string; description?: string; uploads?: UploadIds },
    ): Promise<VideoView> {
      const current = await find(input.id)
      if (input.title !== undefined) await assertTitleFree(input.title, input.id)
      const write = (adopted: Adopted[]) =>
        db.transaction(async (tx) => {
          // Locked, so a concurrent replacement cannot make us delete the file it just set.
          const [before] = await tx
            .select(viewColumns)
            .from(videos)
            .where(eq(videos.id, current.id))
            .for('update')
          if (!before) throw new AppError('NOT_FOUND', msg.videoNotFound)
          const newVideo = adopted.some((file) => file.kind === 'video')
          // A new title gets a new address; the old one keeps redirecting to this work.
          const slug =
            input.title !== undefined && input.title !== before.title
              ? await freeSlug(tx, input.title, before.id)
              : before.slug
          const [after] = await tx
            .update(videos)
            .set({
              ...(input.title !== undefined ? { title: input.title, slug } : {}),
              ...(input.description !== undefined ? { description: input.description } : {}),
              ...fileColumns(adopted),
              // Nothing derived from the old file describes the new one.
              ...(newVideo ? unprocessed : {}),
              updatedAt: new Date(),
            })
            .where(eq(videos.id, current.id))
            .returning(viewColumns)
            .catch(conflictOnUnique)
          await moveSlug(tx, before.id, before.slug, slug)
          if (newVideo) {
            await queue.cancel({ videoId: before.id, sourceKey: before.videoKey }, tx)
            await queue.enqueue({ videoId: after!.id, sourceKey: after!.videoKey }, tx)
          }
          const kept = new Set(keysOf(after!))
          return {
            row: after!,
            replaced: keysOf(before).filter((key) => !kept.has(key)),
            oldStreams: newVideo ? before.streamsKey : null,
          }
        })
      const { row, replaced, oldStreams } = await withUploads(
        deps,
        ownerId,
        input.uploads ?? {},
        'edit',
        write,
      )
      reads.invalidate()
      if (oldStreams !== null) queue.wake()
      await removeNames(store, replaced)
      if (oldStreams) await removeFolders(store, [oldStreams])
      return adminView(row)
    },

    /** Puts a failed video back in the queue; 409 for a video in any other state. */
    async retry(id: string): Promise<VideoView> {
      const current = await find(id)
      const [moved] = await requeue(db, queue, [current.id], ['failed'])
      if (!moved) throw new AppError('CONFLICT', retryNotFailed)
      reads.invalidate()
      queue.wake()
      return adminView(await find(moved))
    },

    /**
     * The given videos take the positions they held between them, in the order given (a Manage
     * page after a drag); the rest keep theirs. All or nothing: an unknown id is 404.
     */
    async reorder(ids: string[]): Promise<number> {
      if (!ids.every((id) => UUID_RE.test(id))) throw new AppError('NOT_FOUND', msg.videoNotFound)
      const moved = await db.transaction(async (tx) => {
        const held = () =>
          tx
            .select({ id: videos.id, position: videos.position })
            .from(videos)
            .where(inArray(videos.id, ids))
            .orderBy(...CURATED)
            .for('update')
        let rows = await held()
        if (rows.length !== ids.length) throw new AppError('NOT_FOUND', msg.videoNotFound)
        // Videos created at the same moment can share a position, and a shared place cannot be
        // handed over without moving its other holder: then every video gets its own first.
        const [{ sharing } = { sharing: 0 }] = await tx
          .select({ sharing: count() })
          .from(videos)
          .where(
            inArray(
              videos.position,
              rows.map((row) => row.position),
            ),
          )
        const distinct = new Set(rows.map((row) => row.position)).size
        if (sharing > rows.length || distinct < rows.length) {
          await tx.execute(sql`
            update ${videos} set position = ordered.n
            from (select id, row_number() over (order by position, created_at desc, id desc) as n
                  from ${videos}) as ordered
            where ${videos.id} = ordered.id and ${videos.position} <> ordered.n`)
          rows = await held()
        }
        let changed = 0
        for (const [i, id] of ids.entries()) {
          const place = rows[i]!.position
          const [row] = await tx
            .update(videos)
            .set({ position: place })
            .where(sql`${videos.id} = ${id} and ${videos.position} <> ${place}`)
            .returning({ id: videos.id })
          if (row) changed++
        }
        return changed
      })
      if (moved > 0) reads.invalidate()
      return moved
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
        if (row) return { video: toPublicView(toView(row)) }
        const [moved] = await db
          .select({ slug: videos.slug })
          .from(videoSlugs)
          .innerJoin(videos, eq(videos.id, videoSlugs.videoId))
          .where(and(eq(videoSlugs.slug, slug), VISIBLE))
        return moved ? { redirect: moved.slug } : null
      })
    },

    /**
     * Shows or hides a video on the public page; the dashboard keeps it either way. `changed` is
     * false when it already was so (the activity log records only real changes): decided by the
     * update itself, so of two identical calls at once exactly one changes it.
     */
    async setPublished(
      id: string,
      published: boolean,
    ): Promise<{ video: VideoView; changed: boolean }> {
      const current = await find(id)
      const [row] = await db
        .update(videos)
        .set({ published })
        .where(and(eq(videos.id, current.id), ne(videos.published, published)))
        .returning(viewColumns)
      // Already so, or deleted meanwhile (find's 404).
      if (!row) return { video: await adminView(await find(current.id)), changed: false }
      reads.invalidate()
      return { video: await adminView(row), changed: true }
    },

    /** Start-up: every queued video gets its job, unless it has one (idempotent). */
    async enqueueQueued(): Promise<number> {
      const rows = await db
        .select({ videoId: videos.id, sourceKey: videos.videoKey })
        .from(videos)
        .where(eq(videos.status, 'queued'))
      let added = 0
      for (const row of rows) if (await queue.enqueue(row)) added++
      if (added > 0) queue.wake()
      return added
    },

    async remove(id: string): Promise<number> {
      const deleted = await removeMany([id])
      if (deleted === 0) throw new AppError('NOT_FOUND', msg.videoNotFound)
      return deleted
    },

    removeMany,

    /**
     * Start-up: media files and streams folders no row names are removed (see docs/media.md
     * "On disk"), and the scratch folders of jobs no worker is running. Rows are read after the
     * store is listed and under a share lock, so a worker process finishing meanwhile (it holds
     * the row while it stores its folder) is waited for, not swept.
     */
    async sweepOrphans(): Promise<string[]> {
      return sweep(store, async (listed) => {
        const jobs = listed.flatMap((name) => scratchJobId(name) ?? [])
        // A job still active may have a worker process writing there (a crashed one's retry
        // clears its own); any other job's scratch is a leftover.
        const active = await queue.activeJobs(jobs)
        const rows = await db
          .select({
            videoKey: videos.videoKey,
            thumbnailKey: videos.thumbnailKey,
            brandLogoKey: videos.brandLogoKey,
            streamsKey: videos.streamsKey,
          })
          .from(videos)
          .for('share')
        const keep = new Set(rows.flatMap((row) => [...keysOf(row), row.streamsKey ?? '']))
        for (const name of listed) {
          const job = scratchJobId(name)
          if (job && active.has(job)) keep.add(name)
        }
        return keep
      })
    },
  }
}

export type VideosService = ReturnType<typeof createVideosService>
