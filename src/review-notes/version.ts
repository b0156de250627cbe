// Which version of a work a note belongs to: the one the client names, or the work's current
// version. The current version's media (and so its length) are the work's own row; any other
// version keeps them on its own row (src/videos/versions.ts).
import { and, eq } from 'drizzle-orm'
import { videos, videoVersions } from '../../db/schema.ts'
import type { Db } from '../db/database.ts'
import { AppError } from '../errors.ts'

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export const VERSION_NOT_PLAYABLE = 'This version cannot take notes: it cannot be played'
/** Why a note on a deleted version keeps its times. */
export const VERSION_DELETED =
  'The version this note was made on was deleted: only its text can change'

export type NoteVersion = { id: string | null; number: number; duration: number | null }

/** The version a note is made on: the current one when the client names none. 404 for another work's. */
export async function noteVersion(
  tx: Tx | Db,
  videoId: string,
  versionId: string | null | undefined,
): Promise<NoteVersion> {
  const [work] = await tx
    .select({ duration: videos.duration, current: videos.currentVersionId })
    .from(videos)
    .where(eq(videos.id, videoId))
  if (!work) throw new AppError('NOT_FOUND', 'Video not found')
  const wanted = versionId ?? work.current
  if (!wanted) return { id: null, number: 1, duration: work.duration }
  const [version] = await tx
    .select({
      id: videoVersions.id,
      number: videoVersions.number,
      duration: videoVersions.duration,
      status: videoVersions.status,
      streamsKey: videoVersions.streamsKey,
    })
    .from(videoVersions)
    .where(and(eq(videoVersions.id, wanted), eq(videoVersions.videoId, videoId)))
  if (!version) throw new AppError('NOT_FOUND', 'Version not found', 'versionId')
  if (version.id === work.current) {
    return { id: version.id, number: version.number, duration: work.duration }
  }
  // Another version takes notes only while a link can play it: ready, with its streams.
  if (version.status !== 'ready' || !version.streamsKey) {
    throw new AppError('CONFLICT', VERSION_NOT_PLAYABLE, 'versionId')
  }
  return { id: version.id, number: version.number, duration: version.duration }
}

/**
 * The version a note was made on, for a change of its times: its own length, not the current
 * version's. Null once that version is deleted (the note keeps its number; its times stay).
 */
export async function versionOfNote(
  tx: Tx | Db,
  videoId: string,
  note: { versionId: string | null },
): Promise<NoteVersion | null> {
  if (note.versionId === null) return null
  try {
    return await noteVersion(tx, videoId, note.versionId)
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null
    throw error
  }
}
