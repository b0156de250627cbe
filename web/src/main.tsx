/// <reference types="vite/client" />
// The one web entry: the public page renders at once; the dashboard is a separate chunk that
// only dashboard and auth paths download.
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { PublicPage } from './public/PublicPage.tsx'
import { WorkPage, workInPage } from './public/WorkPage.tsx'
import './styles.css'

const rootElement = document.getElementById('root')
if (!rootElement) throw new Error('index.html has no #root element')

if (/^\/(dashboard|auth|login|reset-password)(\/|$)/.test(location.pathname)) {
  import('./app/mount.tsx').then((m) => m.mountApp(rootElement))
} else {
  // A work's page when the server put a work in it (/work/<slug>); otherwise the landing page,
  // also for any unknown path (SPEC §2).
  const work = location.pathname.startsWith('/work/') ? workInPage() : null
  // A transition lets React split the first render into short slices, keeping a slow phone's
  // main thread free between them (lower Total Blocking Time).
  const root = createRoot(rootElement)
  startTransition(() => {
    root.render(<StrictMode>{work ? <WorkPage video={work} /> : <PublicPage />}</StrictMode>)
  })
}
