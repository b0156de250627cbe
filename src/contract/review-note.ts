// Time-coded notes a client leaves through a review link, and the studio's replies (docs/
// review.md): their limits, shapes, times and labels, shared by the server and both pages that
// show notes (the review page and the dashboard's review page). No zod here: the review page is a
// public page, and its bundle stays small; the input schemas are review-note-input.ts.

export const reviewNoteLimits = {
  textMax: 2000,
  nameMax: 80,
  /** Notes one link may hold, so a script cannot fill the table through it. */
  perLink: 500,
  /** Notes one address may make in an hour, across every link. */
  perAddressHour: 60,
} as const

export const noteStates = ['open', 'resolved'] as const
export type NoteState = (typeof noteStates)[number]

export const NOTE_NOT_FOUND = 'Note not found'

export type NoteReplyView = { id: string; text: string; author: string; createdAt: string }

/** A note as the client who holds the link sees it; `mine`: made on this device. */
export type ClientNoteView = {
  id: string
  versionId: string | null
  versionNumber: number
  /** Seconds. */
  at: number
  until: number | null
  name: string
  text: string
  createdAt: string
  updatedAt: string
  resolved: boolean
  mine: boolean
  replies: NoteReplyView[]
}

/** A note as admins see it: which link it came through, and who resolved it. */
export type AdminNoteView = Omit<ClientNoteView, 'mine'> & {
  videoId: string
  link: { id: string; note: string | null; state: 'active' | 'expired' | 'revoked' }
  resolvedAt: string | null
  resolvedBy: string | null
}

/** 42.5 → "0:42", 3725 → "1:02:05": how a note's time reads everywhere. */
export function timecode(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds))
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = String(whole % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/** "0:42" or "0:42–0:50". */
export const noteTime = (note: { at: number; until: number | null }) =>
  note.until === null ? timecode(note.at) : `${timecode(note.at)}–${timecode(note.until)}`

/** "0:42", "1:02:05" or "42.5" as seconds; null for anything else. The note form's time fields. */
export function parseTimecode(text: string): number | null {
  const value = text.trim()
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value)
  const parts = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(value)
  if (!parts) return null
  const [, h = '0', m = '0', s = '0'] = parts
  if (Number(s) >= 60 || (parts[1] !== undefined && Number(m) >= 60)) return null
  return Number(h) * 3600 + Number(m) * 60 + Number(s)
}

/** A note's version as the notes name it: its number, and its id while that version exists. */
type OnVersion = { versionId: string | null; versionNumber: number }

/**
 * "Version 2", or "Version 1 (deleted)" once that version is gone: its notes stay, with its
 * number, but nothing plays it any more.
 */
export const versionLabel = (note: OnVersion) =>
  `Version ${note.versionNumber}${note.versionId === null ? ' (deleted)' : ''}`

/**
 * The notes of a page that shows version `shown` (its number), and the notes of deleted versions,
 * grouped by number, oldest first: what a page lists beside its player. A note is on a version by
 * its number, which is never given twice in a work. Notes of other versions that still exist are
 * reached by showing those versions.
 */
export function notesForVersion<N extends OnVersion>(
  notes: readonly N[],
  shown: number,
): { shown: N[]; deleted: { number: number; notes: N[] }[] } {
  const deleted = new Map<number, N[]>()
  for (const note of notes) {
    if (note.versionId !== null || note.versionNumber === shown) continue
    deleted.set(note.versionNumber, [...(deleted.get(note.versionNumber) ?? []), note])
  }
  return {
    shown: notes.filter((note) => note.versionNumber === shown),
    deleted: [...deleted]
      .sort(([a], [b]) => a - b)
      .map(([number, list]) => ({ number, notes: list })),
  }
}
