// A work's caption tracks: taking a finished upload of kind `captions` (checked and converted to
// WebVTT, stored under a new name), adding or replacing the track of a language, removing one.
// The integrity order is the videos' own: the file is stored before its row commits, the row's
// change commits, then the upload is released and a replaced file removed. A crash in between
// leaves the upload usable or the change made; the start-up sweep removes files no row names.
import { and, count, eq } from 'drizzle-orm'
import { videoCaptions, videos } from '../../db/schema.ts'
import { CaptionsError, CaptionsTooLarge } from '../captions/index.ts'
import { toWebVttOffThread } from '../captions/thread.ts'
import {
  CAPTIONS_MAX_BYTES,
  CAPTIONS_PER_VIDEO_MAX,
  CAPTIONS_UPLOAD_KIND,
  type CaptionTrack,
  captionsMessages,
} from '../contract/captions.ts'
import { msg } from '../contract/messages.ts'
import type { Db } from '../db/database.ts'
import { AppError, type AppErrorCode } from '../errors.ts'
import { keyOfName, newName } from '../storage/layout.ts'
import { removeNames } from '../storage/store.ts'
import { mayHaveCommitted, UPLOAD_BUSY, UPLOAD_GONE } from '../uploads/intake.ts'
import type { VideosContext } from './context.ts'
import { type VideoView, type ViewRow, viewColumns } from './views.ts'

/** A folder's caption tracks (`key`: the stored WebVTT's name) and its video's length. */
export type FolderCaptions = {
  duration: number
  tracks: { language: string; label: string; key: string }[]
}
/** The tracks of a stream folder; undefined when it has none. */
export type CaptionsLookup = (folder: string) => Promise<FolderCaptions | undefined>

/** The field refusals name: the REST form's file field, the tRPC input's upload. */
const FIELD = 'captions'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** A track given with a change: a finished upload of kind `captions`. */
export type CaptionsInput = { upload: string; language: string; label: string }

/** A caption file stored for a change that has not committed yet. */
export type TakenCaptions = CaptionsInput & { name: string }

export function createCaptionCommands(ctx: VideosContext) {
  const { db, store, uploads, reads, adminView, find } = ctx

  /** Checks, converts and stores one finished upload; the caller has claimed it. */
  async function store1(ownerId: string, input: CaptionsInput): Promise<TakenCaptions> {
    const found = await uploads.finished(input.upload, ownerId)
    if (!found.ok) {
      const message =
        found.reason === 'incomplete' ? 'The file has not finished uploading' : UPLOAD_GONE
      throw new AppError('BAD_REQUEST', message, FIELD)
    }
    const { upload } = found
    if (upload.kind !== CAPTIONS_UPLOAD_KIND) {
      throw new AppError('BAD_REQUEST', captionsMessages.wrongType, FIELD)
    }
    if (upload.size > CAPTIONS_MAX_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', captionsMessages.tooLarge, FIELD)
    }
    let text: string
    try {
      text = (await toWebVttOffThread(await upload.bytes())).text
    } catch (error) {
      if (error instanceof CaptionsTooLarge) {
        throw new AppError('PAYLOAD_TOO_LARGE', captionsMessages.tooLarge, FIELD)
      }
      if (error instanceof CaptionsError) throw new AppError('BAD_REQUEST', error.message, FIELD)
      if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') {
        throw new AppError('BAD_REQUEST', UPLOAD_GONE, FIELD)
      }
      throw error
    }
    const name = newName('text/vtt')
    await store.storage.write(keyOfName(name)!, new Response(text).body!, { type: 'text/vtt' })
    return { ...input, name }
  }

  /**
   * Runs `write` with the given caption uploads checked and stored: claimed for this change
   * alone, each file stored under a new name; the new files go again if `write` fails, and the
   * uploads are released once it has committed.
   */
  async function withCaptions<T>(
    ownerId: string,
    inputs: readonly CaptionsInput[],
    write: (taken: TakenCaptions[]) => Promise<T>,
  ): Promise<T> {
    const held: string[] = []
    const taken: TakenCaptions[] = []
    try {
      for (const input of inputs) {
        if (!uploads.claim(input.upload)) throw new AppError('CONFLICT', UPLOAD_BUSY, FIELD)
        held.push(input.upload)
      }
      try {
        for (const [index, input] of inputs.entries()) {
          taken.push(
            await store1(ownerId, input).catch((error) => refusedAt(error, index, inputs.length)),
          )
        }
      } catch (error) {
        await drop(taken)
        throw error
      }
      let result: T
      try {
        result = await write(taken)
      } catch (error) {
        // A lost connection may have lost only the answer to a commit: then the files stay, and
        // the start-up sweep removes them if no row names them.
        if (!mayHaveCommitted(error)) await drop(taken)
        throw error
      }
      for (const input of inputs) {
        await uploads
          .release(input.upload)
          .catch((error) => console.error('[media] could not release', input.upload, error))
      }
      return result
    } finally {
      for (const id of held) uploads.unclaim(id)
    }
  }

  /**
   * A refusal of one file among several names its track (`captions.2.upload`), so a form shows
   * it on that track's row; with one track, `captions` is already that track.
   */
  const refusedAt = (error: unknown, index: number, of: number): never => {
    if (error instanceof AppError && error.field === FIELD && of > 1) {
      throw new AppError(error.code as AppErrorCode, error.message, `${FIELD}.${index}.upload`)
    }
    throw error
  }

  const drop = (taken: TakenCaptions[]) =>
    removeNames(
      store,
      taken.map((t) => t.name),
    ).catch((error) => console.error('[media] could not drop captions', error))

  /**
   * Writes the tracks of a video whose row `tx` holds locked: each replaces the one of its
   * language. Returns the names of the files replaced (to remove after commit).
   */
  async function writeTracks(tx: Tx, videoId: string, taken: TakenCaptions[]): Promise<string[]> {
    const replaced: string[] = []
    for (const track of taken) {
      const [old] = await tx
        .select({ key: videoCaptions.key })
        .from(videoCaptions)
        .where(and(eq(videoCaptions.videoId, videoId), eq(videoCaptions.language, track.language)))
      if (old) {
        replaced.push(old.key)
        await tx
          .update(videoCaptions)
          .set({ label: track.label, key: track.name, createdAt: new Date() })
          .where(
            and(eq(videoCaptions.videoId, videoId), eq(videoCaptions.language, track.language)),
          )
      } else {
        const [{ tracks } = { tracks: 0 }] = await tx
          .select({ tracks: count() })
          .from(videoCaptions)
          .where(eq(videoCaptions.videoId, videoId))
        if (tracks >= CAPTIONS_PER_VIDEO_MAX) {
          throw new AppError('BAD_REQUEST', captionsMessages.tooMany, FIELD)
        }
        await tx
          .insert(videoCaptions)
          .values({ videoId, language: track.language, label: track.label, key: track.name })
      }
    }
    return replaced
  }

  /** Locks the video's row for a change of its tracks and marks it edited; 404 when gone. */
  async function lockEdited(tx: Tx, id: string): Promise<void> {
    const [row] = await tx
      .update(videos)
      .set({ updatedAt: new Date() })
      .where(eq(videos.id, id))
      .returning({ id: videos.id })
    if (!row) throw new AppError('NOT_FOUND', msg.videoNotFound)
  }

  /** The row as it commits; its view is made once the transaction has ended. */
  async function rowOf(tx: Tx, id: string): Promise<ViewRow> {
    const [row] = await tx.select(viewColumns).from(videos).where(eq(videos.id, id))
    if (!row) throw new AppError('NOT_FOUND', msg.videoNotFound)
    return row
  }

  return {
    withCaptions,
    writeTracks,

    /** Adds a caption track, or replaces the one of its language (label and file). */
    async addCaptions(
      ownerId: string,
      input: CaptionsInput & { id: string },
    ): Promise<{ caption: CaptionTrack; video: VideoView }> {
      const current = await find(input.id)
      const { replaced, row } = await withCaptions(ownerId, [input], (taken) =>
        db.transaction(async (tx) => {
          await lockEdited(tx, current.id)
          const replaced = await writeTracks(tx, current.id, taken)
          return { replaced, row: await rowOf(tx, current.id) }
        }),
      )
      reads.invalidate()
      await removeNames(store, replaced)
      const video = adminView(row)
      const caption = video.captions.find((track) => track.language === input.language)!
      return { caption, video }
    },

    /** Removes the track of a language; 404 (captionsMessages.notFound) when there is none. */
    async removeCaptions(
      id: string,
      language: string,
    ): Promise<{ removed: { language: string; label: string }; video: VideoView }> {
      const current = await find(id)
      const { gone, row } = await db.transaction(async (tx) => {
        await lockEdited(tx, current.id)
        const [gone] = await tx
          .delete(videoCaptions)
          .where(and(eq(videoCaptions.videoId, current.id), eq(videoCaptions.language, language)))
          .returning({
            language: videoCaptions.language,
            label: videoCaptions.label,
            key: videoCaptions.key,
          })
        if (!gone) throw new AppError('NOT_FOUND', captionsMessages.notFound, 'language')
        return { gone, row: await rowOf(tx, current.id) }
      })
      reads.invalidate()
      await removeNames(store, [gone.key])
      return { removed: { language: gone.language, label: gone.label }, video: adminView(row) }
    },
  }
}
