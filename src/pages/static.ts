// The built web app: hashed assets (scripts, styles, fonts) cached for a year, everything else
// revalidated by ETag and Last-Modified; the plain index.html for the dashboard app's paths; `/`
// as the server-rendered landing page; any other path the landing page too, so a visitor still
// lands somewhere, but as a 404 with `noindex`, so search engines keep no copy of it. A missing
// file in one of the build's own asset folders is a bare 404.
import { existsSync, type Stats, statSync } from 'node:fs'
import { join, normalize, resolve } from 'node:path'
import { BRAND } from '../contract/brand.ts'
import { isAppPath } from '../contract/public-page.ts'
import { ENCODED, type Encoded, matchesNoneMatch, negotiate } from '../http/compress.ts'
import { notFound, unconditional } from './public.ts'

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${BRAND.name}</title></head>
<body><main><h1>${BRAND.name}</h1><p>The web app is not built yet: run <code>bun run build</code>.</p></main></body></html>`

const IMMUTABLE = 'public, max-age=31536000, immutable'
// The build writes these beside each text file (web/vite.config.ts, `precompress`).
const TWIN_EXTENSION: Record<Encoded, string> = { br: '.br', gzip: '.gz' }

// Inside the build's asset folders a path names a file, never a page: in place of a missing one
// (an old hashed chunk after a deploy) the app's HTML would be a script the browser refuses, with
// status 200. Everywhere else an unknown path is the landing page. `/fonts/`
// held the fonts before Vite hashed them into /assets/; an old page may still ask there.
const ASSET_FOLDER = /^\/(assets|fonts|hero|clients)\//

type Page = (req: Request) => Promise<Response | null>

/**
 * `pages`: the landing page as the server renders it (public.ts), as itself for `/` and as
 * a 404 for every other path that is not a file, an asset folder or one of the app's; where one
 * answers null, the plain index.html stands in (with the same status).
 */
export function createStaticHandler(distDir: string, pages?: { landing: Page; missing: Page }) {
  const root = resolve(distDir)
  const indexPath = join(root, 'index.html')

  return async function serveStatic(req: Request): Promise<Response> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, HEAD' } })
    }
    const raw = new URL(req.url).pathname
    let pathname: string
    try {
      pathname = decodeURIComponent(raw)
    } catch {
      // Not a path anything here has: the same 404 as any other.
      pathname = raw
    }
    const filePath = resolve(root, `.${normalize(`/${pathname}`)}`)
    if (filePath.startsWith(`${root}/`) && isFile(filePath)) {
      // Vite names everything under /assets/ by its content hash: a new file gets a new URL.
      const immutable = pathname.startsWith('/assets/')
      return fileResponse(req, filePath, immutable ? IMMUTABLE : 'no-cache')
    }
    if (ASSET_FOLDER.test(pathname)) {
      return new Response('Not found', {
        status: 404,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' },
      })
    }
    // Undecoded, as the browser's script reads location.pathname to choose the app.
    if (isAppPath(raw)) return shell(req)
    if (pathname === '/') return (await pages?.landing(req)) ?? shell(req)
    return (await pages?.missing(req)) ?? notFound(shell(unconditional(req)))
  }

  /** The app's index.html (the placeholder before a build). */
  function shell(req: Request): Response {
    if (!existsSync(indexPath)) {
      return new Response(PLACEHOLDER, { headers: { 'Content-Type': 'text/html; charset=utf-8' } })
    }
    return fileResponse(req, indexPath, 'no-cache')
  }
}

/**
 * The file, or its build-time .br/.gz twin when the client accepts that encoding, with validators
 * of the bytes actually sent, so a revalidation of an unchanged file is a 304 without a body.
 */
function fileResponse(req: Request, filePath: string, cacheControl: string): Response {
  const headers: Record<string, string> = {
    'Content-Type': Bun.file(filePath).type,
    'Cache-Control': cacheControl,
  }
  let sent = filePath
  let stats = fileStats(filePath)!
  const twins = new Map<Encoded, Stats>()
  for (const coding of ENCODED) {
    const twin = fileStats(filePath + TWIN_EXTENSION[coding])
    if (twin) twins.set(coding, twin)
  }
  if (twins.size > 0) {
    headers.Vary = 'Accept-Encoding'
    const coding = negotiate(req.headers.get('accept-encoding'), [...twins.keys()])
    if (coding !== 'identity') {
      sent = filePath + TWIN_EXTENSION[coding]
      stats = twins.get(coding)!
      headers['Content-Encoding'] = coding
    }
  }
  const etag = `W/"${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}${
    headers['Content-Encoding'] ? `-${headers['Content-Encoding']}` : ''
  }"`
  headers.ETag = etag
  headers['Last-Modified'] = stats.mtime.toUTCString()
  if (notModified(req, etag, stats)) {
    const { 'Content-Type': _type, 'Content-Encoding': _encoding, ...kept } = headers
    return new Response(null, { status: 304, headers: kept })
  }
  return new Response(Bun.file(sent), { headers })
}

/** RFC 9110 §13.1: If-None-Match (weak comparison) wins; If-Modified-Since only without it. */
function notModified(req: Request, etag: string, stats: Stats): boolean {
  const noneMatch = req.headers.get('if-none-match')
  if (noneMatch !== null) return matchesNoneMatch(noneMatch, etag)
  const since = Date.parse(req.headers.get('if-modified-since') ?? '')
  // HTTP dates have whole seconds.
  return Number.isFinite(since) && Math.floor(stats.mtimeMs / 1000) * 1000 <= since
}

function fileStats(p: string): Stats | undefined {
  try {
    const stats = statSync(p)
    return stats.isFile() ? stats : undefined
  } catch {
    return undefined
  }
}

function isFile(p: string): boolean {
  return fileStats(p) !== undefined
}
