// What the server accepts of notes, checked with zod: a client's note and its edits, and the
// studio's list, reply and resolve calls (docs/review.md). Apart from review-note.ts so that the
// public review page, which needs only the notes' plain rules, never loads zod.
import { z } from 'zod'
import { uuidSchema } from './id.ts'
import { msg } from './messages.ts'
import { NOTE_NOT_FOUND, noteStates, reviewNoteLimits } from './review-note.ts'
import { plainText } from './text.ts'

export const noteTextSchema = plainText(z.string().trim(), 'Note', { multiline: true })
  .min(1, 'Note is required')
  .max(reviewNoteLimits.textMax, `Note must be at most ${reviewNoteLimits.textMax} characters`)

export const noteNameSchema = plainText(z.string().trim(), 'Name')
  .min(1, 'Name is required')
  .max(reviewNoteLimits.nameMax, `Name must be at most ${reviewNoteLimits.nameMax} characters`)

/** Seconds into the work; the work's own duration is checked by the server. */
const secondsSchema = (label: string) =>
  z
    .number({ error: `${label} must be a time in seconds` })
    .finite(`${label} must be a time in seconds`)
    .min(0, `${label} must be 0:00 or later`)

const untilAfterAt = (v: { at?: number; until?: number | null }) =>
  v.until == null || v.at === undefined || v.until > v.at
const untilMessage = { message: 'The end must be after the start', path: ['until'] }

/** A client's new note: at a moment, or over a range (`until`). */
export const createNoteSchema = z
  .object({
    versionId: uuidSchema('Version not found').nullish(),
    at: secondsSchema('Time'),
    until: secondsSchema('End').nullish(),
    text: noteTextSchema,
    name: noteNameSchema,
  })
  .refine(untilAfterAt, untilMessage)
export type CreateNoteInput = z.input<typeof createNoteSchema>

/** What a client may change of their own note; `until: null` makes a range a moment again. */
export const editNoteSchema = z
  .object({
    at: secondsSchema('Time').optional(),
    until: secondsSchema('End').nullish(),
    text: noteTextSchema.optional(),
  })
  .refine(untilAfterAt, untilMessage)
export type EditNoteInput = z.input<typeof editNoteSchema>

export const listNotesSchema = z.object({
  videoId: uuidSchema(msg.videoNotFound),
  state: z.enum(noteStates, { error: 'State must be open or resolved' }).optional(),
  version: z.coerce
    .number({ error: 'Version must be a version number' })
    .int('Version must be a version number')
    .min(1, 'Version must be a version number')
    .optional(),
})
export type ListNotesInput = z.input<typeof listNotesSchema>

export const replyNoteSchema = z.object({
  videoId: uuidSchema(msg.videoNotFound),
  noteId: uuidSchema(NOTE_NOT_FOUND),
  text: plainText(z.string().trim(), 'Reply', { multiline: true })
    .min(1, 'Reply is required')
    .max(reviewNoteLimits.textMax, `Reply must be at most ${reviewNoteLimits.textMax} characters`),
})

export const resolveNoteSchema = z.object({
  videoId: uuidSchema(msg.videoNotFound),
  noteId: uuidSchema(NOTE_NOT_FOUND),
  resolved: z.boolean({ error: 'Resolved must be true or false' }),
})
