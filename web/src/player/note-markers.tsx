// The strip along a player's timeline with a marker for each note (a moment, or a bar over a
// range), shared by the review page and the dashboard's review page. Each marker is a button in
// the tab order whose name reads the note, so a keyboard or a screen reader reaches every note
// from the timeline; choosing one seeks the player there.
import { noteTime } from '@contract/review-note.ts'

export type MarkedNote = {
  id: string
  at: number
  until: number | null
  name: string
  text: string
  resolved?: boolean
}

const PREVIEW_CHARS = 80

/** What a marker's name says: who, when, and the note's start. */
export function markerLabel(note: MarkedNote): string {
  const text =
    note.text.length > PREVIEW_CHARS ? `${note.text.slice(0, PREVIEW_CHARS)}…` : note.text
  return `Note by ${note.name} at ${noteTime(note)}${note.resolved ? ' (resolved)' : ''}: ${text}`
}

export function NoteMarkers({
  notes,
  duration,
  onChoose,
  dark = true,
}: {
  notes: MarkedNote[]
  duration: number | null
  onChoose: (note: MarkedNote) => void
  dark?: boolean
}) {
  if (!duration || duration <= 0) return null
  const percent = (seconds: number) => `${Math.min(100, Math.max(0, (seconds / duration) * 100))}%`
  return (
    <ul
      aria-label="Note markers on the timeline"
      className={`relative mt-2 h-7 rounded-sm ${dark ? 'bg-white/10' : 'bg-zinc-200 dark:bg-zinc-800'}`}
    >
      {notes.map((note) => {
        const range = note.until !== null
        return (
          <li
            key={note.id}
            style={{
              left: percent(note.at),
              width: range ? `calc(${percent(note.until! - note.at)} + 0.75rem)` : '0.75rem',
            }}
            className="-translate-x-1.5 absolute top-1 h-5"
          >
            <button
              type="button"
              data-note-marker={note.id}
              aria-label={markerLabel(note)}
              title={markerLabel(note)}
              onClick={() => onChoose(note)}
              className={`block size-full rounded-full border-2 focus-visible:outline-3 focus-visible:outline-accent focus-visible:outline-offset-2 ${
                note.resolved
                  ? 'border-emerald-300 bg-emerald-500/60'
                  : 'border-amber-200 bg-amber-400/90'
              }`}
            />
          </li>
        )
      })}
    </ul>
  )
}
