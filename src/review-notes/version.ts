// Which version of a work a new note belongs to. Every work has one version until versions of a
// work exist; this is the one place that will ask them, so notes follow the current version then.
import { eq } from 'drizzle-orm'
import { videos } from '../../db/schema.ts'
import type { Db } from '../db/database.ts'
import { AppError } from '../errors.ts'

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** The number of the work's current version: 1 while a work has only the one. */
export async function currentVersionNumber(_tx: Tx | Db, _videoId: string): Promise<number> {
  return 1
}

export type NoteVersion = { id: string | null; number: number; duration: number | null }

/**
 * The version a note is made on: the current one when the client names none. No version has an
 * id of its own yet, so a named one is unknown.
 */
export async function noteVersion(
  tx: Tx | Db,
  videoId: string,
  versionId: string | null | undefined,
): Promise<NoteVersion> {
  if (versionId) throw new AppError('NOT_FOUND', 'Version not found', 'versionId')
  const [row] = await tx
    .select({ duration: videos.duration })
    .from(videos)
    .where(eq(videos.id, videoId))
  return {
    id: null,
    number: await currentVersionNumber(tx, videoId),
    duration: row?.duration ?? null,
  }
}
