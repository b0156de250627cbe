// Client notes on a review link (docs/review.md): a client with the link (and its password cookie,
// which the page checks) writes notes at a moment or over a range of the work; the browser holds
// a secret for its own notes, given with its first one, and only that secret edits or deletes
// them. Every read and write names the link: a note is found by its id *and* its link, so no
// link reaches another's notes. Admins see every note of a work with the link it came through,
// reply, and resolve or reopen. Limits: 500 notes a link, 60 an hour from one address (counted
// in the shared database, so every server counts the same).
import { and, asc, count, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm'
import { RateLimiterRes } from 'rate-limiter-flexible'
import {
  type ReviewLinkRow,
  type ReviewNoteRow,
  reviewLinks,
  reviewNoteReplies,
  reviewNotes,
} from '../../db/schema.ts'
import { LimitStore } from '../accounts/limit-store.ts'
import { hashToken, newToken } from '../accounts/tokens.ts'
import {
  type AdminNoteView,
  type ClientNoteView,
  NOTE_NOT_FOUND,
  type NoteReplyView,
  reviewNoteLimits,
  timecode,
} from '../contract/review-note.ts'
import {
  type CreateNoteInput,
  createNoteSchema,
  type EditNoteInput,
  editNoteSchema,
  type ListNotesInput,
  listNotesSchema,
} from '../contract/review-note-input.ts'
import { watchNoteChanges } from '../db/changes.ts'
import type { Db } from '../db/database.ts'
import { AppError, TryLater } from '../errors.ts'
import { addressGroup } from '../http/client-ip.ts'
import { stateOf } from '../review-links/links.ts'
import type { VideosService } from '../videos/index.ts'
import { noteVersion, VERSION_DELETED, versionOfNote } from './version.ts'

/** A device's secret as the client sends it: 43 base64url characters (256 bits). */
export const DEVICE_PATTERN = /^[A-Za-z0-9_-]{43}$/
export const tooManyOnLink = `This link already holds ${reviewNoteLimits.perLink} notes, the most it may`
const NOT_YOURS = 'Only the device that wrote a note may change it'

export function tooManyFromAddress(retryMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryMs / 60_000))
  return `Too many notes from this address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

const seconds = (ms: number | null) => (ms === null ? null : ms / 1000)
const millis = (s: number) => Math.round(s * 1000)

function clientView(
  row: ReviewNoteRow,
  replies: NoteReplyView[],
  deviceHash: string | null,
): ClientNoteView {
  return {
    id: row.id,
    versionId: row.versionId,
    versionNumber: row.versionNumber,
    at: row.atMs / 1000,
    until: seconds(row.untilMs),
    name: row.name,
    text: row.text,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    resolved: row.resolvedAt !== null,
    mine: deviceHash !== null && row.deviceHash === deviceHash,
    replies,
  }
}

/** `at`/`until` (seconds) within a work of `duration` seconds. */
function checkTimes(at: number, until: number | null, duration: number | null): void {
  // A work is probed before its link plays it; a note before that has nothing to point at.
  if (duration === null) throw new AppError('CONFLICT', 'This work cannot take notes yet')
  // The player's clock may run a frame past the duration the probe read.
  const end = duration + 0.1
  if (at > end) {
    throw new AppError(
      'BAD_REQUEST',
      `Time must be within the work (0:00–${timecode(duration)})`,
      'at',
    )
  }
  if (until !== null && until > end) {
    throw new AppError(
      'BAD_REQUEST',
      `End must be within the work (0:00–${timecode(duration)})`,
      'until',
    )
  }
}

export function createReviewNotesService(deps: {
  db: Db
  videos: Pick<VideosService, 'get'>
  /** Told of a new note, after its commit (the maker's e-mail digest). */
  noted?: (linkId: string) => void
}) {
  const { db } = deps
  // Moves with every change to the notes here, and (through `watch`) with other servers' ones.
  let version = 0
  const changed = () => {
    version++
  }
  const limitStore = new LimitStore(db)
  const perAddress = limitStore.counter('review-notes', reviewNoteLimits.perAddressHour, 60 * 60)

  async function repliesOf(noteIds: string[]): Promise<Map<string, NoteReplyView[]>> {
    const byNote = new Map<string, NoteReplyView[]>()
    if (noteIds.length === 0) return byNote
    const rows = await db
      .select()
      .from(reviewNoteReplies)
      .where(inArray(reviewNoteReplies.noteId, noteIds))
      .orderBy(asc(reviewNoteReplies.createdAt), asc(reviewNoteReplies.id))
    for (const row of rows) {
      const list = byNote.get(row.noteId) ?? []
      list.push({
        id: row.id,
        text: row.text,
        author: row.author,
        createdAt: row.createdAt.toISOString(),
      })
      byNote.set(row.noteId, list)
    }
    return byNote
  }

  /** One note of this link; 404 for any other link's note or an id that is not one. */
  async function ownNote(link: ReviewLinkRow, noteId: string): Promise<ReviewNoteRow> {
    const id = noteId.toLowerCase()
    const [row] = /^[0-9a-f-]{36}$/.test(id)
      ? await db
          .select()
          .from(reviewNotes)
          .where(and(eq(reviewNotes.id, id), eq(reviewNotes.linkId, link.id)))
      : []
    if (!row) throw new AppError('NOT_FOUND', NOTE_NOT_FOUND)
    return row
  }

  /** A device secret the client sent: absent, or well formed (else 400). */
  function deviceHashOf(device: string | null | undefined): string | null {
    if (!device) return null
    if (!DEVICE_PATTERN.test(device)) throw new AppError('BAD_REQUEST', 'Unknown device')
    return hashToken(device)
  }

  function mustBeMine(row: ReviewNoteRow, device: string | null | undefined): void {
    const hash = deviceHashOf(device)
    if (hash === null || hash !== row.deviceHash) throw new AppError('FORBIDDEN', NOT_YOURS)
  }

  async function withReplies(row: ReviewNoteRow, device: string | null) {
    return clientView(row, (await repliesOf([row.id])).get(row.id) ?? [], device)
  }

  async function adminViews(where: SQL | undefined): Promise<AdminNoteView[]> {
    const rows = await db
      .select({
        note: reviewNotes,
        link: {
          id: reviewLinks.id,
          note: reviewLinks.note,
          revokedAt: reviewLinks.revokedAt,
          expiresAt: reviewLinks.expiresAt,
        },
      })
      .from(reviewNotes)
      .innerJoin(reviewLinks, eq(reviewLinks.id, reviewNotes.linkId))
      .where(where)
      .orderBy(asc(reviewNotes.atMs), asc(reviewNotes.createdAt), asc(reviewNotes.id))
    const replies = await repliesOf(rows.map((r) => r.note.id))
    return rows.map(({ note, link }) => {
      const { mine: _, ...view } = clientView(note, replies.get(note.id) ?? [], null)
      return {
        ...view,
        videoId: note.videoId,
        link: { id: link.id, note: link.note, state: stateOf(link) },
        resolvedAt: note.resolvedAt?.toISOString() ?? null,
        resolvedBy: note.resolvedBy,
      }
    })
  }

  async function adminNote(videoId: string, noteId: string): Promise<AdminNoteView> {
    const [view] = await adminViews(
      and(eq(reviewNotes.videoId, videoId), eq(reviewNotes.id, noteId)),
    )
    if (!view) throw new AppError('NOT_FOUND', NOTE_NOT_FOUND)
    return view
  }

  /** Open notes per work, for the works named (absent: none). */
  async function openCounts(videoIds: string[]): Promise<Map<string, number>> {
    if (videoIds.length === 0) return new Map()
    const rows = await db
      .select({ videoId: reviewNotes.videoId, open: count() })
      .from(reviewNotes)
      .where(and(inArray(reviewNotes.videoId, videoIds), isNull(reviewNotes.resolvedAt)))
      .groupBy(reviewNotes.videoId)
    return new Map(rows.map((r) => [r.videoId, r.open]))
  }

  return {
    /** A counter that moves with every change to the notes (admins' answers count them). */
    version: () => version,

    /** Follows other servers' notes (within about a second); returns the stop. */
    watch: () => watchNoteChanges(db, changed),

    /** The link's notes in time order, each marked `mine` for the device that sent `device`. */
    async listForLink(link: ReviewLinkRow, device: string | null): Promise<ClientNoteView[]> {
      const hash = deviceHashOf(device)
      const rows = await db
        .select()
        .from(reviewNotes)
        .where(eq(reviewNotes.linkId, link.id))
        .orderBy(asc(reviewNotes.atMs), asc(reviewNotes.createdAt), asc(reviewNotes.id))
      const replies = await repliesOf(rows.map((r) => r.id))
      return rows.map((row) => clientView(row, replies.get(row.id) ?? [], hash))
    },

    /**
     * A new note through `link` from `address`. A device without a secret gets one here, once:
     * `device` in the answer is the secret to keep (null when the client sent its own).
     */
    async create(
      link: ReviewLinkRow,
      input: CreateNoteInput | unknown,
      device: string | null,
      address: string,
    ): Promise<{ note: ClientNoteView; device: string | null }> {
      const parsed = createNoteSchema.parse(input)
      let hash = deviceHashOf(device)
      const given = hash === null ? newToken() : null
      if (given) hash = hashToken(given)
      const version = await noteVersion(db, link.videoId, parsed.versionId)
      checkTimes(parsed.at, parsed.until ?? null, version.duration)
      const [{ held } = { held: 0 }] = await db
        .select({ held: count() })
        .from(reviewNotes)
        .where(eq(reviewNotes.linkId, link.id))
      if (held >= reviewNoteLimits.perLink) throw new AppError('CONFLICT', tooManyOnLink)
      // The counters' expired rows go now and then, as the sign-in limits' do.
      await limitStore.sweepIfDue()
      try {
        await perAddress.consume(addressGroup(address))
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e
        const retryMs = Math.max(e.msBeforeNext, 1000)
        throw new TryLater(tooManyFromAddress(retryMs), Math.ceil(retryMs / 1000))
      }
      const row = await db.transaction(async (tx) => {
        // One writer per link at a time, so the cap holds against notes sent at once.
        await tx.execute(
          sql`select 1 from ${reviewLinks} where ${reviewLinks.id} = ${link.id} for update`,
        )
        const [again = { held: 0 }] = await tx
          .select({ held: count() })
          .from(reviewNotes)
          .where(eq(reviewNotes.linkId, link.id))
        if (again.held >= reviewNoteLimits.perLink) throw new AppError('CONFLICT', tooManyOnLink)
        const [inserted] = await tx
          .insert(reviewNotes)
          .values({
            linkId: link.id,
            videoId: link.videoId,
            versionId: version.id,
            versionNumber: version.number,
            atMs: millis(parsed.at),
            untilMs: parsed.until == null ? null : millis(parsed.until),
            name: parsed.name,
            text: parsed.text,
            deviceHash: hash!,
          })
          .returning()
        return inserted!
      })
      changed()
      deps.noted?.(link.id)
      return { note: clientView(row, [], hash), device: given }
    },

    /** Changes the device's own note (text, time); another device's is 403, another link's 404. */
    async edit(
      link: ReviewLinkRow,
      noteId: string,
      input: EditNoteInput | unknown,
      device: string | null,
    ): Promise<ClientNoteView> {
      const parsed = editNoteSchema.parse(input)
      const row = await ownNote(link, noteId)
      mustBeMine(row, device)
      const at = parsed.at ?? row.atMs / 1000
      const until = parsed.until === undefined ? seconds(row.untilMs) : parsed.until
      if (until !== null && until <= at) {
        throw new AppError('BAD_REQUEST', 'The end must be after the start', 'until')
      }
      const timesChange = parsed.at !== undefined || parsed.until !== undefined
      if (timesChange) {
        // Within the length of the version the note is on, whichever is current now.
        const version = await versionOfNote(db, link.videoId, row)
        if (!version) throw new AppError('CONFLICT', VERSION_DELETED, 'at')
        checkTimes(at, until, version.duration)
      }
      const [updated] = await db
        .update(reviewNotes)
        .set({
          atMs: millis(at),
          untilMs: until === null ? null : millis(until),
          ...(parsed.text === undefined ? {} : { text: parsed.text }),
          updatedAt: sql`now()`,
        })
        .where(eq(reviewNotes.id, row.id))
        .returning()
      if (!updated) throw new AppError('NOT_FOUND', NOTE_NOT_FOUND)
      changed()
      return withReplies(updated, hashToken(device!))
    },

    async remove(link: ReviewLinkRow, noteId: string, device: string | null): Promise<void> {
      const row = await ownNote(link, noteId)
      mustBeMine(row, device)
      await db.delete(reviewNotes).where(eq(reviewNotes.id, row.id))
      changed()
    },

    /** Every note of a work, whichever link it came through; 404 for an unknown work. */
    async list(input: ListNotesInput): Promise<AdminNoteView[]> {
      const parsed = listNotesSchema.parse(input)
      const video = await deps.videos.get(parsed.videoId)
      return adminViews(
        and(
          eq(reviewNotes.videoId, video._id),
          parsed.state === 'open' ? isNull(reviewNotes.resolvedAt) : undefined,
          parsed.state === 'resolved' ? isNotNull(reviewNotes.resolvedAt) : undefined,
          parsed.version === undefined ? undefined : eq(reviewNotes.versionNumber, parsed.version),
        ),
      )
    },

    /** One note of the work as admins see it; 404 when it is not that work's. */
    get: adminNote,

    async reply(
      input: { videoId: string; noteId: string; text: string },
      author: string,
    ): Promise<AdminNoteView> {
      const note = await adminNote(input.videoId, input.noteId)
      await db.insert(reviewNoteReplies).values({ noteId: note.id, text: input.text, author })
      return adminNote(input.videoId, input.noteId)
    },

    /** `changed`: false when the note already was so (nothing done). */
    async setResolved(
      input: { videoId: string; noteId: string; resolved: boolean },
      by: string,
    ): Promise<{ note: AdminNoteView; changed: boolean }> {
      const note = await adminNote(input.videoId, input.noteId)
      const updated = await db
        .update(reviewNotes)
        .set(
          input.resolved
            ? { resolvedAt: sql`now()`, resolvedBy: by }
            : { resolvedAt: null, resolvedBy: null },
        )
        .where(
          and(
            eq(reviewNotes.id, note.id),
            input.resolved ? isNull(reviewNotes.resolvedAt) : isNotNull(reviewNotes.resolvedAt),
          ),
        )
        .returning({ id: reviewNotes.id })
      if (updated.length > 0) changed()
      return { note: await adminNote(input.videoId, input.noteId), changed: updated.length > 0 }
    },

    openCounts,

    /** Admins' video answers with each work's `openNotes`. */
    async withOpenNotes<V extends { _id: string }>(
      videos: V[],
    ): Promise<(V & { openNotes: number })[]> {
      const counts = await openCounts(videos.map((v) => v._id))
      return videos.map((v) => ({ ...v, openNotes: counts.get(v._id) ?? 0 }))
    },
  }
}

export type ReviewNotesService = ReturnType<typeof createReviewNotesService>
