// A private review link's page (/r/<token>, docs/public-site.md): the studio's name and mark, the
// work's title, player and description, and nothing else of the site (no navigation, no footer,
// no other work), and the client's notes: a panel beside the player (below it on a phone) and a
// marker strip under it (review-notes.tsx). The server renders it with the media under the
// link's own path.
import { BrandMark, BrandName } from '../brand/brand.tsx'
import { PageShell } from './page-shell.tsx'
import type { PublicVideo } from './public-videos.ts'
import { ReviewMarkers, ReviewNotesPanel, useReviewNotes } from './review-notes.tsx'
import { usePlayerControl, WorkPlayer } from './work-page.tsx'

export function ReviewPage({ video }: { video: PublicVideo }) {
  const control = usePlayerControl()
  const notes = useReviewNotes(control)
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
        <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start">
          <div>
            <WorkPlayer video={video} control={control} />
            <ReviewMarkers state={notes} duration={video.duration} />
            {video.description ? (
              <p className="mt-8 max-w-2xl whitespace-pre-line text-lg text-mist">
                {video.description}
              </p>
            ) : null}
          </div>
          <ReviewNotesPanel state={notes} control={control} duration={video.duration} />
        </div>
      </main>
    </PageShell>
  )
}
