// The public one-page portfolio (docs/public-site.md): header, hero, clients, work, about, contact.
import { Suspense, startTransition, use, useCallback, useEffect, useRef, useState } from 'react'
import { About } from './about.tsx'
import { Clients } from './clients.tsx'
import { Hero } from './hero.tsx'
import { SiteShell } from './page-shell.tsx'
import {
  loadPublicPage,
  type PublicPage as PublicPageOfWorks,
  type PublicVideo,
} from './public-videos.ts'
import { type PublicSite, publicSite } from './site-content.ts'
import { Work } from './work.tsx'

/**
 * The grid's works, a page at a time: the first from the server's render (or asked for as the
 * page loads), the next when the visitor nears the end of the grid or asks for more. Each page is
 * a few KB whatever the catalogue's size.
 */
function usePublicVideos(initial: PublicPageOfWorks | undefined) {
  const [videos, setVideos] = useState<PublicVideo[]>(initial?.videos ?? [])
  const [loading, setLoading] = useState(!initial)
  const [next, setNext] = useState<string | null>(initial?.nextCursor ?? null)
  const [loadingMore, setLoadingMore] = useState(false)
  const controller = useRef<AbortController | null>(null)
  // The works shown as of the last render: 'Show more' reports how many a page added.
  const shown = useRef(videos)
  shown.current = videos
  // Whether a later page was added: the first page, asked for again, then replaces nothing.
  const extended = useRef(false)

  useEffect(() => {
    const abort = new AbortController()
    controller.current = abort
    // The list is asked for on mount (docs/public-site.md#paging): a rendered page shows the
    // server's first page at once and takes the fresh one if it differs; without one, the grid
    // waits for it.
    loadPublicPage(abort.signal)
      .then((page) => {
        if (extended.current) return
        // One transition swaps the placeholders for the tiles without blocking the thread.
        startTransition(() => {
          setVideos(page.videos)
          setNext(page.nextCursor)
          setLoading(false)
        })
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return
        // docs/public-site.md: logged only; the grid keeps what it has (empty without a rendered
        // page).
        console.error('Could not load the public videos', error)
        setLoading(false)
      })
    return () => abort.abort()
  }, [])

  const loadMore = useCallback(async (): Promise<number> => {
    const signal = controller.current?.signal
    if (!next || loadingMore || !signal) return 0
    setLoadingMore(true)
    try {
      const page = await loadPublicPage(signal, next)
      // A work that moved in the curated order meanwhile is shown once, where it was first seen.
      const ids = new Set(shown.current.map((v) => v._id))
      const fresh = page.videos.filter((v) => !ids.has(v._id))
      extended.current = true
      setVideos((list) => [...list, ...fresh])
      setNext(page.nextCursor)
      return fresh.length
    } catch (error) {
      if (!signal.aborted) console.error('Could not load more videos', error)
      return 0
    } finally {
      setLoadingMore(false)
    }
  }, [next, loadingMore])

  return { videos, loading, more: next !== null, loadingMore, loadMore }
}

/** The landing page; `initial` is what the server rendered it with (page-data.ts). */
export function PublicPage({
  initial,
}: {
  initial?: { site: PublicSite | null; page: PublicPageOfWorks }
}) {
  // Started here, outside the boundary below, so the videos do not wait for the content.
  const grid = usePublicVideos(initial?.page)
  if (initial) return <Page site={initial.site} grid={grid} />
  // The page draws once, with its content: no placeholder text that the real text then moves.
  return (
    <Suspense fallback={null}>
      <FetchedContent grid={grid} />
    </Suspense>
  )
}

function FetchedContent({ grid }: { grid: ReturnType<typeof usePublicVideos> }) {
  return <Page site={use(publicSite())} grid={grid} />
}

function Page({
  site,
  grid,
}: {
  site: PublicSite | null
  grid: ReturnType<typeof usePublicVideos>
}) {
  return (
    <SiteShell site={site}>
      <Hero hero={site?.hero ?? null} />
      <Clients clients={site?.clients ?? []} />
      <Work
        videos={grid.videos}
        loading={grid.loading}
        more={grid.more}
        loadingMore={grid.loadingMore}
        onLoadMore={grid.loadMore}
      />
      <About content={site?.about ?? null} />
    </SiteShell>
  )
}
