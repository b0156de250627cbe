// The review page's notes (docs/review.md): the panel beside the player (below it on a phone)
// and the markers along its timeline. Starting a note pauses the player and takes its time
// ("Note at 0:42"), which the client can adjust, with an optional end for a range; the name is
// asked once per link on this device. Notes list in time order with the studio's replies;
// choosing one (in the list or on the strip) seeks the player there. Everything a person typed
// is drawn as text. The notes load after the page is live, so the server's markup and the first
// draw agree. The panel and the strip show the notes of the version the player plays; notes of a
// deleted version stay listed under its number ("Version 1 (deleted)"), with nothing to play.
import {
  notesForVersion,
  noteTime,
  parseTimecode,
  reviewNoteLimits,
  timecode,
  versionLabel,
} from '@contract/review-note.ts'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { type MarkedNote, NoteMarkers } from '../player/note-markers.tsx'
import {
  addNote,
  type ClientNote,
  deleteNote,
  editNote,
  keep,
  kept,
  listNotes,
} from './review-notes-api.ts'
import type { PlayerControl } from './work-page.tsx'

/** The version the player plays; null on a page that names none (every note is shown). */
export type ShownVersion = { id: string; number: number } | null

/** The notes beside the player of `version`, and those of deleted versions. */
function grouped(notes: ClientNote[], version: ShownVersion) {
  return version ? notesForVersion(notes, version.number) : { shown: notes, deleted: [] }
}

/** The notes of the page, and the player's seek; shared by the panel and the strip. */
export function useReviewNotes(control: PlayerControl) {
  const [notes, setNotes] = useState<ClientNote[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const pendingSeek = useRef<number | null>(null)

  const reload = async () => {
    const listed = await listNotes()
    if (listed.ok) {
      setNotes(listed.data.notes)
      setError(null)
    } else setError(listed.message)
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page is live
  useEffect(() => {
    void reload()
  }, [])

  // A seek asked for before the player started waits for its metadata.
  useEffect(() => {
    const element = control.ref.current
    if (!control.started || !element || pendingSeek.current === null) return
    const apply = () => {
      if (pendingSeek.current === null) return
      element.currentTime = pendingSeek.current
      pendingSeek.current = null
    }
    if (element.readyState >= 1) apply()
    else element.addEventListener('loadedmetadata', apply, { once: true })
    return () => element.removeEventListener('loadedmetadata', apply)
  })

  const announce = (text: string) =>
    setAnnouncement((was) => (was === text ? `${text}\u00a0` : text))

  function seek(note: MarkedNote) {
    const element = control.ref.current
    if (control.started && element && element.readyState >= 1) element.currentTime = note.at
    else {
      pendingSeek.current = note.at
      control.start()
    }
    announce(`Playing from ${timecode(note.at)}, the note by ${note.name}`)
  }

  return { notes, setNotes, error, reload, seek, announce, announcement }
}

export type ReviewNotesState = ReturnType<typeof useReviewNotes>

export function ReviewMarkers({
  state,
  version,
  duration,
}: {
  state: ReviewNotesState
  version: ShownVersion
  duration: number | null
}) {
  const notes = grouped(state.notes ?? [], version).shown
  return <NoteMarkers notes={notes} duration={duration} onChoose={state.seek} />
}

const field =
  'w-full rounded-md border border-white/25 bg-ink-900 px-3 py-2 text-paper placeholder:text-mist/70 focus-visible:outline-2 focus-visible:outline-accent'
const quiet =
  'rounded-full px-3 py-1.5 text-sm text-mist hover:text-paper focus-visible:outline-2 focus-visible:outline-accent'
const strong =
  'rounded-full bg-accent px-4 py-2 font-semibold text-ink-950 text-sm hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:opacity-60'

export function ReviewNotesPanel({
  state,
  control,
  version,
  duration,
}: {
  state: ReviewNotesState
  control: PlayerControl
  version: ShownVersion
  duration: number | null
}) {
  const headingId = useId()
  const [composing, setComposing] = useState<{ at: number } | null>(null)
  const [name, setName] = useState<string | null>(null)
  useEffect(() => setName(kept().name ?? null), [])

  function start() {
    const element = control.ref.current
    element?.pause()
    setComposing({ at: element ? Math.floor(element.currentTime * 10) / 10 : 0 })
  }

  const all = state.notes
  const { shown: notes, deleted } = grouped(all ?? [], version)
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-md border border-white/10 bg-ink-900/60 p-4 sm:p-5"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id={headingId} className="font-semibold text-lg text-paper">
          Notes{all ? ` (${notes.length})` : ''}
          {version && all ? <span className="sr-only"> on version {version.number}</span> : null}
        </h2>
        {composing ? null : (
          <button type="button" onClick={start} className={strong}>
            Add a note
          </button>
        )}
      </div>
      <p aria-live="polite" className="sr-only">
        {state.announcement}
      </p>
      {name && !composing ? (
        <p className="mt-2 text-mist text-sm">
          Noting as <span className="text-paper">{name}</span>{' '}
          <button
            type="button"
            className="underline hover:text-paper"
            onClick={() => {
              keep({ name: '' })
              setName(null)
            }}
          >
            Change name
          </button>
        </p>
      ) : null}
      {composing ? (
        <NoteForm
          at={composing.at}
          versionId={version?.id || null}
          duration={duration}
          name={name}
          onCancel={() => setComposing(null)}
          onAdded={(note, usedName) => {
            keep({ name: usedName })
            setName(usedName)
            setComposing(null)
            state.setNotes((list) =>
              [...(list ?? []), note].sort(
                (a, b) => a.at - b.at || a.createdAt.localeCompare(b.createdAt),
              ),
            )
            state.announce(`Note added at ${noteTime(note)}`)
          }}
        />
      ) : null}
      {state.error ? (
        <p role="alert" className="mt-3 text-[#ffb4a8] text-sm">
          {state.error}
        </p>
      ) : null}
      {all === null ? (
        <p className="mt-4 text-mist text-sm">Loading notes…</p>
      ) : notes.length === 0 ? (
        <p className="mt-4 text-mist text-sm">
          No notes yet{all.length > 0 && version ? ` on version ${version.number}` : ''}. Pause
          where something should change and add a note.
        </p>
      ) : (
        <ol aria-label="Notes in time order" className="mt-4 space-y-3">
          {notes.map((note) => (
            <NoteItem key={note.id} note={note} state={state} playable />
          ))}
        </ol>
      )}
      {deleted.map((group) => (
        <div key={group.number} className="mt-6">
          <h3 className="font-semibold text-mist text-sm">{versionLabel(group.notes[0]!)}</h3>
          <p className="mt-1 text-mist text-xs">
            This version was deleted: its notes are kept, with nothing to play.
          </p>
          <ol aria-label={`Notes on ${versionLabel(group.notes[0]!)}`} className="mt-3 space-y-3">
            {group.notes.map((note) => (
              <NoteItem key={note.id} note={note} state={state} playable={false} />
            ))}
          </ol>
        </div>
      ))}
    </section>
  )
}

function NoteForm({
  at,
  versionId,
  duration,
  name,
  onCancel,
  onAdded,
}: {
  at: number
  /** The version the player plays, which the note is made on (absent: the current one). */
  versionId: string | null
  duration: number | null
  name: string | null
  onCancel: () => void
  onAdded: (note: ClientNote, name: string) => void
}) {
  const ids = { start: useId(), end: useId(), text: useId(), name: useId(), error: useId() }
  const [start, setStart] = useState(timecode(at))
  const [end, setEnd] = useState('')
  const [text, setText] = useState('')
  const [typedName, setTypedName] = useState('')
  const [error, setError] = useState<{ message: string; field?: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const textRef = useRef<HTMLTextAreaElement>(null)
  useEffect(() => textRef.current?.focus(), [])
  const startSeconds = parseTimecode(start)
  // A whole-second time field loses the tenths the player gave: those stay while it is unchanged.
  const atSeconds = start === timecode(at) ? at : startSeconds

  async function submit(event: FormEvent) {
    event.preventDefault()
    const until = end.trim() ? parseTimecode(end) : null
    if (atSeconds === null)
      return setError({ message: 'Start must be a time like 0:42', field: 'at' })
    if (end.trim() && until === null)
      return setError({ message: 'End must be a time like 0:50', field: 'until' })
    setBusy(true)
    const usedName = name ?? typedName.trim()
    const made = await addNote({
      ...(versionId ? { versionId } : {}),
      at: atSeconds,
      until,
      text,
      name: usedName,
    })
    setBusy(false)
    if (made.ok) onAdded(made.data.note, usedName)
    else setError(made)
  }

  const invalid = (f: string) =>
    error?.field === f ? { 'aria-invalid': true, 'aria-describedby': ids.error } : {}
  return (
    <form onSubmit={submit} className="mt-4 space-y-3" aria-label="New note">
      <p className="font-semibold text-accent">
        Note at {startSeconds === null ? start : timecode(startSeconds)}
        {end.trim() && parseTimecode(end) !== null ? `–${timecode(parseTimecode(end)!)}` : ''}
      </p>
      {name ? null : (
        <div>
          <label htmlFor={ids.name} className="block text-sm text-mist">
            Your name
          </label>
          <input
            id={ids.name}
            value={typedName}
            onChange={(e) => setTypedName(e.target.value)}
            maxLength={reviewNoteLimits.nameMax}
            autoComplete="name"
            required
            className={field}
            {...invalid('name')}
          />
          <p className="mt-1 text-mist text-xs">
            Asked once: this device remembers it for this link.
          </p>
        </div>
      )}
      <div className="grid grid-cols-2 gap-3">
        <div>
          <label htmlFor={ids.start} className="block text-sm text-mist">
            Start
          </label>
          <input
            id={ids.start}
            value={start}
            onChange={(e) => setStart(e.target.value)}
            inputMode="decimal"
            className={field}
            {...invalid('at')}
          />
        </div>
        <div>
          <label htmlFor={ids.end} className="block text-sm text-mist">
            End (optional)
          </label>
          <input
            id={ids.end}
            value={end}
            onChange={(e) => setEnd(e.target.value)}
            inputMode="decimal"
            placeholder={duration ? `up to ${timecode(duration)}` : ''}
            className={field}
            {...invalid('until')}
          />
        </div>
      </div>
      <div>
        <label htmlFor={ids.text} className="block text-sm text-mist">
          Note
        </label>
        <textarea
          id={ids.text}
          ref={textRef}
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={reviewNoteLimits.textMax}
          rows={4}
          required
          className={field}
          {...invalid('text')}
        />
      </div>
      {error ? (
        <p id={ids.error} role="alert" className="text-[#ffb4a8] text-sm">
          {error.message}
        </p>
      ) : null}
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className={strong}>
          {busy ? 'Adding…' : 'Add note'}
        </button>
        <button type="button" onClick={onCancel} className={quiet}>
          Cancel
        </button>
      </div>
    </form>
  )
}

function NoteItem({
  note,
  state,
  playable,
}: {
  note: ClientNote
  state: ReviewNotesState
  /** False for a note on a deleted version: its time is text, with nothing to seek. */
  playable: boolean
}) {
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(note.text)
  const [error, setError] = useState<string | null>(null)
  const textId = useId()

  const replace = (next: ClientNote | null) =>
    state.setNotes((list) =>
      (list ?? []).flatMap((n) => (n.id !== note.id ? [n] : next ? [next] : [])),
    )

  async function save(event: FormEvent) {
    event.preventDefault()
    const saved = await editNote(note.id, { text })
    if (saved.ok) {
      replace(saved.data.note)
      setEditing(false)
      setError(null)
    } else setError(saved.message)
  }

  async function remove() {
    const removed = await deleteNote(note.id)
    if (removed.ok) {
      replace(null)
      state.announce(`Note at ${noteTime(note)} deleted`)
    } else setError(removed.message)
  }

  return (
    <li className="rounded-md border border-white/10 p-3" data-note={note.id}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        {playable ? (
          <button
            type="button"
            onClick={() => state.seek(note)}
            aria-label={`Play from ${noteTime(note)}`}
            className="font-mono font-semibold text-accent text-sm hover:underline focus-visible:outline-2 focus-visible:outline-accent"
          >
            {noteTime(note)}
          </button>
        ) : (
          <span className="font-mono font-semibold text-mist text-sm">{noteTime(note)}</span>
        )}
        <span className="font-semibold text-paper text-sm">{note.name}</span>
        {note.resolved ? (
          <span className="rounded-full bg-emerald-500/20 px-2 py-0.5 text-emerald-200 text-xs">
            Resolved
          </span>
        ) : null}
      </div>
      {editing ? (
        <form
          onSubmit={save}
          className="mt-2 space-y-2"
          aria-label={`Edit the note at ${noteTime(note)}`}
        >
          <label htmlFor={textId} className="sr-only">
            Note
          </label>
          <textarea
            id={textId}
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={reviewNoteLimits.textMax}
            rows={3}
            className={field}
          />
          <div className="flex gap-2">
            <button type="submit" className={strong}>
              Save
            </button>
            <button type="button" className={quiet} onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <p className="mt-1 whitespace-pre-wrap break-words text-paper/90 text-sm">{note.text}</p>
      )}
      {note.replies.length ? (
        <ul
          aria-label="Replies from the studio"
          className="mt-2 space-y-2 border-accent/40 border-l-2 pl-3"
        >
          {note.replies.map((reply) => (
            <li key={reply.id} className="text-sm">
              <span className="text-mist text-xs">Studio · {reply.author}</span>
              <p className="whitespace-pre-wrap break-words text-paper/90">{reply.text}</p>
            </li>
          ))}
        </ul>
      ) : null}
      {note.mine && !editing ? (
        <div className="mt-2 flex gap-1">
          <button type="button" className={quiet} onClick={() => setEditing(true)}>
            Edit<span className="sr-only"> the note at {noteTime(note)}</span>
          </button>
          <button type="button" className={quiet} onClick={remove}>
            Delete<span className="sr-only"> the note at {noteTime(note)}</span>
          </button>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-[#ffb4a8] text-sm">
          {error}
        </p>
      ) : null}
    </li>
  )
}
