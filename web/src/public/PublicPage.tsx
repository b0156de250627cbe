// The public one-page portfolio (SPEC §2): header, hero, clients, work, about, contact.
import { Suspense, startTransition, use, useCallback, useEffect, useRef, useState } from 'react'
import { About } from './About.tsx'
import { Clients } from './Clients.tsx'
import { ContactFooter } from './ContactFooter.tsx'
import { Header } from './Header.tsx'
import { Hero } from './Hero.tsx'
import { loadPublicPage, type PublicVideo } from './publicVideos.ts'
import { type PublicSite, publicSite } from './siteContent.ts'
import { Work } from './Work.tsx'

// Asked for as soon as this module loads (index.html's preload has it on the way already).
const siteContent = publicSite()

/**
 * The grid's works, a page at a time: the first as the page loads, the next when the visitor
 * nears the end of the grid or asks for more. Each page is a few KB whatever the catalogue's size.
 */
function usePublicVideos() {
  const [videos, setVideos] = useState<PublicVideo[]>([])
  const [loading, setLoading] = useState(true)
  const [next, setNext] = useState<string | null>(null)
  const [loadingMore, setLoadingMore] = useState(false)
  const controller = useRef<AbortController | null>(null)
  // The works shown as of the last render: 'Show more' reports how many a page added.
  const shown = useRef(videos)
  shown.current = videos

  useEffect(() => {
    const abort = new AbortController()
    controller.current = abort
    loadPublicPage(abort.signal)
      .then((page) => {
        // One transition swaps the placeholders for the tiles without blocking the thread.
        startTransition(() => {
          setVideos(page.videos)
          setNext(page.nextCursor)
          setLoading(false)
        })
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return
        // SPEC §8: logged only; the grid stays empty and the page carries on.
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

export function PublicPage() {
  // Started here, outside the boundary below, so the videos do not wait for the content.
  const grid = usePublicVideos()
  // The page draws once, with its content: no placeholder text that the real text then moves.
  return (
    <Suspense fallback={null}>
      <Page content={siteContent} grid={grid} />
    </Suspense>
  )
}

function Page(props: {
  content: Promise<PublicSite | null>
  grid: ReturnType<typeof usePublicVideos>
}) {
  const { grid } = props
  const site = use(props.content)

  return (
    <div className="min-h-screen bg-ink-950 font-sans text-paper antialiased selection:bg-accent selection:text-ink-950">
      <a
        href="#main"
        className="sr-only rounded-full bg-accent px-5 py-3 text-sm font-semibold text-ink-950 focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60]"
      >
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="outline-none">
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
      </main>
      <ContactFooter content={site?.contact ?? null} />
    </div>
  )
}
