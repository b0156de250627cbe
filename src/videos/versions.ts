// A work's versions (docs/review.md#versions): the list, a new version from an upload (processed
// in the background while the current one keeps playing; the pipeline makes it current when it is
// ready), an older ready version made current again, and the deletion of one that is not current.
// The same order of work as every change of media: the file is taken in, the row committed, and
// the files a deletion dropped go only after it committed.
import { and, asc, eq, sql } from 'drizzle-orm'
import { admins, videos, videoVersions } from '../../db/schema.ts'
import { msg } from '../contract/messages.ts'
import { type VersionView, versionMessages } from '../contract/version.ts'
import { AppError } from '../errors.ts'
import { removeFolders, removeNames } from '../storage/store.ts'
import { withUploads } from '../uploads/intake.ts'
import { UUID_RE, type VideosContext } from './context.ts'
import { switchVersion, type Tx } from './version-switch.ts'
import type { StoredCaption } from './views.ts'

type VersionRow = typeof videoVersions.$inferSelect

/** The uploader's name as it is now, kept beside the id for when the admin is gone. */
const nameOf = (adminId: string) =>
  sql<string | null>`(select ${admins.username} from ${admins} where ${admins.id} = ${adminId})`

/** The names and folder a version that is not current holds (its row's, after a switch). */
export function versionFiles(row: Pick<VersionRow, 'masterKey' | 'streamsKey' | 'captions'>) {
  const captions = ((row.captions as StoredCaption[] | null) ?? []).map((track) => track.key)
  return {
    names: [row.masterKey ?? [], ...captions].flat(),
    folders: row.streamsKey ? [row.streamsKey] : [],
  }
}

/** Writes the first version of a work just created (its files are on the work's row). */
export async function firstVersion(tx: Tx, videoId: string, ownerId: string): Promise<void> {
  const [version] = await tx
    .insert(videoVersions)
    .values({ videoId, number: 1, uploadedBy: ownerId, uploadedByName: nameOf(ownerId) })
    .returning({ id: videoVersions.id })
  await tx.update(videos).set({ currentVersionId: version!.id }).where(eq(videos.id, videoId))
}

export function createVersionCommands(ctx: VideosContext) {
  const { db, store, queue, reads, publicCopies } = ctx

  /** The work's row, or 404. */
  async function work(id: string) {
    const [row] = UUID_RE.test(id)
      ? await db
          .select({
            id: videos.id,
            title: videos.title,
            currentVersionId: videos.currentVersionId,
            status: videos.status,
            progress: videos.progress,
            duration: videos.duration,
            processingError: videos.processingError,
          })
          .from(videos)
          .where(eq(videos.id, id))
      : []
    if (!row) throw new AppError('NOT_FOUND', msg.videoNotFound)
    return row
  }

  type Work = Awaited<ReturnType<typeof work>>

  function toVersionView(row: VersionRow, video: Work): VersionView {
    const current = row.id === video.currentVersionId
    // The current version's processing state is the work's own (its row holds its media).
    const state = current ? video : row
    return {
      _id: row.id,
      videoId: row.videoId,
      number: row.number,
      createdAt: row.createdAt.toISOString(),
      duration: state.duration,
      status: state.status,
      progress: state.progress,
      error: state.status === 'failed' ? state.processingError : null,
      current,
      uploadedBy: { _id: row.uploadedBy, name: row.uploadedByName },
    }
  }

  async function list(videoId: string): Promise<{ title: string; versions: VersionView[] }> {
    const video = await work(videoId)
    const rows = await db
      .select()
      .from(videoVersions)
      .where(eq(videoVersions.videoId, video.id))
      .orderBy(asc(videoVersions.number))
    return { title: video.title, versions: rows.map((row) => toVersionView(row, video)) }
  }

  /** One version of the work, or 404 (also for another work's version). */
  async function versionOf(video: Work, versionId: string): Promise<VersionRow> {
    const [row] = UUID_RE.test(versionId)
      ? await db
          .select()
          .from(videoVersions)
          .where(and(eq(videoVersions.id, versionId), eq(videoVersions.videoId, video.id)))
      : []
    if (!row) throw new AppError('NOT_FOUND', versionMessages.notFound)
    return row
  }

  return {
    listVersions: list,

    /**
     * One version of a work as other rooms refer to it (a note names the version it was made
     * on): the given one, or the current one when `versionId` is absent; 404 for an id that is
     * not one of the work's versions.
     */
    async findVersion(videoId: string, versionId?: string): Promise<VersionView> {
      const video = await work(videoId)
      const id = versionId ?? video.currentVersionId
      if (!id) throw new AppError('NOT_FOUND', versionMessages.notFound)
      return toVersionView(await versionOf(video, id), video)
    },

    /**
     * A new version from a finished upload of kind video: numbered after the highest the work
     * ever had, queued for processing in the same transaction; the work keeps playing its
     * current version until this one is ready.
     */
    async addVersion(
      ownerId: string,
      input: { id: string; upload: string },
    ): Promise<{ title: string; version: VersionView }> {
      const video = await work(input.id)
      const row = await withUploads(ctx, ownerId, { video: input.upload }, 'create', (adopted) =>
        db.transaction(async (tx) => {
          const master = adopted[0]!
          const [numbered] = await tx
            .update(videos)
            .set({ lastVersion: sql`${videos.lastVersion} + 1` })
            .where(eq(videos.id, video.id))
            .returning({ number: videos.lastVersion })
          if (!numbered) throw new AppError('NOT_FOUND', msg.videoNotFound)
          const [created] = await tx
            .insert(videoVersions)
            .values({
              videoId: video.id,
              number: numbered.number,
              masterKey: master.name,
              masterType: master.type,
              masterSize: master.size,
              uploadedBy: ownerId,
              uploadedByName: nameOf(ownerId),
            })
            .returning()
          await queue.enqueue(
            { videoId: video.id, sourceKey: master.name, versionId: created!.id },
            tx,
          )
          return created!
        }),
      )
      queue.wake()
      return { title: video.title, version: toVersionView(row, await work(video.id)) }
    },

    /** An older version, ready, current again: the pages, embed and links play it at once. */
    async makeCurrent(
      videoId: string,
      versionId: string,
    ): Promise<{ title: string; version: VersionView; changed: boolean }> {
      const video = await work(videoId)
      const row = await versionOf(video, versionId)
      if (row.id === video.currentVersionId) {
        return { title: video.title, version: toVersionView(row, video), changed: false }
      }
      if (row.status !== 'ready') throw new AppError('CONFLICT', versionMessages.notReady)
      const changed = await db.transaction((tx) => switchVersion(tx, video.id, row.id))
      // A change meanwhile (deleted, or processing again) left nothing done.
      if (!changed) throw new AppError('CONFLICT', versionMessages.notReady)
      reads.invalidate()
      const now = await work(video.id)
      const [after] = await db.select().from(videoVersions).where(eq(videoVersions.id, row.id))
      return { title: now.title, version: toVersionView(after!, now), changed: true }
    },

    /**
     * Deletes a version that is not current, with its master, streams and caption tracks (its
     * public copies first). 409 for the current one; 404 for one that is not the work's.
     */
    async removeVersion(
      videoId: string,
      versionId: string,
    ): Promise<{ title: string; number: number }> {
      const video = await work(videoId)
      const row = await versionOf(video, versionId)
      const gone = await db.transaction(async (tx) => {
        // The work's row first, as a switch locks it: a version cannot become current meanwhile.
        const [locked] = await tx
          .select({ currentVersionId: videos.currentVersionId })
          .from(videos)
          .where(eq(videos.id, video.id))
          .for('update')
        if (!locked) throw new AppError('NOT_FOUND', msg.videoNotFound)
        if (locked.currentVersionId === row.id) {
          throw new AppError('CONFLICT', versionMessages.deleteCurrent)
        }
        const [deleted] = await tx
          .delete(videoVersions)
          .where(and(eq(videoVersions.id, row.id), eq(videoVersions.videoId, video.id)))
          .returning()
        if (!deleted) throw new AppError('NOT_FOUND', versionMessages.notFound)
        if (deleted.masterKey) {
          await queue.cancel(
            { videoId: video.id, sourceKey: deleted.masterKey, versionId: deleted.id },
            tx,
          )
        }
        return deleted
      })
      reads.invalidate()
      // Only now that the delete committed; a job still running finds no row and drops its work.
      const { names, folders } = versionFiles(gone)
      await publicCopies.withdraw([...names, ...folders])
      await removeNames(store, names)
      await removeFolders(store, folders)
      return { title: video.title, number: gone.number }
    },
  }
}
