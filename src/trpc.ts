/**
 * tRPC setup: 1. context (who is calling), 2. initialisation (one initTRPC, errors shaped once),
 * 3. the activity log's middleware, 4. procedures (public, authed, super_admin). Routers import
 * only what section 4 exports.
 */
import { initTRPC } from '@trpc/server'
import { logUnexpected } from './db-errors.ts'
import { AppError, toPublicError } from './errors.ts'
import { activitySpecFor, type Draft } from './routers/activity-entries.ts'
import type { AuthSession } from './services/auth.ts'
import type { Services } from './services/index.ts'

// 1. Context
export type Context = {
  services: Services
  /** The client's address, looked up only when asked (rate limits need it, reads do not). */
  clientIp: () => string
  session: AuthSession | null
  /** The raw bearer token, when one was sent (logout ends exactly that session). */
  token: string | null
}

export function bearerToken(req: Request): string | null {
  const header = req.headers.get('authorization')
  const match = header?.match(/^Bearer\s+(\S+)$/i)
  return match?.[1] ?? null
}

/** Context for one request: the session behind its bearer token, if any. */
export async function createContext(
  services: Services,
  req: Request,
  clientIp: () => string,
): Promise<Context> {
  const token = bearerToken(req)
  const session = token ? await services.auth.validate(token) : null
  return { services, clientIp, session, token }
}

// 2. Initialisation
const t = initTRPC.context<Context>().create({
  isDev: false,
  errorFormatter({ shape, error }) {
    const pub = toPublicError(error)
    // No stack, and for validation errors the first field's message instead of zod's JSON.
    return {
      message: pub.message,
      code: shape.code,
      data: { code: shape.data.code, httpStatus: pub.status, field: pub.field ?? null },
    }
  },
})

// 3. Activity log: every mutation is looked up in src/routers/activity-entries.ts and, once it
// has succeeded (or, for a few refusals, failed), appended with who, what and from where. One
// mechanism for the web app and the REST adapter alike; a failure to record is logged, never
// turned into a failed answer for a change that has already committed.
const recordActivity = t.middleware(async ({ ctx, type, path, getRawInput, next }) => {
  const spec = type === 'mutation' ? activitySpecFor(path) : null
  if (!spec) return next()
  const input = await getRawInput().catch(() => undefined)
  // `input` is as sent, not yet validated: a `before` that trips over it (even synchronously)
  // leaves the title out of the entry, and the procedure's own validation answers the caller.
  const before =
    spec.before && ctx.session
      ? await Promise.resolve()
          .then(() => spec.before?.(ctx, input) ?? null)
          .catch(() => null)
      : null
  const result = await next()
  let draft: Draft | null = null
  try {
    draft = result.ok
      ? spec.after({ ctx, input, output: result.data, before })
      : (spec.failed?.({ ctx, input, error: result.error }) ?? null)
    if (draft) await appendActivity(ctx, draft)
  } catch (error) {
    logUnexpected(`activity: ${path}`, error)
  }
  return result
})

function appendActivity(ctx: Context, draft: Draft) {
  const user = ctx.session?.user
  return ctx.services.activity.record({
    actorId: draft.actor ? draft.actor.id : (user?._id ?? null),
    actorName: draft.actor ? draft.actor.name : (user?.username ?? null),
    kind: draft.kind,
    summary: draft.summary,
    targetId: draft.target?.id ?? null,
    targetTitle: draft.target?.title ?? null,
    ip: ctx.clientIp(),
  })
}

// 4. Procedures
export const router = t.router
export const createCallerFactory = t.createCallerFactory
export const publicProcedure = t.procedure.use(recordActivity)

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new AppError('UNAUTHORIZED', 'Please sign in to continue')
  return next({ ctx: { ...ctx, session: ctx.session } })
})

export const superAdminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.session.user.role !== 'super_admin')
    throw new AppError('FORBIDDEN', 'Only a super admin can do this')
  return next({ ctx })
})
