// The public one-page portfolio (SPEC §2): header, hero, clients, work, about, contact.
import { Suspense, startTransition, use, useEffect, useState } from 'react'
import { About } from './About.tsx'
import { Clients } from './Clients.tsx'
import { ContactFooter } from './ContactFooter.tsx'
import { Header } from './Header.tsx'
import { Hero } from './Hero.tsx'
import { loadPublicVideos, type PublicVideo } from './publicVideos.ts'
import { type PublicSite, publicSite } from './siteContent.ts'
import { Work } from './Work.tsx'

// Asked for as soon as this module loads (index.html's preload has it on the way already).
const siteContent = publicSite()

function usePublicVideos() {
  const [videos, setVideos] = useState<PublicVideo[]>([])
  const [loading, setLoading] = useState(true)

  useEffect(() => {
    const controller = new AbortController()
    loadPublicVideos(controller.signal)
      .then((list) => {
        // One transition swaps the placeholders for the tiles without blocking the thread.
        startTransition(() => {
          setVideos(list)
          setLoading(false)
        })
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        // SPEC §8: logged only; the grid stays empty and the page carries on.
        console.error('Could not load the public videos', error)
        setLoading(false)
      })
    return () => controller.abort()
  }, [])

  return { videos, loading }
}

export function PublicPage() {
  // Started here, outside the boundary below, so the videos do not wait for the content.
  const { videos, loading } = usePublicVideos()
  // The page draws once, with its content: no placeholder text that the real text then moves.
  return (
    <Suspense fallback={null}>
      <Page content={siteContent} videos={videos} loading={loading} />
    </Suspense>
  )
}

function Page(props: {
  content: Promise<PublicSite | null>
  videos: PublicVideo[]
  loading: boolean
}) {
  const { videos, loading } = props
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
        <Work videos={videos} loading={loading} />
        <About content={site?.about ?? null} />
      </main>
      <ContactFooter content={site?.contact ?? null} />
    </div>
  )
}
