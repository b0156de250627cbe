// A work's review page in the dashboard (/dashboard/videos/<id>/review, docs/review.md): the
// player with a marker for each note on its timeline, and every note of every review link of
// the work, with the link it came through; reply, resolve and reopen; filter open or resolved
// and by version. The version filter is also the player's switcher: the current version by
// default, an earlier one plays its own streams with its own notes' markers, and a deleted one
// lists its notes with nothing to play. The list is asked again every two seconds, so a note a
// client leaves through any server shows here within the five seconds promised; the work too while
// it processes, so its player follows the growing stream to the final one. Clients' words are
// drawn as text.
import {
  type NoteState,
  noteStates,
  notesForVersion,
  noteTime,
  reviewNoteLimits,
  versionLabel,
} from '@contract/review-note.ts'
import { Link, useParams } from '@tanstack/react-router'
import { type FormEvent, useId, useRef, useState } from 'react'
import type { AdminNote, Video } from '../../api.ts'
import { type MarkedNote, NoteMarkers } from '../../player/note-markers.tsx'
import type { StreamSources } from '../../player/streams.ts'
import { type UseStreamOptions, useAttachedStream } from '../../player/use-stream.ts'
import { GrowingPanel } from '../components/growing-panel.tsx'
import { PageHeader } from '../components/page-header.tsx'
import { Button, inputStyles, Spinner } from '../components/ui.tsx'
import { cn } from '../lib/cn.ts'
import { toClientError } from '../lib/errors.ts'
import { dashboardSources, growingOf, playerPollMs } from '../lib/growing.ts'
import { notify } from '../lib/notify.ts'
import { trpc } from '../trpc.ts'

/** How often the notes are asked again: well inside the five seconds a new note may take. */
export const NOTES_POLL_MS = 2000

/** `current`: whichever version is current (the default); a number: that version; `all`. */
type Filters = { state: NoteState | 'all'; version: number | 'current' | 'all' }

export function ReviewPage() {
  const { id } = useParams({ from: '/authed/dashboard/videos/$id/review' })
  const work = trpc.videos.get.useQuery(
    { id },
    {
      // While it processes: its growing stream's news, then its final streams.
      refetchInterval: (query) => {
        const video = query.state.data?.video
        return video ? playerPollMs(video) : false
      },
    },
  )
  const versions = trpc.versions.list.useQuery({ id })
  const [filters, setFilters] = useState<Filters>({ state: 'all', version: 'current' })
  // Every version's notes: the filter by version is drawn here, so deleted versions show too.
  const notes = trpc.reviewNotes.list.useQuery(
    { videoId: id, ...(filters.state === 'all' ? {} : { state: filters.state }) },
    {
      refetchInterval: NOTES_POLL_MS,
      refetchIntervalInBackground: true,
      placeholderData: (v) => v,
    },
  )
  const videoRef = useRef<HTMLVideoElement>(null)
  // The growing stream's seek while it plays: a note past what is made waits for the encoder.
  const growingSeek = useRef<((at: number) => void) | null>(null)
  const [announcement, setAnnouncement] = useState('')

  if (work.isPending) return <Spinner label="Loading the work" />
  if (work.isError) {
    return (
      <p role="alert" className="text-red-600 dark:text-red-400">
        {toClientError(work.error).message || 'Error'}
      </p>
    )
  }
  const video = work.data.video
  const all = notes.data ?? []
  const existing = versions.data?.versions ?? []
  const currentNumber = video.version
  const chosen = filters.version === 'current' ? currentNumber : filters.version
  // The version the player plays: the chosen one, or the current one for "All versions".
  const played = chosen === 'all' ? currentNumber : chosen
  const playedVersion = existing.find((v) => v.number === played)
  const { shown } = notesForVersion(all, played)
  // Version numbers start at 1: with 0 shown, every deleted version's notes are grouped.
  const deleted = notesForVersion(all, 0).deleted
  const list = chosen === 'all' ? all : shown
  const deletedChosen = chosen !== 'all' && !playedVersion && versions.isSuccess

  function seek(note: MarkedNote) {
    const element = videoRef.current
    if (growingSeek.current) growingSeek.current(note.at)
    else if (element) {
      if (element.readyState >= 1) element.currentTime = note.at
      else
        element.addEventListener(
          'loadedmetadata',
          () => {
            element.currentTime = note.at
          },
          { once: true },
        )
    }
    setAnnouncement(`Playing from ${noteTime(note)}, the note by ${note.name}`)
  }

  // Every version there is, and every deleted one that still has notes, newest first.
  const options = [
    ...existing.map((v) => ({
      value: String(v.number),
      number: v.number,
      label: `Version ${v.number}${v.current ? ' (current)' : ''}`,
    })),
    ...deleted.map((group) => ({
      value: String(group.number),
      number: group.number,
      label: versionLabel(group.notes[0]!),
    })),
  ].sort((a, b) => b.number - a.number)
  if (!options.some((o) => o.number === currentNumber)) {
    options.unshift({
      value: String(currentNumber),
      number: currentNumber,
      label: `Version ${currentNumber} (current)`,
    })
  }
  // A deleted version chosen while the Show filter leaves none of its notes stays chosen.
  if (typeof chosen === 'number' && !options.some((o) => o.number === chosen)) {
    options.push({ value: String(chosen), number: chosen, label: `Version ${chosen} (deleted)` })
  }
  return (
    <div>
      <PageHeader
        title={`Review: ${video.title}`}
        crumb="Review"
        actions={
          <Link to="/dashboard/manage" className="text-sm underline hover:no-underline">
            Back to Manage
          </Link>
        }
      />
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem] lg:items-start">
        <div>
          {deletedChosen ? (
            <p className="rounded-xl border border-zinc-200 p-6 text-sm text-zinc-600 dark:border-ink-700 dark:text-zinc-300">
              Version {played} was deleted: its notes are kept, with nothing to play.
            </p>
          ) : playedVersion && !playedVersion.current ? (
            <VersionPlayer
              key={playedVersion._id}
              id={id}
              versionId={playedVersion._id}
              number={playedVersion.number}
              videoRef={videoRef}
            />
          ) : (
            <WorkPlayer video={video} videoRef={videoRef} seekRef={growingSeek} />
          )}
          {deletedChosen ? null : (
            <NoteMarkers
              notes={shown}
              duration={durationOf(playedVersion, video)}
              onChoose={seek}
              dark={false}
            />
          )}
        </div>
        <section aria-labelledby="notes-heading" className="space-y-4">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <h2 id="notes-heading" className="font-semibold text-lg">
              Notes ({list.length})
            </h2>
            <div className="flex gap-2">
              <label className="text-sm">
                <span className="block text-zinc-500 text-xs dark:text-zinc-400">Show</span>
                <select
                  value={filters.state}
                  onChange={(e) =>
                    setFilters((f) => ({ ...f, state: e.target.value as Filters['state'] }))
                  }
                  className={cn(inputStyles, 'w-auto')}
                >
                  <option value="all">All notes</option>
                  {noteStates.map((s) => (
                    <option key={s} value={s}>
                      {s === 'open' ? 'Open' : 'Resolved'}
                    </option>
                  ))}
                </select>
              </label>
              <label className="text-sm">
                <span className="block text-zinc-500 text-xs dark:text-zinc-400">Version</span>
                <select
                  value={String(chosen)}
                  onChange={(e) => {
                    const value = e.target.value
                    const version = value === 'all' ? 'all' : Number(value)
                    setFilters((f) => ({ ...f, version }))
                    const option = options.find((o) => o.value === value)
                    setAnnouncement(
                      option ? `Showing ${option.label}` : 'Showing the notes of every version',
                    )
                  }}
                  className={cn(inputStyles, 'w-auto')}
                >
                  {options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                  <option value="all">All versions</option>
                </select>
              </label>
            </div>
          </div>
          {notes.isError ? (
            <p role="alert" className="text-red-600 text-sm dark:text-red-400">
              {toClientError(notes.error).message || 'Error'}
            </p>
          ) : null}
          {notes.isPending ? (
            <Spinner label="Loading notes" />
          ) : list.length === 0 ? (
            <p className="text-sm text-zinc-500 dark:text-zinc-400">
              No notes here yet. Clients leave them on the work's review links (Share privately…).
            </p>
          ) : (
            <ol aria-label="Notes in time order" className="space-y-3">
              {list.map((note) => (
                <NoteCard
                  key={note.id}
                  note={note}
                  onSeek={note.versionNumber === played && !deletedChosen ? seek : null}
                />
              ))}
            </ol>
          )}
        </section>
      </div>
    </div>
  )
}

/** The length the markers are laid along: the played version's, once the list has it. */
function durationOf(version: { duration: number | null } | undefined, video: Video) {
  return version?.duration ?? video.duration
}

/** A version that is not current, from its own (signed) streams; a word where it has none. */
function VersionPlayer({
  id,
  versionId,
  number,
  videoRef,
}: {
  id: string
  versionId: string
  number: number
  videoRef: React.RefObject<HTMLVideoElement | null>
}) {
  const version = trpc.versions.get.useQuery({ id, versionId }, { staleTime: 10 * 60_000 })
  if (version.isPending) return <Spinner label={`Loading version ${number}`} />
  if (version.isError) {
    return (
      <p role="alert" className="text-red-600 text-sm dark:text-red-400">
        {toClientError(version.error).message || 'Error'}
      </p>
    )
  }
  const video = version.data.video
  if (!video.hlsUrl) {
    return (
      <p className="rounded-xl border border-zinc-200 p-6 text-sm text-zinc-600 dark:border-ink-700 dark:text-zinc-300">
        Version {number} cannot be played: its processing is not done.
      </p>
    )
  }
  return (
    <div
      className="overflow-hidden rounded-xl bg-black"
      style={{ aspectRatio: `${video.width ?? 16} / ${video.height ?? 9}` }}
    >
      <Attached video={video} sources={video} videoRef={videoRef} />
    </div>
  )
}

function WorkPlayer({
  video,
  videoRef,
  seekRef,
}: {
  video: Video
  videoRef: React.RefObject<HTMLVideoElement | null>
  seekRef: React.RefObject<((at: number) => void) | null>
}) {
  // Processed works play their streams; while processing the growing stream once there is one;
  // else the master, through a short-lived link.
  const link = trpc.videos.masterLink.useQuery(
    { id: video._id },
    { enabled: !video.hlsUrl, staleTime: 10 * 60_000, gcTime: 0 },
  )
  const sources = dashboardSources(video, link.data?.url ?? null)
  const growing = Boolean(growingOf(video))
  return (
    <div className="space-y-3">
      <div
        className="overflow-hidden rounded-xl bg-black"
        style={{ aspectRatio: `${video.width ?? 16} / ${video.height ?? 9}` }}
      >
        {sources ? (
          <Attached
            video={video}
            sources={sources}
            videoRef={videoRef}
            options={{ growing, keepPosition: true }}
          />
        ) : null}
      </div>
      {sources ? <GrowingPanel video={video} videoRef={videoRef} seekRef={seekRef} /> : null}
    </div>
  )
}

function Attached({
  video,
  sources,
  videoRef,
  options,
}: {
  video: Video
  sources: StreamSources
  videoRef: React.RefObject<HTMLVideoElement | null>
  options?: UseStreamOptions
}) {
  useAttachedStream(videoRef, sources, undefined, options)
  return (
    // biome-ignore lint/a11y/useMediaCaption: the work's caption tracks come from its stream or are added as <track>s when it plays (player/captions.ts)
    <video
      ref={videoRef}
      poster={video.thumbnailUrl}
      controls
      controlsList="nodownload"
      playsInline
      className="size-full bg-black object-contain"
      aria-label={video.title}
    />
  )
}

function linkName(note: AdminNote): string {
  const name = note.link.note ? `“${note.link.note}”` : 'an untitled link'
  return note.link.state === 'active' ? name : `${name} (${note.link.state})`
}

function NoteCard({
  note,
  onSeek,
}: {
  note: AdminNote
  /** Null when the player does not play the note's version: its time is then text. */
  onSeek: ((note: MarkedNote) => void) | null
}) {
  const utils = trpc.useUtils()
  const reply = trpc.reviewNotes.reply.useMutation()
  const resolve = trpc.reviewNotes.setResolved.useMutation()
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const replyId = useId()

  async function send(event: FormEvent) {
    event.preventDefault()
    try {
      await reply.mutateAsync({ videoId: note.videoId, noteId: note.id, text })
      setText('')
      setError(null)
      notify.success('Reply sent')
      await utils.reviewNotes.list.invalidate()
    } catch (err) {
      setError(toClientError(err).message || 'The reply could not be sent')
    }
  }

  async function toggle() {
    try {
      await resolve.mutateAsync({
        videoId: note.videoId,
        noteId: note.id,
        resolved: !note.resolved,
      })
      notify.success(note.resolved ? 'Note reopened' : 'Note resolved')
      await Promise.all([utils.reviewNotes.list.invalidate(), utils.videos.list.invalidate()])
    } catch (err) {
      notify.error(toClientError(err).message || 'The note could not be changed')
    }
  }

  return (
    <li
      data-note={note.id}
      className="rounded-xl border border-zinc-200 bg-white p-4 dark:border-ink-700 dark:bg-ink-900"
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        {onSeek ? (
          <button
            type="button"
            onClick={() => onSeek(note)}
            aria-label={`Play from ${noteTime(note)}`}
            className="font-mono font-semibold text-amber-700 text-sm hover:underline focus-visible:outline-2 focus-visible:outline-amber-500 dark:text-accent"
          >
            {noteTime(note)}
          </button>
        ) : (
          <span className="font-mono font-semibold text-sm text-zinc-600 dark:text-zinc-300">
            {noteTime(note)}
          </span>
        )}
        <span className="font-semibold text-sm">{note.name}</span>
        <span className="text-xs text-zinc-500 dark:text-zinc-400">
          {versionLabel(note)} · via {linkName(note)}
        </span>
        {note.resolved ? (
          <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-emerald-800 text-xs dark:bg-emerald-500/20 dark:text-emerald-200">
            Resolved{note.resolvedBy ? ` by ${note.resolvedBy}` : ''}
          </span>
        ) : null}
      </div>
      <p className="mt-1 whitespace-pre-wrap break-words text-sm">{note.text}</p>
      {note.replies.length ? (
        <ul aria-label="Replies" className="mt-2 space-y-2 border-amber-400/60 border-l-2 pl-3">
          {note.replies.map((r) => (
            <li key={r.id} className="text-sm">
              <span className="text-xs text-zinc-500 dark:text-zinc-400">{r.author}</span>
              <p className="whitespace-pre-wrap break-words">{r.text}</p>
            </li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={send} className="mt-3 space-y-2">
        <label htmlFor={replyId} className="sr-only">
          Reply to {note.name} at {noteTime(note)}
        </label>
        <textarea
          id={replyId}
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={2}
          maxLength={reviewNoteLimits.textMax}
          placeholder="Reply…"
          className={inputStyles}
          aria-invalid={error ? true : undefined}
        />
        {error ? (
          <p role="alert" className="text-red-600 text-sm dark:text-red-400">
            {error}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={reply.isPending || !text.trim()}>
            Reply<span className="sr-only"> to {note.name}</span>
          </Button>
          <Button variant="secondary" onClick={toggle} disabled={resolve.isPending}>
            {note.resolved ? 'Reopen' : 'Resolve'}
            <span className="sr-only"> the note at {noteTime(note)}</span>
          </Button>
        </div>
      </form>
    </li>
  )
}
