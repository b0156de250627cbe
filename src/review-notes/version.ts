// Which version of a work a note belongs to: the one the client names, or the work's current
// version. The current version's media (and so its length) are the work's own row; any other
// version keeps them on its own row (src/videos/versions.ts).
import { and, eq } from 'drizzle-orm'
import { videos, videoVersions } from '../../db/schema.ts'
import type { Db } from '../db/database.ts'
import { AppError } from '../errors.ts'

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

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
    })
    .from(videoVersions)
    .where(and(eq(videoVersions.id, wanted), eq(videoVersions.videoId, videoId)))
  if (!version) throw new AppError('NOT_FOUND', 'Version not found', 'versionId')
  const duration = version.id === work.current ? work.duration : version.duration
  return { id: version.id, number: version.number, duration }
}
