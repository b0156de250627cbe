// REST paths for the site's content (docs/api.md) and the activity log. Like every adapter file:
// parse, call the procedure through the caller, shape the answer.

import { imageMsg, imagePurposes, siteImageLimits } from '../../contract/site.ts'
import { AppError } from '../../errors.ts'
import { readJson } from '../../http/body.ts'
import { ok } from '../../http/respond.ts'
import { AnswerCache } from '../../http/response-cache.ts'
import type { SiteService } from '../../site/content.ts'
import { policyOf } from '../policy.ts'
import { type RestHandler, route } from './route.ts'

// The public content is read on every visit and changes only when an admin saves: its answer is
// kept as bytes with an ETag until the next change, one cache per running app.
const publicAnswers = new WeakMap<SiteService, AnswerCache>()
const answersFor = (site: SiteService) => {
  let cache = publicAnswers.get(site)
  if (!cache) {
    // The app's security headers go on each answer on its way out (src/api/routes.ts), as on every
    // other /api answer.
    cache = new AnswerCache(site.version)
    publicAnswers.set(site, cache)
  }
  return cache
}

// One answer for everyone only while the procedure says it is public and cacheable.
const siteRead = policyOf('site.public')
const SHARED_PUBLIC_SITE = siteRead?.access === 'public' && siteRead.cache === 'site'

const publicSite: RestHandler = async ({ req, ctx, caller }) => {
  const produce = async () => ok({ site: await caller.site.public() })
  if (!SHARED_PUBLIC_SITE) return produce()
  return answersFor(ctx.services.site).answer(
    'public-site',
    req,
    produce,
    'public, max-age=0, must-revalidate',
  )
}

/** The body, at most `limit` bytes whatever Content-Length claims (413 beyond). */
async function readBytes(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', imageMsg.tooLarge, 'file')
  const declared = req.headers.get('content-length')
  if (Number(declared ?? 0) > limit) throw tooLarge()
  if (!req.body) return new Uint8Array()
  // A declared length bounds what the server reads, so the runtime reads it in one go: pulling
  // megabytes through a JS stream chunk by chunk holds the thread every other request waits on.
  if (declared) {
    const bytes = new Uint8Array(await req.arrayBuffer())
    if (bytes.byteLength > limit) throw tooLarge()
    return bytes
  }
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of req.body) {
    size += chunk.byteLength
    if (size > limit) throw tooLarge()
    chunks.push(chunk)
  }
  return new Uint8Array(Buffer.concat(chunks))
}

/**
 * The image is the raw body, or the `file` field of a multipart body. Either is read within the
 * size limit first (plus room for multipart's framing), so no body is ever buffered past it.
 */
const addImage: RestHandler = async ({ req, ctx, caller }) => {
  // The procedure decides who may add images; this only refuses, before the body is read, a
  // caller it would refuse anyway (the one guard of entries outside tRPC).
  await ctx.services.sessions.requireSession(req)
  const purpose = new URL(req.url).searchParams.get('purpose')
  if (!imagePurposes.some((p) => p === purpose)) {
    throw new AppError('BAD_REQUEST', imageMsg.purpose, 'purpose')
  }
  const type = req.headers.get('content-type') ?? ''
  let bytes: Uint8Array<ArrayBuffer>
  if (/^multipart\/form-data/i.test(type)) {
    const body = await readBytes(req, siteImageLimits.bytes + 64 * 1024)
    const form = await new Response(body, { headers: { 'content-type': type } })
      .formData()
      .catch(() => {
        throw new AppError('BAD_REQUEST', 'The multipart body could not be read', 'file')
      })
    const file = form.get('file')
    if (!(file instanceof Blob)) throw new AppError('BAD_REQUEST', 'Choose an image file', 'file')
    bytes = new Uint8Array(await file.arrayBuffer())
  } else {
    bytes = await readBytes(req, siteImageLimits.bytes)
  }
  if (bytes.byteLength === 0) throw new AppError('BAD_REQUEST', 'Choose an image file', 'file')
  return ok(await caller.site.addImage({ purpose: purpose as never, bytes }), 201)
}

const query = (req: Request) => Object.fromEntries(new URL(req.url).searchParams)

export const siteRoutes = [
  route('GET', '/api/public/site', publicSite),
  route('GET', '/api/site', async ({ caller }) => ok(await caller.site.get())),
  route('PUT', '/api/site', async ({ req, caller }) =>
    ok(await caller.site.save((await readJson(req)) as never)),
  ),
  route('POST', '/api/site/undo', async ({ req, caller }) =>
    ok(await caller.site.undo((await readJson(req)) as never)),
  ),
  route('POST', '/api/site/images', addImage),
  route('GET', '/api/activity', async ({ req, caller }) =>
    ok(await caller.activity.list(query(req) as never)),
  ),
  route('GET', '/api/activity/people', async ({ caller }) => ok(await caller.activity.people())),
]
