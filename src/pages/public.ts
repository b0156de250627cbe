// The public pages as HTML that already holds them: the landing page (also, with status 404 and
// `noindex`, for every address that names nothing) and a work's page, rendered from the database by the web app's own
// components (web/src/public/server.tsx, built into web/dist-ssr/), inside the built index.html,
// with the data they were rendered from for the browser to hydrate. Each page is kept as bytes
// (and its br/gzip twins) until the next change to the site's content or to the videos, and
// revalidates by ETag. Without the render bundle (the dev server, a build that lacks it) a page
// still carries its data, and the browser draws it.
import { readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { putInPlace } from '../contract/html.ts'
import { LANDING_PAGE_SIZE, PAGE_DATA_ID } from '../contract/public-page.ts'
import { logUnexpected } from '../db/errors.ts'
import { AnswerCache } from '../http/response-cache.ts'
import { markSecured, type SecurityHeaders } from '../http/security-headers.ts'
import type { SiteService } from '../site/content.ts'
import type { PublicVideoView, VideosService } from '../videos/index.ts'

type Deps = {
  site: Pick<SiteService, 'publicSite' | 'version'>
  videos: Pick<VideosService, 'publicList' | 'version'>
  /** The browser build (index.html) and the server render's build beside it. */
  webDist: string
  ssrDist: string
  security: SecurityHeaders
}

type Render = (raw: unknown) => { head: string; body: string } | null

/** Tags a page adds to the shell's head: `own` in place of its title and description. */
type PageHead = { own?: string; added?: string }

/** JSON inside a <script> element: nothing in it can close the element. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/** A file read again only when a new build replaced it (its mtime is part of every cache key). */
function builtFile<T>(path: string, load: (path: string) => T | Promise<T>) {
  let kept: { mtimeMs: number; value: Promise<T | null> } | null = null
  return (): { mtimeMs: number; value: Promise<T | null> } | null => {
    let mtimeMs: number
    try {
      mtimeMs = statSync(path).mtimeMs
    } catch {
      return null
    }
    if (kept?.mtimeMs !== mtimeMs) {
      const value = Promise.resolve()
        .then(() => load(path))
        .catch((error: unknown) => {
          logUnexpected('public-pages', error)
          return null
        })
      kept = { mtimeMs, value }
    }
    return kept
  }
}

export type PublicPages = ReturnType<typeof createPublicPages>

export function createPublicPages(deps: Deps) {
  const shell = builtFile(join(deps.webDist, 'index.html'), (path) => readFileSync(path, 'utf8'))
  // A query on the URL makes a rebuilt bundle a new module rather than the one imported before.
  const renderer = builtFile(resolve(deps.ssrDist, 'server.js'), async (path) => {
    const module = (await import(`${path}?v=${statSync(path).mtimeMs}`)) as { render?: Render }
    if (typeof module.render !== 'function') throw new Error(`${path} exports no render()`)
    return module.render
  })
  const pages = new AnswerCache(() => deps.site.version() + deps.videos.version(), {
    finish: (res) => deps.security.secure(res),
    served: markSecured,
  })

  /**
   * The shell with the page's head additions, its markup (when rendered) and its data. `own`
   * replaces the shell's title and description; `added` goes beside them. Every piece goes in
   * through putInPlace: stored text in it is never read as a replacement pattern.
   */
  async function compose(html: string, raw: unknown, head: PageHead): Promise<string> {
    const render = await renderer()?.value
    let rendered: ReturnType<Render> = null
    try {
      rendered = render ? render(raw) : null
    } catch (error) {
      // The page is still whole without its markup: the browser draws it from the data.
      logUnexpected('public-pages', error)
    }
    let page = html
    if (head.own) {
      page = putInPlace(page, /<title>[\s\S]*?<\/title>/, '')
      page = putInPlace(page, /<meta\s+name="description"[\s\S]*?\/>/, '')
    }
    const added = [head.own, head.added, rendered?.head].filter(Boolean).join('\n    ')
    if (added) page = putInPlace(page, '</head>', `  ${added}\n  </head>`)
    const data = `<script type="application/json" id="${PAGE_DATA_ID}">${scriptJson(raw)}</script>`
    return putInPlace(
      page,
      '<div id="root"></div>',
      rendered
        ? `<div id="root" data-rendered="">${rendered.body}</div>\n    ${data}`
        : `<div id="root"></div>\n    ${data}`,
    )
  }

  async function answer(
    req: Request,
    key: string,
    data: () => Promise<unknown>,
    head: PageHead = {},
  ): Promise<Response | null> {
    const built = shell()
    const html = await built?.value
    if (!built || !html) return null
    try {
      return await pages.answer(
        `${key}@${built.mtimeMs}:${renderer()?.mtimeMs ?? 0}`,
        req,
        async () =>
          new Response(await compose(html, await data(), head), {
            headers: { 'Content-Type': 'text/html; charset=utf-8' },
          }),
        // Revalidated on every visit (a 304 while nothing changed): an edit shows at once.
        'no-cache',
      )
    } catch (error) {
      // The database could not give the page's data: the plain shell, whose script asks again.
      logUnexpected('public-pages', error)
      return null
    }
  }

  const site = () => deps.site.publicSite()

  const landingData = async () => ({
    kind: 'landing',
    site: await site(),
    videos: await deps.videos.publicList({ limit: LANDING_PAGE_SIZE }),
  })

  return {
    /** The landing page with its first works, as GET /api/public/videos?limit=12 gives them. */
    landing: (req: Request) => answer(req, 'landing', landingData),

    /**
     * What an address that names nothing answers: the landing page, so a visitor still lands
     * somewhere, with status 404 and `noindex`, so a search engine drops it (a deleted work's
     * page included) instead of keeping it as a copy of `/`. Never a 304: a revalidation would
     * turn the 404 back into the page it was cached as.
     */
    async missing(req: Request): Promise<Response | null> {
      const page = await answer(unconditional(req), 'missing', landingData, { added: NOINDEX })
      return page && notFound(page)
    },

    /**
     * A review link's page as HTML (src/pages/review.ts), never kept: it is one link's, and
     * its caller answers it. `own` replaces the shell's title and description; null without a
     * built shell.
     */
    async review(
      raw: { kind: 'review'; video: unknown; versions?: unknown },
      own: string,
    ): Promise<string | null> {
      const html = await shell()?.value
      if (!html) return null
      // The page shows nothing else of the site, but its player levels by the site's reference.
      const loudnessReference = (await site()).playback.loudnessReference
      return compose(html, { ...raw, loudnessReference }, { own })
    },

    /** A work's page; `own` replaces the shell's title and description. */
    work: (req: Request, video: PublicVideoView, own: string) =>
      answer(req, `work:${video.slug}`, async () => ({ kind: 'work', site: await site(), video }), {
        own,
      }),
  }
}

/** Tells crawlers not to keep a page, in its head; notFound() says it again as a header. */
export const NOINDEX = '<meta name="robots" content="noindex" />'

/** `req` without the validators that could make its answer a 304. */
export function unconditional(req: Request): Request {
  const headers = new Headers(req.headers)
  headers.delete('if-none-match')
  headers.delete('if-modified-since')
  return new Request(req.url, { method: req.method, headers })
}

/** `page` as a 404 that no search engine indexes, without the validators of a page that exists. */
export function notFound(page: Response): Response {
  const headers = new Headers(page.headers)
  headers.delete('ETag')
  headers.delete('Last-Modified')
  headers.set('X-Robots-Tag', 'noindex')
  return new Response(page.body, { status: 404, headers })
}
