// Puts the public pages' React tree on #root: hydrating the server's markup, or drawing it where
// the page came without one. A chunk of its own, so the first script of a public page is small.
import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { setLoudnessReference } from '../player/loudness.ts'
import { markLive } from './liveness.ts'
import { loudnessReferenceOf, readPageData } from './page-data.ts'
import { PublicApp } from './public-app.tsx'
import { publicSite } from './site-content.ts'

/** Resolves once the tree is live (its effects have run): a click held until then may go on. */
export function mountPublic(rootElement: HTMLElement, hydrate: boolean): Promise<void> {
  const data = readPageData()
  setLoudnessReference(loudnessReferenceOf(data))
  // A page without the server's data asks for the content anyway (the same single request).
  if (!data) {
    void publicSite().then((site) => {
      if (site) setLoudnessReference(site.playback.loudnessReference)
    })
  }
  // A review link's page brings its own chunk (the notes and their forms), before the tree is
  // hydrated, so the landing page and a work's page never load it.
  const reviewPage =
    data?.kind === 'review'
      ? import('./review-page.tsx').then((module) => module.ReviewPage)
      : Promise.resolve(undefined)
  return reviewPage.then(
    (ReviewPage) =>
      new Promise<void>((resolve) => {
        const app = (
          <StrictMode>
            <PublicApp
              data={data}
              reviewPage={ReviewPage}
              onMounted={() => {
                markLive()
                resolve()
              }}
            />
          </StrictMode>
        )
        if (hydrate && data) {
          hydrateRoot(rootElement, app, {
            // A mismatch means the server's markup was not this tree's: React redraws it; say so.
            onRecoverableError: (error) => console.error('Hydration fell back to a redraw', error),
          })
        } else {
          createRoot(rootElement).render(app)
        }
      }),
  )
}
