// A video's status machine and the media pipeline's writes to its row, in one place. A video is
// `queued` when created, when its file is replaced (`unprocessed` resets all the old file gave)
// and on Retry or reprocess (`requeue`); a job's attempt makes it `processing`, then `ready` with
// its outputs or `failed` with a reason (also the dead-letter worker's, when no attempt is left).
// Each pipeline write is guarded by the file it was started for (`id` and `video_key`): a video
// replaced or deleted meanwhile matches no row, and the caller drops its work. Each also takes a
// new number from `video_media_revision`, so a server notices writes made by other processes
// (src/db/changes.ts). None of them touches `updated_at`: the dashboard's "Updated" is an
// admin's edit. A job for a version that is not current (`versionId`) writes to that version's
// row instead, guarded the same way by its master; when it is ready and newer than the current
// one, it becomes current in the same transaction (version-switch.ts).
import { and, eq, inArray, sql } from 'drizzle-orm'
import { videos, videoVersions } from '../../db/schema.ts'
import type { GrowingState } from '../contract/growing-stream.ts'
import type { VideoStatus } from '../contract/video.ts'
import type { Db } from '../db/database.ts'
import { type MediaStore, publishFolder, removeFolders } from '../storage/store.ts'
import type { EnqueueJob, Loudness, MediaProbe, ProcessVideoPayload, QueueTx } from './job.ts'
import { currentNumber, switchVersion, type Tx } from './version-switch.ts'

const nextRevision = sql`nextval('video_media_revision')`

const forFile = (job: ProcessVideoPayload) =>
  and(eq(videos.id, job.videoId), eq(videos.videoKey, job.sourceKey))

const forVersionFile = (job: ProcessVideoPayload & { versionId: string }) =>
  and(
    eq(videoVersions.id, job.versionId),
    eq(videoVersions.videoId, job.videoId),
    eq(videoVersions.masterKey, job.sourceKey),
  )

type StateWrite = {
  status?: VideoStatus
  progress?: number
  processingError?: string | null
  /** A work's row only: a version's run publishes no growing stream. */
  growing?: GrowingState | null
}

/** What a new or replaced video file resets: nothing derived from the previous file is kept. */
export const unprocessed = {
  status: 'queued',
  progress: 0,
  duration: null,
  width: null,
  height: null,
  frameRate: null,
  videoCodec: null,
  audioCodec: null,
  bitrate: null,
  loudnessIntegrated: null,
  loudnessRange: null,
  loudnessTruePeak: null,
  streamsKey: null,
  processingError: null,
  growing: null,
} as const satisfies Partial<typeof videos.$inferInsert>

/**
 * One pipeline write to the row of the job's file, with a new media revision; false when the file
 * is no longer the video's (replaced or deleted meanwhile) or `also` does not hold.
 */
async function writeForFile(
  db: Db,
  job: ProcessVideoPayload,
  set: StateWrite,
  onlyIf?: VideoStatus[],
): Promise<boolean> {
  const { versionId } = job
  if (versionId) {
    const { growing: _, ...versionSet } = set
    const rows = await db
      .update(videoVersions)
      .set(versionSet)
      .where(
        and(
          forVersionFile({ ...job, versionId }),
          onlyIf ? inArray(videoVersions.status, onlyIf) : undefined,
        ),
      )
      .returning({ id: videoVersions.id })
    return rows.length > 0
  }
  const rows = await db
    .update(videos)
    .set({ ...set, mediaRevision: nextRevision })
    .where(and(forFile(job), onlyIf ? inArray(videos.status, onlyIf) : undefined))
    .returning({ id: videos.id })
  return rows.length > 0
}

/**
 * An attempt starts. False when the file is no longer the video's, or when the row is already
 * `ready` or `failed` for it: a job delivered again after its work was done (a stop or a lost
 * heartbeat in the moment between the row's last write and the job's completion) must not take a
 * playing work off the public page to make the same streams again. Retry and reprocess put the
 * row back to `queued` before their job exists.
 */
export const markProcessing = (db: Db, job: ProcessVideoPayload) =>
  writeForFile(db, job, { status: 'processing', progress: 0, processingError: null }, [
    'queued',
    'processing',
  ])

/** False when the file is no longer the video's: the attempt should stop. */
export const writeProgress = (db: Db, job: ProcessVideoPayload, percent: number) =>
  writeForFile(db, job, { progress: Math.max(0, Math.min(99, Math.floor(percent))) })

/** The readable reason stays on the row for the Manage page. False when the file is not the video's. */
export const markFailed = (
  db: Db,
  job: ProcessVideoPayload,
  reason: string,
  onlyIf?: VideoStatus[],
) => writeForFile(db, job, { status: 'failed', processingError: reason, growing: null }, onlyIf)

/**
 * How far the attempt's growing stream got (docs/media.md#growing-streams); only while the row is
 * processing this file. False otherwise: the attempt should stop publishing.
 */
export const writeGrowing = (db: Db, job: ProcessVideoPayload, growing: GrowingState) =>
  writeForFile(db, job, { growing }, ['processing'])

/**
 * Takes the growing stream an earlier attempt of this file left named on the row (its process was
 * killed): the row no longer names it and the caller removes the folder. Null when there is none.
 */
export async function takeGrowing(db: Db, job: ProcessVideoPayload): Promise<string | null> {
  if (job.versionId) return null
  const [row] = await db.select({ growing: videos.growing }).from(videos).where(forFile(job))
  const folder = row?.growing?.folder
  if (!folder) return null
  return (await forgetGrowing(db, job, folder)) ? folder : null
}

/** The row stops naming `folder` as its growing stream, if it still does (the caller removes it). */
export async function forgetGrowing(
  db: Db,
  job: ProcessVideoPayload,
  folder: string,
): Promise<boolean> {
  const rows = await db
    .update(videos)
    .set({ growing: null, mediaRevision: nextRevision })
    .where(and(forFile(job), sql`${videos.growing}->>'folder' = ${folder}`))
    .returning({ id: videos.id })
  return rows.length > 0
}

/**
 * Stores the finished outputs (a local folder) under a new folder and makes the video ready, in
 * one transaction that holds the row: a delete or replacement waits for it, and a start-up sweep
 * that listed any of the new folder reads the row only after it names the folder. Returns the folder the row named before (a
 * reprocess replaces one; the caller removes it), or false when the file is no longer the
 * video's (the outputs are left to the caller).
 */
export async function markReady(
  db: Db,
  store: MediaStore,
  job: ProcessVideoPayload,
  outDir: string,
  probe: MediaProbe,
  hasPreview: boolean,
  loudness: Loudness | null = null,
): Promise<{ previous: string | null } | false> {
  let published: string | undefined
  // On an object store, storing a run takes network time that must not hold the row's lock and a
  // database connection (the embedded database has only one): the folder is stored first, and
  // the sweep there leaves anything younger than a day alone until a row names it. On disk it is
  // stored inside, where the start-up sweep's share lock on the rows protects it.
  const first = store.storage.engine !== 'disk'
  try {
    if (first) published = await publishFolder(store, outDir)
    const result = await db.transaction(async (tx) => {
      if (job.versionId) {
        if (!first) published = await publishFolder(store, outDir)
        return versionReady(
          tx,
          { ...job, versionId: job.versionId },
          {
            ...outputs(probe, hasPreview, loudness),
            streamsKey: published!,
          },
        )
      }
      const [row] = await tx
        .select({ streamsKey: videos.streamsKey })
        .from(videos)
        .where(forFile(job))
        .for('update')
      if (!row) return false
      if (!first) published = await publishFolder(store, outDir)
      await tx
        .update(videos)
        .set({
          ...outputs(probe, hasPreview, loudness),
          // Ended, not forgotten: the run removes it once players on it have moved on.
          growing: sql`case when ${videos.growing} is null then null
            else ${videos.growing} || jsonb_build_object('endedAt', now()) end`,
          streamsKey: published,
          mediaRevision: nextRevision,
        })
        .where(forFile(job))
      return { previous: row.streamsKey }
    })
    if (result === false && published) {
      await removeFolders(store, [published])
      published = undefined
    }
    return result
  } catch (error) {
    // Stored but never named by a committed row.
    if (published) await removeFolders(store, [published])
    throw error
  }
}

/** What a finished run writes, on a work's row or a version's. */
const outputs = (probe: MediaProbe, hasPreview: boolean, loudness: Loudness | null) => ({
  status: 'ready' as const,
  progress: 100,
  duration: probe.duration,
  width: probe.width,
  height: probe.height,
  frameRate: probe.frameRate,
  videoCodec: probe.videoCodec,
  audioCodec: probe.audioCodec,
  bitrate: probe.bitrate === null ? null : Math.round(probe.bitrate),
  hasPreview,
  loudnessIntegrated: loudness?.integrated ?? null,
  loudnessRange: loudness?.range ?? null,
  loudnessTruePeak: loudness?.truePeak ?? null,
  processingError: null,
})

/**
 * A version's run is stored: its row is ready with the new folder, and it becomes current when
 * it is newer than the current one (an older one made ready again by a re-run stays where it
 * is). The work's row is locked first, as in every change of versions.
 */
async function versionReady(
  tx: Tx,
  job: ProcessVideoPayload & { versionId: string },
  set: ReturnType<typeof outputs> & { streamsKey: string },
): Promise<{ previous: string | null } | false> {
  const [video] = await tx
    .select({ currentVersionId: videos.currentVersionId })
    .from(videos)
    .where(eq(videos.id, job.videoId))
    .for('update')
  if (!video) return false
  const [row] = await tx
    .select({ number: videoVersions.number, streamsKey: videoVersions.streamsKey })
    .from(videoVersions)
    .where(forVersionFile(job))
    .for('update')
  if (!row) return false
  await tx.update(videoVersions).set(set).where(forVersionFile(job))
  if (row.number > (await currentNumber(tx, video.currentVersionId))) {
    await switchVersion(tx, job.videoId, job.versionId)
  }
  return { previous: row.streamsKey }
}

/**
 * Puts videos back in the queue (Retry, `media:reprocess`): queued, progress 0, no error, and a
 * job for the current file, in one transaction per video. `from` limits which states move;
 * a reprocessed video keeps serving its streams until the new ones replace them. Returns the
 * ids re-queued.
 */
export async function requeue(
  db: Db,
  queue: { enqueue: EnqueueJob },
  ids: string[],
  from: VideoStatus[],
): Promise<string[]> {
  const done: string[] = []
  for (const id of ids) {
    const moved = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(videos)
        .set({
          status: 'queued',
          progress: 0,
          processingError: null,
          mediaRevision: nextRevision,
        })
        .where(and(eq(videos.id, id), inArray(videos.status, from)))
        .returning({ videoId: videos.id, sourceKey: videos.videoKey })
      if (row) await queue.enqueue(row, tx as QueueTx)
      return !!row
    })
    if (moved) done.push(id)
  }
  return done
}
