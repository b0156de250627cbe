// Work: the public videos in a 1/2/3-column grid, with the phone-sized modal player.
import { useEffect, useRef, useState } from 'react'
import { work } from './content.ts'
import { Spinner } from './icons.tsx'
import type { PublicVideo } from './public-videos.ts'
import { VideoModal } from './video-modal.tsx'
import { WorkTile } from './work-tile.tsx'

type Props = {
  videos: PublicVideo[]
  loading: boolean
  /** Whether the catalogue has works past those shown. */
  more: boolean
  loadingMore: boolean
  /** Asks for the next page; resolves with how many works it added. */
  onLoadMore: () => Promise<number>
}

const SKELETON_TILES = 6
/** Tiles past the first screenful are laid out only when near the viewport (at 280 px each). */
const FIRST_SCREEN_TILES = 6
/** How far below the viewport the end of the grid may be when the next page is asked for. */
const LOAD_AHEAD = '800px'

export function Work({ videos, loading, more, loadingMore, onLoadMore }: Props) {
  // `shown` false: made at a press on a phone, its stream loading, until the click shows it.
  const [modal, setModal] = useState<{
    video: PublicVideo
    opener: HTMLElement | null
    shown: boolean
  } | null>(null)

  const returnFocusTo = useRef<HTMLElement | null>(null)
  const gridRef = useRef<HTMLUListElement>(null)
  // hls.js and the streams' start are fetched ahead by the page's first script (start-ahead.ts).

  // The page behind a modal dialog is inert, so focus goes back only once the dialog is gone.
  useEffect(() => {
    if (modal || !returnFocusTo.current) return
    returnFocusTo.current.focus({ preventScroll: true })
    returnFocusTo.current = null
  }, [modal])

  useLoadAhead(gridRef, more && !loadingMore, onLoadMore)
  // 'Show more' from the keyboard: focus goes to the first work it brought.
  const [focusTile, setFocusTile] = useState<number | null>(null)
  useEffect(() => {
    if (focusTile === null) return
    gridRef.current?.children[focusTile]?.querySelector('button')?.focus()
    setFocusTile(null)
  }, [focusTile])
  const showMore = async () => {
    const shown = videos.length
    if ((await onLoadMore()) > 0) setFocusTile(shown)
  }

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
            : videos.map((video, index) => (
                <WorkTile
                  key={video._id}
                  video={video}
                  deferred={index >= FIRST_SCREEN_TILES}
                  onOpenModal={(chosen, opener) => setModal({ video: chosen, opener, shown: true })}
                  onPressModal={(chosen) =>
                    setModal((current) =>
                      current?.shown ? current : { video: chosen, opener: null, shown: false },
                    )
                  }
                  onAbandonModal={(chosen) =>
                    setModal((current) =>
                      current && !current.shown && current.video._id === chosen._id
                        ? null
                        : current,
                    )
                  }
                />
              ))}
        </ul>
        {more && !loading ? (
          <div className="mt-12 flex justify-center">
            <button
              type="button"
              onClick={() => void showMore()}
              disabled={loadingMore}
              aria-busy={loadingMore}
              className="inline-flex min-h-11 items-center gap-3 rounded-full border border-paper/30 px-7 py-3 font-medium text-paper text-sm tracking-wide transition hover:border-accent hover:text-accent focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-accent disabled:opacity-60"
            >
              {loadingMore ? <Spinner className="size-4" /> : null}
              {loadingMore ? 'Loading more work…' : 'Show more'}
            </button>
          </div>
        ) : null}
      </div>
      {modal && (
        <VideoModal
          key={modal.video._id}
          video={modal.video}
          shown={modal.shown}
          onClose={closeModal}
        />
      )}
    </section>
  )
}

/**
 * Asks for the next page when the end of the grid comes within LOAD_AHEAD of the viewport, or
 * has been passed.
 * Without IntersectionObserver the 'Show more' button does the same.
 */
function useLoadAhead(
  gridRef: React.RefObject<HTMLUListElement | null>,
  enabled: boolean,
  load: () => Promise<number>,
) {
  useEffect(() => {
    const grid = gridRef.current
    const last = grid?.lastElementChild
    if (!enabled || !last || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect()
          void load()
        }
      },
      // Above the viewport counts too: a jump past the grid (End, a fast fling) never crosses
      // its end in any frame, and the next page is still wanted.
      { rootMargin: `100000px 0px ${LOAD_AHEAD} 0px` },
    )
    observer.observe(last)
    return () => observer.disconnect()
  }, [gridRef, enabled, load])
}
