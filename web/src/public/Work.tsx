// Work: the public videos in a 1/2/3-column grid, with the phone-sized modal player.
import { useEffect, useMemo, useRef, useState } from 'react'
import { needsHlsJs } from '../player/streams.ts'
import { usePrefetchHls } from '../player/use-stream.ts'
import { work } from './content.ts'
import type { PublicVideo } from './publicVideos.ts'
import { VideoModal } from './VideoModal.tsx'
import { WorkTile } from './WorkTile.tsx'

type Props = { videos: PublicVideo[]; loading: boolean }

const SKELETON_TILES = 6

export function Work({ videos, loading }: Props) {
  const [modal, setModal] = useState<{ video: PublicVideo; opener: HTMLElement } | null>(null)

  const returnFocusTo = useRef<HTMLElement | null>(null)
  const gridRef = useRef<HTMLUListElement>(null)
  const streams = useMemo(() => videos.some(needsHlsJs), [videos])
  usePrefetchHls(gridRef, streams)

  // The page behind a modal dialog is inert, so focus goes back only once the dialog is gone.
  useEffect(() => {
    if (modal || !returnFocusTo.current) return
    returnFocusTo.current.focus({ preventScroll: true })
    returnFocusTo.current = null
  }, [modal])

  const closeModal = () => {
    returnFocusTo.current = modal?.opener ?? null
    setModal(null)
  }

  return (
    <section
      id="work"
      tabIndex={-1}
      aria-labelledby="work-heading"
      className="scroll-mt-16 bg-ink-950 outline-none md:scroll-mt-20"
    >
      <div className="mx-auto max-w-7xl px-5 py-24 sm:px-8 md:py-32">
        <div className="mb-12 flex flex-col gap-4 md:mb-16 md:flex-row md:items-end md:justify-between">
          <h2
            id="work-heading"
            className="font-display text-5xl tracking-tight text-paper md:text-7xl"
          >
            {work.heading}
          </h2>
          <p className="max-w-sm text-base text-mist">{work.intro}</p>
        </div>

        <ul
          ref={gridRef}
          aria-busy={loading}
          aria-label="Videos"
          className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
          data-testid="work-grid"
        >
          {loading
            ? Array.from({ length: SKELETON_TILES }, (_, index) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
                  key={index}
                  aria-hidden="true"
                  className="h-[280px] animate-pulse rounded-sm bg-ink-800 motion-reduce:animate-none"
                />
              ))
            : videos.map((video) => (
                <WorkTile
                  key={video._id}
                  video={video}
                  onOpenModal={(chosen, opener) => setModal({ video: chosen, opener })}
                />
              ))}
        </ul>
      </div>
      {modal && <VideoModal key={modal.video._id} video={modal.video} onClose={closeModal} />}
    </section>
  )
}
