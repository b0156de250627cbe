// What search engines and link previews read (record 052): /work/<slug> as the server-rendered
// page (public-pages.ts) with the work's own head (title, description, canonical URL, Open Graph, a Twitter player
// card and JSON-LD VideoObject), /work/<slug>/embed (the player that card frames), /sitemap.xml
// with video entries, and /robots.txt. An old slug redirects for good; an unknown or hidden work
// falls through to the landing page, as every unknown path does (docs/public-site.md).
import { BRAND } from '../schemas/brand.ts'
import { escapeHtml } from '../schemas/html.ts'
import { SLUG_PATTERN } from '../schemas/slug.ts'
import type { PublicVideoView, VideosService } from '../services/videos.ts'
import type { PublicPages } from './public-pages.ts'
import { scriptJson } from './public-pages.ts'
import { markSecured } from './security-headers.ts'

type Deps = {
  videos: Pick<VideosService, 'bySlug' | 'publicList'>
  publicUrl: string
  /** Renders a work's page around the head given here. */
  pages: Pick<PublicPages, 'work'>
}

const WORK_PATH = /^\/work\/([^/]+)(\/embed)?\/?$/

/** Seconds as ISO 8601 (schema.org's duration): 83.4 → PT1M23S. */
export function isoDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds))
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = whole % 60
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`
}

export function createWorkPages(deps: Deps) {
  const base = deps.publicUrl.replace(/\/+$/, '')
  const absolute = (path: string) => `${base}${path}`
  const describe = (video: PublicVideoView) =>
    video.description.trim() || `${video.title}: a work by ${BRAND.name}.`

  /** The head of a work's page: every tag a crawler or a link preview looks for. */
  function headFor(video: PublicVideoView): string {
    const url = absolute(`/work/${video.slug}`)
    const title = `${video.title} — ${BRAND.name}`
    const description = describe(video)
    const image = absolute(video.thumbnailUrl)
    // The MP4 once streams exist; until then the master, which is what visitors get too.
    const content = absolute(video.mp4Url ?? video.videoUrl)
    const width = video.width ?? 1280
    const height = video.height ?? 720
    const meta = (attr: 'name' | 'property', key: string, value: string | number) =>
      `<meta ${attr}="${key}" content="${escapeHtml(String(value))}" />`
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'VideoObject',
      name: video.title,
      description,
      thumbnailUrl: [image],
      uploadDate: video.createdAt,
      ...(video.duration !== null ? { duration: isoDuration(video.duration) } : {}),
      contentUrl: content,
      embedUrl: `${url}/embed`,
      url,
    }
    return [
      `<title>${escapeHtml(title)}</title>`,
      meta('name', 'description', description),
      `<link rel="canonical" href="${escapeHtml(url)}" />`,
      meta('property', 'og:type', 'video.other'),
      meta('property', 'og:site_name', BRAND.name),
      meta('property', 'og:title', video.title),
      meta('property', 'og:description', description),
      meta('property', 'og:url', url),
      meta('property', 'og:image', image),
      ...(video.mp4Url
        ? [
            meta('property', 'og:video', content),
            meta('property', 'og:video:type', 'video/mp4'),
            meta('property', 'og:video:width', width),
            meta('property', 'og:video:height', height),
          ]
        : []),
      meta('name', 'twitter:card', 'player'),
      meta('name', 'twitter:title', video.title),
      meta('name', 'twitter:description', description),
      meta('name', 'twitter:image', image),
      meta('name', 'twitter:player', `${url}/embed`),
      meta('name', 'twitter:player:width', width),
      meta('name', 'twitter:player:height', height),
      `<script type="application/ld+json">${scriptJson(ld)}</script>`,
    ].join('\n    ')
  }

  /** The player a Twitter card frames: the only answer that may be shown inside another site. */
  function embedPage(video: PublicVideoView): Response {
    const src = escapeHtml(video.mp4Url ?? video.videoUrl)
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>${escapeHtml(video.title)} — ${escapeHtml(BRAND.name)}</title><style>html,body{margin:0;height:100%;background:#000}video{width:100%;height:100%;object-fit:contain}</style></head><body><video controls playsinline preload="metadata" poster="${escapeHtml(video.thumbnailUrl)}" src="${src}" aria-label="${escapeHtml(video.title)}"></video></body></html>`
    return markSecured(
      new Response(html, {
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-cache',
          // Its own policy, complete: no script at all, media and images from here, any framer.
          'Content-Security-Policy':
            "default-src 'none'; media-src 'self'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *",
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'no-referrer',
        },
      }),
    )
  }

  async function sitemap(): Promise<Response> {
    const { videos } = await deps.videos.publicList()
    const tag = (name: string, value: string) => `<${name}>${escapeHtml(value)}</${name}>`
    const entries = videos.map((video) =>
      [
        '  <url>',
        `    ${tag('loc', absolute(`/work/${video.slug}`))}`,
        '    <video:video>',
        `      ${tag('video:thumbnail_loc', absolute(video.thumbnailUrl))}`,
        `      ${tag('video:title', video.title.slice(0, 100))}`,
        `      ${tag('video:description', describe(video).slice(0, 2048))}`,
        `      ${tag('video:content_loc', absolute(video.mp4Url ?? video.videoUrl))}`,
        `      ${tag('video:player_loc', absolute(`/work/${video.slug}/embed`))}`,
        ...(video.duration !== null
          ? [`      ${tag('video:duration', String(Math.max(1, Math.round(video.duration))))}`]
          : []),
        `      ${tag('video:publication_date', video.createdAt)}`,
        '    </video:video>',
        '  </url>',
      ].join('\n'),
    )
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">',
      `  <url>${tag('loc', absolute('/'))}</url>`,
      ...entries,
      '</urlset>',
      '',
    ].join('\n')
    return new Response(xml, {
      headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'no-cache' },
    })
  }

  function robots(): Response {
    const text = [
      'User-agent: *',
      'Allow: /',
      'Disallow: /dashboard',
      'Disallow: /auth/',
      'Disallow: /login',
      'Disallow: /api/',
      'Disallow: /trpc/',
      'Disallow: /uploads/',
      '',
      `Sitemap: ${absolute('/sitemap.xml')}`,
      '',
    ].join('\n')
    return new Response(text, {
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' },
    })
  }

  /** The answer for `pathname`, or null when it is none of these (the caller goes on). */
  return async function handleWorkPaths(req: Request, pathname: string): Promise<Response | null> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null
    if (pathname === '/sitemap.xml') return sitemap()
    if (pathname === '/robots.txt') return robots()
    const match = WORK_PATH.exec(pathname)
    const slug = match?.[1]
    if (!slug || !SLUG_PATTERN.test(slug)) return null
    const found = await deps.videos.bySlug(slug)
    if (!found) return null
    if ('redirect' in found) {
      const to = `/work/${found.redirect}${match[2] ?? ''}`
      return new Response(null, { status: 301, headers: { Location: to } })
    }
    return match[2]
      ? embedPage(found.video)
      : deps.pages.work(req, found.video, headFor(found.video))
  }
}
