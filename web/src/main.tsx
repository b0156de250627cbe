/// <reference types="vite/client" />
// The one web entry: the public page renders at once; the dashboard is a separate chunk that
// only dashboard and auth paths download.
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { PublicPage } from './public/PublicPage.tsx'
import './styles.css'

const rootElement = document.getElementById('root')
if (!rootElement) throw new Error('index.html has no #root element')

if (/^\/(dashboard|auth|login|reset-password)(\/|$)/.test(location.pathname)) {
  import('./app/mount.tsx').then((m) => m.mountApp(rootElement))
} else if (document.getElementById('work-data')) {
  // A work's page (/work/<slug>, the server put the work in it): a chunk of its own, so the
  // landing page's first JavaScript does not carry it.
  import('./public/WorkPage.tsx').then((m) => m.mountWorkPage(rootElement))
} else {
  // The landing page, also for any unknown path (SPEC §2). A transition lets React split the
  // first render into short slices, keeping a slow phone's main thread free between them.
  const root = createRoot(rootElement)
  startTransition(() => {
    root.render(
      <StrictMode>
        <PublicPage />
      </StrictMode>,
    )
  })
}
