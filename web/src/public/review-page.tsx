// A private review link's page (/r/<token>, docs/public-site.md): the studio's name and mark, the
// work's title, player and description, and nothing else of the site (no navigation, no footer,
// no other work), and the client's notes: a panel beside the player (below it on a phone) and a
// marker strip under it (review-notes.tsx). The server renders it with the media under the
// link's own path. Where the work has several ready versions, a switcher chooses the one the
// player plays (the current one first); the notes and markers follow it, and a new note is made
// on it (docs/review.md#versions).
import { useEffect, useId, useRef, useState } from 'react'
import { BrandMark, BrandName } from '../brand/brand.tsx'
import type { ReviewVersion } from './page-data.ts'
import { PageShell } from './page-shell.tsx'
import type { PublicVideo } from './public-videos.ts'
import { ReviewMarkers, ReviewNotesPanel, useReviewNotes } from './review-notes.tsx'
import { usePlayerControl, WorkPlayer } from './work-page.tsx'

export function ReviewPage({
  video,
  versions = [],
}: {
  video: PublicVideo
  versions?: ReviewVersion[]
}) {
  const control = usePlayerControl()
  const notes = useReviewNotes(control)
  const switchId = useId()
  const [shownId, setShownId] = useState(() => versions.find((v) => v.current)?.id)
  // A page from a server without versions plays its one video and lists every note.
  const shown = versions.find((v) => v.id === shownId) ?? null
  const played = shown?.video ?? video
  const choose = (id: string) => {
    const next = versions.find((v) => v.id === id)
    if (!next) return
    setShownId(next.id)
    notes.announce(`Showing version ${next.number}${next.current ? ', the current one' : ''}`)
  }
  // The server's markup holds the switcher before this page's script has arrived: a choice made
  // in it then (a key, a tap) moved the select with no one listening. Hydration keeps the
  // select's own value, so the page takes that choice up once it is live.
  const switcher = useRef<HTMLSelectElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the page goes live
  useEffect(() => {
    const early = switcher.current?.value
    if (early && early !== shownId) choose(early)
  }, [])
  return (
    <PageShell>
      <header className="mx-auto flex max-w-7xl items-center gap-3 px-5 pt-8 sm:px-8">
        <BrandMark className="text-accent" />
        <BrandName className="text-2xl text-paper" />
      </header>
      <main id="main" className="mx-auto max-w-7xl px-5 pt-10 pb-20 sm:px-8">
        <p className="text-mist text-sm tracking-[0.22em] uppercase">Private preview</p>
        <h1 className="mt-4 font-display text-4xl text-paper tracking-tight md:text-6xl">
          {video.title}
        </h1>
        {versions.length > 1 && shown ? (
          <div className="mt-6 flex flex-wrap items-center gap-3">
            <label htmlFor={switchId} className="text-mist text-sm">
              Version
            </label>
            <select
              id={switchId}
              ref={switcher}
              value={shown.id}
              onChange={(event) => choose(event.target.value)}
              className="rounded-md border border-white/25 bg-ink-900 px-3 py-2 text-paper focus-visible:outline-2 focus-visible:outline-accent"
            >
              {[...versions].reverse().map((v) => (
                <option key={v.id} value={v.id}>
                  Version {v.number}
                  {v.current ? ' (current)' : ''}
                </option>
              ))}
            </select>
            {shown.current ? null : <p className="text-mist text-sm">Not the current version.</p>}
          </div>
        ) : null}
        <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start">
          <div>
            {/* A new version is a new player: its own streams from their start. */}
            <WorkPlayer key={shown?.id ?? ''} video={played} control={control} />
            <ReviewMarkers state={notes} version={shown} duration={played.duration} />
            {video.description ? (
              <p className="mt-8 max-w-2xl whitespace-pre-line text-lg text-mist">
                {video.description}
              </p>
            ) : null}
          </div>
          <ReviewNotesPanel
            state={notes}
            control={control}
            version={shown}
            duration={played.duration}
          />
        </div>
      </main>
    </PageShell>
  )
}
