// The public pages' server render
// (docs/decisions/053-public-pages-rendered-on-the-server-live-on-intent.md), built by Vite into
// web/dist-ssr/ with React inside it, and called by src/pages/public.ts with the values the API
// would answer. The data goes through the same parsers the browser uses (page-data.ts), so the tree
// the browser hydrates from the page's data is the tree rendered here.

import { escapeHtml } from '@contract/html.ts'
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { drawsExtended } from '../fonts/subsets.ts'
import { MOBILE_QUERY } from '../ui/breakpoint.ts'
import { heroSources } from './hero.tsx'
import { pageDataFrom } from './page-data.ts'
import { PublicApp } from './public-app.tsx'
import { ReviewPage } from './review-page.tsx'

/** Every face's ext file (scripts/fonts.ts), at the content-hashed URL the browser build gives it. */
const EXT_FONTS = Object.values(
  import.meta.glob<string>('../fonts/*-ext.woff2', {
    query: '?url',
    import: 'default',
    eager: true,
  }),
)

/**
 * The italic's core file, drawn by the landing page's hero line only: a work's page preloading it
 * too would spend 12 KB beside its poster, its largest image.
 */
const HERO_ITALIC = Object.values(
  import.meta.glob<string>('../fonts/instrument-serif-400-italic-core.woff2', {
    query: '?url',
    import: 'default',
    eager: true,
  }),
)

const fontPreload = (href: string) =>
  `<link rel="preload" as="font" type="font/woff2" href="${escapeHtml(href)}" crossorigin />`

/** The page's head additions and #root's markup; null when `raw` is not a page's data. */
export function render(raw: unknown): { head: string; body: string } | null {
  const data = pageDataFrom(raw)
  if (!data) return null
  const body = renderToString(
    <StrictMode>
      <PublicApp data={data} reviewPage={ReviewPage} />
    </StrictMode>,
  )
  // The hero picture is the first screen's largest image: the first source of each breakpoint,
  // fetched from the head, at high priority, as the <picture> in the body would pick it.
  const hero = data.kind === 'landing' ? data.site?.hero.images : undefined
  const heroPreloads = hero
    ? heroSources(hero)
        .filter((source, index, all) => all.findIndex((s) => s.media === source.media) === index)
        .map(
          (source) =>
            `<link rel="preload" as="image" type="${source.type}" fetchpriority="high" media="${escapeHtml(
              // The wide image's source has no media: it is whatever the mobile one is not.
              source.media ?? `not all and ${MOBILE_QUERY}`,
            )}" imagesrcset="${escapeHtml(source.srcSet)}" imagesizes="100vw" />`,
        )
        .join('\n    ')
    : ''
  // The head preloads each face's core file; text beyond it (an accented title, say) needs the
  // ext files from the first layout too, or `font-display: optional` draws it in the fallback.
  const fonts = [
    ...(data.kind === 'landing' ? HERO_ITALIC : []),
    ...(drawsExtended(body) ? EXT_FONTS : []),
  ]
  const fontPreloads = fonts.map(fontPreload).join('\n    ')
  return { head: [heroPreloads, fontPreloads].filter(Boolean).join('\n    '), body }
}
