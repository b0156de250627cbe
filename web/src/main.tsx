/// <reference types="vite/client" />
// The one web entry, and the public pages' whole first script: it carries no React. The dashboard
// is a chunk that only dashboard and auth paths download; a public page the server rendered
// becomes live on the visitor's first intent (public/on-intent.ts), a review link's page at once;
// one it did not render (the dev server's) is drawn at once.
import { isAppPath } from '@contract/public-page.ts'
import { liveOnIntent } from './public/on-intent.ts'
import { startAhead } from './public/start-ahead.ts'
import './public.css'

const rootElement = document.getElementById('root')
if (!rootElement) throw new Error('index.html has no #root element')

const mountPublic = (hydrate: boolean) =>
  import('./public/mount.tsx').then((m) => m.mountPublic(rootElement, hydrate))

if (isAppPath(location.pathname)) {
  import('./app/mount.tsx').then((m) => m.mountApp(rootElement))
} else if (rootElement.dataset.rendered !== undefined) {
  // A review link's page goes live at once: its client came to work on it, and its notes are
  // read as soon as it opens (public/review-notes.tsx). Its own chunk comes first, so a tap on
  // its player before then is held and told again once it is live, as on the other pages.
  liveOnIntent(rootElement, () => mountPublic(true), { now: location.pathname.startsWith('/r/') })
  startAhead(rootElement)
} else {
  // The landing page also stands for any unknown path (the server answers it as a 404).
  void mountPublic(false)
  startAhead(rootElement)
}
