// What search engines and link previews read: /work/<slug> as the server-rendered page
// (public.ts) with the work's own head (title, description, canonical URL, Open Graph, a
// Twitter player card and one JSON-LD VideoObject), /work/<slug>/embed (the player that card
// frames), /sitemap.xml with video entries, and /robots.txt. An old slug redirects for good; an
// address that shows no work (unknown, deleted, hidden, failed, without streams yet, malformed) is
// the landing page as a 404.
import { createHash } from 'node:crypto'
import { BRAND } from '../contract/brand.ts'
import { escapeHtml } from '../contract/html.ts'
import { playbackGainDb } from '../contract/loudness.ts'
import { CANNOT_PLAY } from '../contract/public-page.ts'
import { SLUG_PATTERN } from '../contract/slug.ts'
import { markSecured } from '../http/security-headers.ts'
import type { SiteService } from '../site/content.ts'
import { mp4Size } from '../storage/layout.ts'
import type { PublicVideoView, VideosService } from '../videos/index.ts'
import type { PublicPages } from './public.ts'
import { scriptJson } from './public.ts'

type Deps = {
  videos: Pick<VideosService, 'bySlug' | 'publicList'>
  /** The loudness reference the embed's player levels by. */
  site: Pick<SiteService, 'publicSite'>
  publicUrl: string
  /** Renders a work's page around the head given here, and the 404 page. */
  pages: Pick<PublicPages, 'work' | 'missing'>
  /** Where the embed's media and images may load from (its own policy names them). */
  mediaSources: string
}

const WORK_PATH = /^\/work\/([^/]+)(\/embed)?\/?$/

/**
 * The embed's only script, sent only with a work to turn down
 * (docs/decisions/071-loudness-levelled-at-playback-by-element-volume.md): the planned gain as the
 * element's volume, and the gain applied (0 where the volume cannot be set, as on iOS) where the
 * site's other players say it. Allowed by its hash alone.
 */
const LEVEL_SCRIPT =
  "for(const v of document.querySelectorAll('video[data-loudness-level-db]')){const w=Math.min(1,10**(Number(v.dataset.loudnessLevelDb)/20));try{v.volume=w}catch{}v.setAttribute('data-loudness-gain-db',Math.abs(v.volume-w)<0.001?v.dataset.loudnessLevelDb:'0')}"
const LEVEL_SCRIPT_HASH = `'sha256-${createHash('sha256').update(LEVEL_SCRIPT).digest('base64')}'`

/**
 * The embed's other script, in every embed: a framing page may outlive the work's files (a
 * reprocess replaced them, the work was hidden or deleted). On the player's first error it asks for
 * this embed again and takes its video if it names another file; otherwise, or when that fails too,
 * it says the video cannot play instead of leaving a player that silently does nothing
 * (docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md). Allowed by its hash alone.
 */
const RECOVER_SCRIPT =
  "const v=document.querySelector('video'),m=document.getElementById('cannot-play');let tried=false,wanted=false;v.addEventListener('play',()=>{wanted=true});v.addEventListener('error',async()=>{if(!tried){tried=true;try{const r=await fetch(location.href,{cache:'no-cache'});if(r.ok){const n=new DOMParser().parseFromString(await r.text(),'text/html').querySelector('video');const s=n&&n.getAttribute('src');if(s&&new URL(s,location.href).href!==v.src){v.innerHTML=n.innerHTML;v.poster=n.getAttribute('poster')||'';v.src=s;if(wanted)v.play().catch(()=>{});return}}}catch{}}v.removeAttribute('controls');m.hidden=false})"
const RECOVER_SCRIPT_HASH = `'sha256-${createHash('sha256').update(RECOVER_SCRIPT).digest('base64')}'`

/**
 * The frame size of what the page's player and `og:video` play: the MP4's, which the ladder
 * made from the source's displayed size (a 1080p master gives a 720p MP4); the master's own
 * until the MP4 exists; 16:9 before the master was probed.
 */
export function playedSize(video: Pick<PublicVideoView, 'mp4Url' | 'width' | 'height'>) {
  if (video.width === null || video.height === null) return { width: 1280, height: 720 }
  const source = { width: video.width, height: video.height }
  return video.mp4Url ? mp4Size(source) : source
}

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
    // A shown work has streams: its public `videoUrl` is the MP4, never the master.
    const content = absolute(video.videoUrl)
    const { width, height } = playedSize(video)
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
  async function embedPage(video: PublicVideoView): Promise<Response> {
    const src = escapeHtml(video.videoUrl)
    const reference = (await deps.site.publicSite()).playback.loudnessReference
    const gain = playbackGainDb(video.loudness?.integrated ?? null, reference)
    const level = gain < 0 ? ` data-loudness-level-db="${gain}"` : ' data-loudness-gain-db="0"'
    const script = `${gain < 0 ? `<script>${LEVEL_SCRIPT}</script>` : ''}<script>${RECOVER_SCRIPT}</script>`
    const hashes = gain < 0 ? `${LEVEL_SCRIPT_HASH} ${RECOVER_SCRIPT_HASH}` : RECOVER_SCRIPT_HASH
    // The work's captions for the player's CC menu (the MP4 carries none of its own).
    const tracks = video.captions
      .map(
        (c) =>
          `<track kind="subtitles" srclang="${escapeHtml(c.language)}" label="${escapeHtml(c.label)}" src="${escapeHtml(c.url)}" />`,
      )
      .join('')
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>${escapeHtml(video.title)} — ${escapeHtml(BRAND.name)}</title><style>html,body{margin:0;height:100%;background:#000}video{width:100%;height:100%;object-fit:contain}#cannot-play{position:fixed;left:50%;top:50%;transform:translate(-50%,-50%);box-sizing:border-box;max-width:90%;margin:0;padding:16px 20px;border-radius:2px;background:rgba(8,8,10,.85);color:#fff;font:16px/1.4 system-ui,sans-serif;text-align:center}</style></head><body><video controls playsinline preload="metadata" poster="${escapeHtml(video.thumbnailUrl)}" src="${src}" aria-label="${escapeHtml(video.title)}"${level}>${tracks}</video><p id="cannot-play" role="alert" hidden>${escapeHtml(CANNOT_PLAY)}</p>${script}</body></html>`
    return markSecured(
      new Response(html, {
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-cache',
          // Its own policy, complete: media and images from here, any framer, no script but its
          // own by their hashes, and no request but for this embed again.
          'Content-Security-Policy': `default-src 'none'; media-src ${deps.mediaSources}; img-src ${deps.mediaSources}; style-src 'unsafe-inline'; script-src ${hashes}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *`,
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
        `      ${tag('video:content_loc', absolute(video.videoUrl))}`,
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
    if (!match) return null
    const slug = match[1]!
    const found = SLUG_PATTERN.test(slug) ? await deps.videos.bySlug(slug) : null
    if (!found) return notShown(req)
    if ('redirect' in found) {
      const to = `/work/${found.redirect}${match[2] ?? ''}`
      return new Response(null, { status: 301, headers: { Location: to } })
    }
    return match[2]
      ? embedPage(found.video)
      : deps.pages.work(req, found.video, headFor(found.video))
  }

  /**
   * The one answer for a work address that shows nothing to this visitor: no such work, one
   * deleted, hidden, failed or still without streams (bySlug gives only shown works), or no valid
   * slug at all. The landing page as a 404; null (the caller's own 404) when the page cannot be
   * made.
   */
  function notShown(req: Request): Promise<Response | null> {
    return deps.pages.missing(req)
  }
}
