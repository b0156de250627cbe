// The e-mail that tells a link's maker of new notes: at most one per link per window (10
// minutes), listing every note not mailed yet with its timecode and the dashboard's review page.
// A window is claimed in the shared database before anything is sent, so servers sharing it never
// send a link's digest twice; a note that arrives inside a window waits for the next round (each
// server runs one every half minute, and one right after a new note). Plain text only: what a
// client typed is never read as markup.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import { admins, reviewLinks, reviewNoteDigests, reviewNotes, videos } from '../../db/schema.ts'
import { noteTime } from '../contract/review-note.ts'
import type { Db } from '../db/database.ts'
import { logUnexpected } from '../db/errors.ts'
import type { Mailer } from '../mail/mailer.ts'

/** A link deleted (with its work) between the round's read and its claim: nothing to send. */
function isForeignKeyViolation(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Object && depth < 4; depth++) {
    if ((e as { code?: unknown }).code === '23503') return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

export const DIGEST_WINDOW_MS = 10 * 60_000
export const DIGEST_ROUND_MS = 30_000

export function createNoteDigests(deps: {
  db: Db
  mailer: Mailer
  publicUrl: string
  windowMs?: number
}) {
  const { db } = deps
  const base = deps.publicUrl.replace(/\/+$/, '')
  const windowMs = deps.windowMs ?? DIGEST_WINDOW_MS
  let running: Promise<number> | null = null

  /** Takes the link's window when its last digest is a window old; false when it is not yet. */
  async function claim(linkId: string, now: Date): Promise<boolean> {
    const since = new Date(now.getTime() - windowMs)
    const rows = await db
      .insert(reviewNoteDigests)
      .values({ linkId, sentAt: now })
      .onConflictDoUpdate({
        target: reviewNoteDigests.linkId,
        set: { sentAt: now },
        setWhere: sql`${reviewNoteDigests.sentAt} <= ${since.toISOString()}::timestamptz`,
      })
      .returning({ linkId: reviewNoteDigests.linkId })
    return rows.length > 0
  }

  async function sendFor(linkId: string, now: Date): Promise<boolean> {
    const [link] = await db
      .select({
        id: reviewLinks.id,
        note: reviewLinks.note,
        createdBy: reviewLinks.createdBy,
        videoId: reviewLinks.videoId,
        title: videos.title,
        maker: admins.email,
      })
      .from(reviewLinks)
      .innerJoin(videos, eq(videos.id, reviewLinks.videoId))
      // The maker is mailed only while an admin: a deleted admin's address gets nothing.
      .leftJoin(admins, sql`lower(${admins.email}) = lower(${reviewLinks.createdBy})`)
      .where(eq(reviewLinks.id, linkId))
    // Gone with its work meanwhile: its notes went with it.
    if (!link) return false
    const claimed = await claim(linkId, now).catch((error: unknown) => {
      if (isForeignKeyViolation(error)) return false
      throw error
    })
    if (!claimed) return false
    const notes = await db
      .update(reviewNotes)
      .set({ digestedAt: now })
      .where(and(eq(reviewNotes.linkId, linkId), isNull(reviewNotes.digestedAt)))
      .returning()
    if (notes.length === 0 || !link.maker) return false
    notes.sort((a, b) => a.atMs - b.atMs || a.createdAt.getTime() - b.createdAt.getTime())
    const reviewUrl = `${base}/dashboard/videos/${link.videoId}/review`
    const lines = notes.map((n) => {
      const time = noteTime({
        at: n.atMs / 1000,
        until: n.untilMs === null ? null : n.untilMs / 1000,
      })
      return `${time}  ${n.name} (version ${n.versionNumber}):\n${n.text.replace(/^/gm, '    ')}`
    })
    const count = `${notes.length} new note${notes.length === 1 ? '' : 's'}`
    try {
      await deps.mailer.send({
        to: link.maker,
        subject: `${count} on “${link.title}”`,
        text: [
          `${count} on “${link.title}”, through the review link${link.note ? ` “${link.note}”` : ''}:`,
          '',
          ...lines.flatMap((line) => [line, '']),
          `Reply and resolve them on the review page: ${reviewUrl}`,
        ].join('\n'),
        link: reviewUrl,
      })
      return true
    } catch (error) {
      // Not lost: the notes wait for the next window's digest.
      logUnexpected('review notes: digest', error)
      await db
        .update(reviewNotes)
        .set({ digestedAt: null })
        .where(
          inArray(
            reviewNotes.id,
            notes.map((n) => n.id),
          ),
        )
      return false
    }
  }

  /** One round: every link with notes not mailed yet whose window is open; answers how many sent. */
  async function round(now = new Date()): Promise<number> {
    const links = await db
      .selectDistinct({ linkId: reviewNotes.linkId })
      .from(reviewNotes)
      .where(isNull(reviewNotes.digestedAt))
      .orderBy(asc(reviewNotes.linkId))
    let sent = 0
    for (const { linkId } of links) {
      // One link's failure is logged and leaves the others' digests going.
      const done = await sendFor(linkId, now).catch((error: unknown) => {
        logUnexpected('review notes: digest', error)
        return false
      })
      if (done) sent++
    }
    return sent
  }

  /** One round now (rounds never overlap in one process); answers how many digests went out. */
  function send(now?: Date): Promise<number> {
    running ??= round(now).finally(() => {
      running = null
    })
    return running
  }

  return {
    send,

    /**
     * Rounds every `everyMs` without keeping the process alive; returns the stop, which waits for
     * a round under way (the database closes after it).
     */
    start(everyMs = DIGEST_ROUND_MS): () => Promise<void> {
      const timer = setInterval(() => {
        send().catch((error) => logUnexpected('review notes: digest round', error))
      }, everyMs)
      timer.unref()
      return async () => {
        clearInterval(timer)
        await running?.catch(() => {})
      }
    },
  }
}

export type NoteDigests = ReturnType<typeof createNoteDigests>
