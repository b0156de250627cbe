// The path table of docs/api.md: which entry answers a request, and what every answer gets on
// its way out (security headers, no-store for API answers, compression). Who may call what is
// not decided here: procedures declare it (src/api/trpc.ts), src/api/policy.ts reads it for the
// answer cache, and entries outside tRPC call the one session guard (src/accounts/guard.ts).
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import { refusalFor } from '../accounts/guard.ts'
import type { Config } from '../config.ts'
import type { Database } from '../db/database.ts'
import { logUnexpected } from '../db/errors.ts'
import { AppError } from '../errors.ts'
import { readCapped } from '../http/body.ts'
import { clientAddressResolver } from '../http/client-ip.ts'
import { compressAnswer } from '../http/compress.ts'
import { pathnameOf } from '../http/pathname.ts'
import { fail } from '../http/respond.ts'
import { AnswerCache } from '../http/response-cache.ts'
import { markSecured, NO_STORE, securityHeaders } from '../http/security-headers.ts'
import { handleMediaPaths, type MediaAccess } from '../media/serve.ts'
import { appChecks, createHealth } from '../ops/health.ts'
import { createMetrics } from '../ops/metrics.ts'
import { createPublicPages } from '../pages/public.ts'
import { createReviewPages } from '../pages/review.ts'
import { createStaticHandler } from '../pages/static.ts'
import { createWorkPages } from '../pages/work.ts'
import type { MediaQueue } from '../processing/queue.ts'
import type { Services } from '../services.ts'
import { handleUploadPaths, type UploadPathsDeps } from '../uploads/http.ts'
import { createContext } from './context.ts'
import { type ProcedurePolicy, policyOf } from './policy.ts'
import { handleRest, restRouteOf } from './rest/index.ts'
import { appRouter } from './routers/index.ts'

/**
 * The route label of a request: the REST pattern (`/api/videos/:id`), the tRPC procedure, or a
 * family (`/uploads`, `/media`, `/work/:slug`, `static`). Unknown names collapse into one value.
 */
function routeOf(method: string, pathname: string): string {
  if (pathname === '/healthz' || pathname === '/metrics' || pathname === '/') return pathname
  if (pathname === '/trpc' || pathname.startsWith('/trpc/')) {
    const names = pathname.slice('/trpc/'.length).split(',')
    if (names.length > 1) return '/trpc/(batch)'
    return policyOf(names[0] ?? '') ? `/trpc/${names[0]}` : '/trpc/(unknown)'
  }
  if (pathname === '/uploads' || pathname.startsWith('/uploads/')) return '/uploads'
  if (pathname.startsWith('/media/')) return '/media'
  if (pathname === '/api' || pathname.startsWith('/api/')) {
    return restRouteOf(method, pathname) ?? '/api/(unknown)'
  }
  if (pathname.startsWith('/work/')) {
    return pathname.endsWith('/embed') ? '/work/:slug/embed' : '/work/:slug'
  }
  return 'static'
}

export const TRPC_MAX_BATCH = 10
const TRPC_BODY_LIMIT = 256 * 1024

/**
 * `clientIp` is the socket's peer address (X-Forwarded-For counts only behind TRUSTED_PROXIES);
 * it may be a function: it is asked only by the calls that need it (rate limits).
 * `closeIfIdle` closes the request's connection once it goes quiet (tus lock hand-over).
 */
export type AppFetch = (
  req: Request,
  clientIp?: string | (() => string),
  closeIfIdle?: () => void,
) => Promise<Response>

// The visitors' list is one answer for everyone, kept with a public Cache-Control, only while its
// procedure says it is public and cacheable.
const publicList = policyOf('videos.publicList')
const SHARED_PUBLIC_LIST = publicList?.access === 'public' && publicList.cache === 'videos'

export function createPaths(deps: {
  config: Config
  database: Database
  services: Services
  queue: MediaQueue
}): AppFetch {
  const { config, database, services, queue } = deps
  const security = securityHeaders(config.mediaPublicUrl)
  const health = createHealth(appChecks({ database, media: services.media, queue }))
  const metrics = createMetrics({ token: config.metricsToken, queue, routeOf })
  const uploadDeps: UploadPathsDeps = {
    uploads: services.uploads,
    requireSession: services.sessions.requireSession,
  }
  const pages = createPublicPages({
    site: services.site,
    videos: services.videos,
    webDist: config.webDist,
    ssrDist: config.ssrDist,
    security,
  })
  const serveStatic = createStaticHandler(config.webDist, pages)
  const workPages = createWorkPages({
    videos: services.videos,
    site: services.site,
    publicUrl: config.publicUrl,
    pages,
    mediaSources: security.mediaSources,
  })
  const clientAddress = clientAddressResolver(config.trustedProxies)

  async function trpc(req: Request, clientIp: () => string): Promise<Response> {
    // tRPC decodes the procedure path itself and answers 500 when that throws.
    try {
      decodeURIComponent(new URL(req.url).pathname)
    } catch {
      throw new AppError('NOT_FOUND', 'Not found')
    }
    // tRPC reads the whole body; cap it before it does.
    let request = req
    if (req.method === 'POST') {
      const body = await readCapped(req, TRPC_BODY_LIMIT)
      request = new Request(req.url, { method: 'POST', headers: req.headers, body })
    }
    return fetchRequestHandler({
      endpoint: '/trpc',
      req: request,
      router: appRouter,
      maxBatchSize: TRPC_MAX_BATCH,
      createContext: () => createContext(services, req, clientIp),
      onError({ error }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') logUnexpected('trpc', error)
      },
    })
  }

  // A stored answer gets the Cache-Control its caller asks for; refusals on the way are not kept.
  // Admins' video answers count open notes: a note moves the version as a video change does.
  const answers = new AnswerCache(
    () => services.videos.version() + services.reviewNotes.version(),
    {
      finish: (res) => security.secure(res, NO_STORE),
      served: markSecured,
    },
  )

  /**
   * GET queries whose procedures declare `cache: 'videos'` depend only on their URL and the
   * videos' version, so their bytes are reused; the caller's access is still checked on every
   * request, against what each procedure declares, and anything refused goes to tRPC to answer.
   */
  async function cachedTrpc(req: Request, pathname: string, clientIp: () => string) {
    if (req.method !== 'GET') return null
    const policies = pathname.slice('/trpc/'.length).split(',').map(policyOf)
    if (!policies.every((p): p is ProcedurePolicy => p?.cache === 'videos')) return null
    // A JSONL stream is another representation of the same URL: never stored, never served.
    if (streamsJsonl(req)) return null
    const personal = policies.some((p) => p.access !== 'public')
    if (personal) {
      const session = await services.sessions.sessionOf(req)
      if (policies.some((p) => refusalFor(p.access, session))) return null
    }
    return answers.answer(
      req.url.slice(req.url.indexOf('/trpc/')),
      req,
      () => trpc(req, clientIp),
      personal ? NO_STORE : undefined,
    )
  }

  const captionsOf = async (folder: string) =>
    (await services.videos.captionsByFolder()).get(folder)

  const reviewPages = createReviewPages({
    links: services.reviewLinks,
    notes: services.reviewNotes,
    captions: captionsOf,
    pages,
    store: services.media,
    publicUrl: config.publicUrl,
  })

  const mediaAccess: MediaAccess = {
    privateNames: () => services.videos.privateNames(),
    signed: async (name, search) => services.masterLinks.verify(name, search),
    prefixSigned: async (first, expires, signature) =>
      services.prefixes.verify(first, expires, signature),
    admin: async (req) => (await services.sessions.sessionOf(req)) !== null,
    captions: captionsOf,
    publicUrl: config.mediaPublicUrl,
    publicCopy: (name) => services.publicCopies.copyOf(name),
  }

  async function route(
    req: Request,
    pathname: string,
    clientIp: () => string,
    closeIfIdle?: () => void,
  ): Promise<Response> {
    if (SHARED_PUBLIC_LIST && pathname === '/api/public/videos' && req.method === 'GET') {
      return answers.answer(
        // One entry per page of works (`?limit&cursor`); the bare path is the whole list.
        `rest:public${req.url.slice(req.url.indexOf('/api/public/videos') + 18)}`,
        req,
        async () => handleRest(req, await createContext(services, req, clientIp)),
        'public, max-age=0, must-revalidate',
      )
    }
    if (pathname === '/healthz') return health()
    if (pathname === '/metrics') return metrics.answer(req)
    if (pathname === '/trpc' || pathname.startsWith('/trpc/')) {
      return (await cachedTrpc(req, pathname, clientIp)) ?? trpc(req, clientIp)
    }
    const upload = handleUploadPaths(req, pathname, uploadDeps, closeIfIdle)
    if (upload) return upload
    const media = handleMediaPaths(req, pathname, services.media, mediaAccess)
    if (media) return media
    if (pathname.startsWith('/r/')) {
      const review = await reviewPages(req, pathname, clientIp)
      if (review) return review
    }
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return handleRest(req, await createContext(services, req, clientIp))
    }
    return (await workPages(req, pathname)) ?? serveStatic(req)
  }

  return async (req, clientIp = 'unknown', closeIfIdle) => {
    const started = performance.now()
    const pathname = pathnameOf(req.url)
    const res = await answer(req, pathname, clientIp, closeIfIdle)
    metrics.observe(req, pathname, res.status, started)
    return res
  }

  async function answer(
    req: Request,
    pathname: string,
    clientIp: string | (() => string),
    closeIfIdle?: () => void,
  ): Promise<Response> {
    let res: Response
    try {
      const peer = typeof clientIp === 'function' ? clientIp : () => clientIp
      const ip = () => clientAddress(peer(), req.headers.get('x-forwarded-for'))
      res = await route(req, pathname, ip, closeIfIdle)
    } catch (error) {
      res = error instanceof AppError ? fail(error) : fail(logged(error))
    }
    // API answers belong to their caller (sessions, tokens, admin data) and are never stored;
    // the public reads among them are cached answers that set their own Cache-Control.
    if (!isApiPath(pathname)) return security.secure(res)
    // Cached answers come encoded already; media, tus and static files never get here.
    return compressAnswer(req, security.secure(res, NO_STORE))
  }
}

const isApiPath = (pathname: string) =>
  pathname === '/api' ||
  pathname.startsWith('/api/') ||
  pathname === '/trpc' ||
  pathname.startsWith('/trpc/')

// What tRPC's fetch adapter reads to answer a batch as JSON lines (httpBatchStreamLink).
const streamsJsonl = (req: Request) =>
  req.headers.get('trpc-accept') === 'application/jsonl' ||
  (req.headers.get('accept')?.includes('application/jsonl') ?? false)

function logged(error: unknown): unknown {
  logUnexpected('app', error)
  return error
}
