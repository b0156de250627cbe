// Making a version current, inside the caller's transaction: the outgoing version's master, media
// and caption tracks move from the work's row to its own row, and the incoming one's the other
// way. Every reader (the public page, the embed, review links, /media's access) reads only the
// work's row, so the swap is one commit: before it they play the old cut, after it the new one,
// at the same addresses. The pipeline calls it when a newer version is ready; an admin's "Make
// current" calls it for an older one.
import { and, eq, sql } from 'drizzle-orm'
import { videoCaptions, videos, videoVersions } from '../../db/schema.ts'
import type { Db } from '../db/database.ts'
import type { StoredCaption } from './views.ts'

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Why an outgoing version that had not finished processing is not ready (its job stops). */
export const STOPPED_BY_SWITCH =
  'Processing stopped when another version became current. Delete this version, or upload it again.'

/** What a version keeps while it is not current; null columns on the current one's row. */
const emptied = {
  masterKey: null,
  masterType: null,
  masterSize: null,
  streamsKey: null,
  captions: [],
} as const

/**
 * Makes `versionId` the work's current version. False (and nothing changed) when the work is
 * gone, the version is not the work's, is already current, or is not ready. The caller holds
 * nothing yet: the work's row is locked here, before the versions, as every writer of both does.
 */
export async function switchVersion(tx: Tx, videoId: string, versionId: string): Promise<boolean> {
  const [video] = await tx.select().from(videos).where(eq(videos.id, videoId)).for('update')
  if (!video || video.currentVersionId === versionId) return false
  const [target] = await tx
    .select()
    .from(videoVersions)
    .where(and(eq(videoVersions.id, versionId), eq(videoVersions.videoId, videoId)))
    .for('update')
  if (target?.status !== 'ready' || !target.masterKey) return false

  const captions: StoredCaption[] = await tx
    .select({
      language: videoCaptions.language,
      label: videoCaptions.label,
      key: videoCaptions.key,
    })
    .from(videoCaptions)
    .where(eq(videoCaptions.videoId, videoId))
  // A version that was still processing cannot finish: its job's writes are guarded by the
  // work's file, which is about to change.
  const settled = video.status === 'ready' || video.status === 'failed'
  if (video.currentVersionId) {
    await tx
      .update(videoVersions)
      .set({
        masterKey: video.videoKey,
        masterType: video.videoType,
        masterSize: video.videoSize,
        status: settled ? video.status : 'failed',
        progress: settled ? video.progress : 0,
        processingError: settled ? video.processingError : STOPPED_BY_SWITCH,
        duration: video.duration,
        width: video.width,
        height: video.height,
        frameRate: video.frameRate,
        videoCodec: video.videoCodec,
        audioCodec: video.audioCodec,
        bitrate: video.bitrate,
        loudnessIntegrated: video.loudnessIntegrated,
        loudnessRange: video.loudnessRange,
        loudnessTruePeak: video.loudnessTruePeak,
        streamsKey: video.streamsKey,
        hasPreview: video.hasPreview,
        captions,
      })
      .where(eq(videoVersions.id, video.currentVersionId))
  }
  await tx.delete(videoCaptions).where(eq(videoCaptions.videoId, videoId))
  const incoming = (target.captions as StoredCaption[] | null) ?? []
  if (incoming.length > 0) {
    await tx.insert(videoCaptions).values(incoming.map((track) => ({ videoId, ...track })))
  }
  await tx
    .update(videos)
    .set({
      videoKey: target.masterKey,
      videoType: target.masterType!,
      videoSize: target.masterSize!,
      status: 'ready',
      progress: 100,
      processingError: null,
      duration: target.duration,
      width: target.width,
      height: target.height,
      frameRate: target.frameRate,
      videoCodec: target.videoCodec,
      audioCodec: target.audioCodec,
      bitrate: target.bitrate,
      loudnessIntegrated: target.loudnessIntegrated,
      loudnessRange: target.loudnessRange,
      loudnessTruePeak: target.loudnessTruePeak,
      streamsKey: target.streamsKey,
      hasPreview: target.hasPreview,
      currentVersionId: target.id,
      mediaRevision: sql`nextval('video_media_revision')`,
    })
    .where(eq(videos.id, videoId))
  await tx.update(videoVersions).set(emptied).where(eq(videoVersions.id, target.id))
  return true
}

/** The version number a work's current version has (1 for a work made before versions). */
export async function currentNumber(tx: Tx, currentVersionId: string | null): Promise<number> {
  if (!currentVersionId) return 0
  const [row] = await tx
    .select({ number: videoVersions.number })
    .from(videoVersions)
    .where(eq(videoVersions.id, currentVersionId))
  return row?.number ?? 0
}
