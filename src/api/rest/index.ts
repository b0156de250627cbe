// The /api adapter: parse, call the same procedure through a tRPC caller, shape the answer.
import { AppError } from '../../errors.ts'
import { fail } from '../../http/respond.ts'
import type { Context } from '../context.ts'
import { adminRoutes } from './admins.ts'
import { authRoutes } from './auth.ts'
import { reviewLinkRoutes } from './review-links.ts'
import { reviewNoteRoutes } from './review-notes.ts'
import { createCaller, match, type Route } from './route.ts'
import { siteRoutes } from './site.ts'
import { versionRoutes } from './versions.ts'
import { videoRoutes } from './videos.ts'

const routes: Route[] = [
  ...authRoutes,
  ...adminRoutes,
  ...reviewLinkRoutes,
  ...reviewNoteRoutes,
  ...videoRoutes,
  ...versionRoutes,
  ...siteRoutes,
]

/** The pattern that answers `method` on `pathname` (or its path, for a 405), for metrics' labels. */
export function restRouteOf(method: string, pathname: string): string | undefined {
  const path = pathname.replace(/\/+$/, '')
  const matching = routes.filter((r) => match(r.pattern, path))
  return (matching.find((r) => r.method === method) ?? matching[0])?.pattern
}

export async function handleRest(req: Request, ctx: Context): Promise<Response> {
  const path = new URL(req.url).pathname.replace(/\/+$/, '')
  let pathMatched = false
  for (const r of routes) {
    const params = match(r.pattern, path)
    if (!params) continue
    pathMatched = true
    if (r.method !== req.method) continue
    try {
      return await r.handler({ req, params, ctx, caller: createCaller(ctx) })
    } catch (error) {
      return fail(error)
    }
  }
  if (pathMatched) {
    return Response.json({ status: 'error', message: 'Method not allowed' }, { status: 405 })
  }
  return fail(new AppError('NOT_FOUND', 'Not found'))
}
