// The videos' changes: create, edit, retry, the curated order, publish, delete, and the master's
// link. Order of work is the integrity rule: claim and verify uploads, link their files into the
// store, write the row, then release the uploads; old files are removed only after the change
// that dropped them has committed. A crash anywhere leaves the uploads usable or the change made.
// A new or replaced video file is queued for processing in the same transaction as its row
// (src/processing/queue.ts); the streams folder of a replaced or deleted file goes after commit.
import { and, count, eq, inArray, ne, sql } from 'drizzle-orm'
import { videos, videoVersions } from '../../db/schema.ts'
import type { FileKind } from '../contract/file-rules.ts'
import { msg } from '../contract/messages.ts'
import { retryNotFailed } from '../contract/video.ts'
import { conflictOnUnique } from '../db/errors.ts'
import { AppError } from '../errors.ts'
import type { MasterLink } from '../signing/master-links.ts'
import { removeFolders, removeNames } from '../storage/store.ts'
import { type Adopted, SAME_UPLOAD_TWICE, type UploadIds, withUploads } from '../uploads/intake.ts'
import { type CaptionsInput, createCaptionCommands } from './captions.ts'
import { CURATED, UUID_RE, type VideosContext } from './context.ts'
import { fileColumns, keysOf } from './files.ts'
import { requeue, unprocessed } from './rows.ts'
import { freeSlug, moveSlug } from './slugs.ts'
import { firstVersion, versionFiles } from './versions.ts'
import { type VideoView, viewColumns } from './views.ts'

export function createVideoCommands(ctx: VideosContext) {
  const { db, store, queue, reads, adminView, find, titleAvailable, publicCopies } = ctx
  const captions = createCaptionCommands(ctx)

  async function assertTitleFree(title: string, exceptId?: string) {
    if (!(await titleAvailable(title, exceptId))) {
      throw new AppError('CONFLICT', msg.titleTaken, 'title')
    }
  }

  /** Deletes every listed video that exists, in one statement; unknown ids are skipped. */
  async function removeMany(ids: string[]): Promise<number> {
    const valid = [...new Set(ids.filter((id) => UUID_RE.test(id)))]
    if (valid.length === 0) return 0
    const { gone, versions } = await db.transaction(async (tx) => {
      // The versions go with their works (a cascade): their files are read first.
      const versions = await tx
        .select({
          masterKey: videoVersions.masterKey,
          streamsKey: videoVersions.streamsKey,
          captions: videoVersions.captions,
        })
        .from(videoVersions)
        .where(inArray(videoVersions.videoId, valid))
        .for('update')
      const gone = await tx.delete(videos).where(inArray(videos.id, valid)).returning(viewColumns)
      return { gone, versions: versions.map(versionFiles) }
    })
    if (gone.length > 0) reads.invalidate()
    // Files go only now that the delete has committed (a single statement commits on its own).
    // A job still running for one of them finds no row when it ends and drops its outputs.
    // Public copies first: what a visitor could reach goes before what only the app reads.
    await publicCopies.withdraw(
      gone.flatMap((row) => [...keysOf(row), row.streamsKey ?? []].flat()),
    )
    await removeNames(store, [
      ...gone.flatMap((row) => [...keysOf(row), ...row.captions.map((caption) => caption.key)]),
      ...versions.flatMap((version) => version.names),
    ])
    await removeFolders(store, [
      ...gone.flatMap((row) => row.streamsKey ?? []),
      ...versions.flatMap((version) => version.folders),
    ])
    for (const row of gone) {
      await queue
        .cancel({ videoId: row.id, sourceKey: row.videoKey })
        .catch((error) => console.error(`[media] cancel: ${(error as Error).message}`))
    }
    return gone.length
  }

  return {
    /**
     * A short-lived link to the video's master as uploaded, for an admin
     * (docs/decisions/059-a-master-for-admins-once-streams-exist-signed-links.md).
     */
    async masterLink(id: string): Promise<MasterLink> {
      return ctx.links.sign((await find(id)).videoKey)
    },

    async create(
      ownerId: string,
      input: {
        title: string
        description: string
        uploads: Record<FileKind, string>
        captions?: CaptionsInput[] | undefined
      },
    ): Promise<VideoView> {
      await assertTitleFree(input.title)
      const tracks = input.captions ?? []
      const files = new Set(Object.values(input.uploads))
      if (tracks.some((track) => files.has(track.upload))) {
        throw new AppError('BAD_REQUEST', SAME_UPLOAD_TWICE, 'captions')
      }
      // Caption files are checked first: a wrong line is refused before a 2 GB video is taken.
      const row = await captions.withCaptions(ownerId, tracks, (taken) =>
        withUploads(ctx, ownerId, input.uploads, 'create', (adopted) =>
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
            await firstVersion(tx, created!.id, ownerId)
            await captions.writeTracks(tx, created!.id, taken)
            const [withTracks] = await tx
              .select(viewColumns)
              .from(videos)
              .where(eq(videos.id, created!.id))
            return withTracks!
          }),
        ),
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
        ctx,
        ownerId,
        input.uploads ?? {},
        'edit',
        write,
      )
      reads.invalidate()
      if (oldStreams !== null) queue.wake()
      await publicCopies.withdraw([...replaced, oldStreams ?? []].flat())
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
      if (row) reads.invalidate()
      // Already so, or deleted meanwhile (find's 404).
      const now = row ?? (await find(current.id))
      // A hide answers once no copy of the work is left at the bucket's public address; hiding
      // again finishes a removal the bucket did not answer before. Showing makes the copies in
      // the background (the invalidation above asked for them): until then /media streams.
      if (!now.published) {
        await publicCopies.withdraw([...keysOf(now), now.streamsKey ?? []].flat())
      }
      return { video: adminView(now), changed: !!row }
    },

    async remove(id: string): Promise<number> {
      const deleted = await removeMany([id])
      if (deleted === 0) throw new AppError('NOT_FOUND', msg.videoNotFound)
      return deleted
    },

    removeMany,
    addCaptions: captions.addCaptions,
    removeCaptions: captions.removeCaptions,
  }
}
