// The frame of the public pages: the site's dark theme around every one of them; the site's own
// pages (the landing page, a work's page) add the skip link, the studio's header, the main
// landmark and the contact footer.
import { type ReactNode, Suspense, use } from 'react'
import { ContactFooter } from './contact-footer.tsx'
import { Header } from './header.tsx'
import { type PublicSite, publicSite } from './site-content.ts'

export function PageShell({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-ink-950 font-sans text-paper antialiased selection:bg-accent selection:text-ink-950">
      {children}
    </div>
  )
}

/**
 * `away`: a page other than the landing page (the header's links lead back to it). `site`: the
 * content the page was rendered with; when not given, the footer asks for it.
 */
export function SiteShell({
  away,
  site,
  children,
}: {
  away?: boolean
  site?: PublicSite | null
  children: ReactNode
}) {
  return (
    <PageShell>
      <a
        href="#main"
        className="sr-only rounded-full bg-accent px-5 py-3 text-sm font-semibold text-ink-950 focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60]"
      >
        Skip to content
      </a>
      <Header away={away} />
      <main id="main" tabIndex={-1} className="outline-none">
        {children}
      </main>
      {site === undefined ? (
        <Suspense fallback={null}>
          <FetchedFooter />
        </Suspense>
      ) : (
        <ContactFooter content={site?.contact ?? null} />
      )}
    </PageShell>
  )
}

function FetchedFooter() {
  return <ContactFooter content={use(publicSite())?.contact ?? null} />
}
