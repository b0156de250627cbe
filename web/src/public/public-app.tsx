// The public pages as one tree, drawn from a page's data: what the server renders and what the
// browser hydrates (or draws, where no server render came with the page).
import { useEffect } from 'react'
import type { PageData } from './page-data.ts'
import { PublicPage } from './public-page.tsx'
import type { ReviewPage } from './review-page.tsx'
import { WorkPage } from './work-page.tsx'

type Props = {
  /** null: a page the server did not fill (the landing page, which asks for its own data). */
  data: PageData | null
  /** Told once the tree is in the document (hydrated or drawn). */
  onMounted?: () => void
  /**
   * The review page, for a review link's data: its notes (and their forms) are given only where
   * they are drawn, so the landing page and a work's page never load them (see mount.tsx).
   */
  reviewPage?: typeof ReviewPage
}

export function PublicApp({ data, onMounted, reviewPage: Review }: Props) {
  useEffect(() => onMounted?.(), [onMounted])
  if (data?.kind === 'review') {
    // Never without it: mount.tsx and the server render both give it for a review link's data.
    return Review ? <Review video={data.video} versions={data.versions} /> : null
  }
  if (data?.kind === 'work') return <WorkPage video={data.video} site={data.site} />
  return <PublicPage initial={data ?? undefined} />
}
