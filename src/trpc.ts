/**
 * tRPC setup: 1. context (who is calling), 2. initialisation (one initTRPC, errors shaped once,
 * what a procedure's meta declares), 3. the activity log's middleware, 4. procedures (public,
 * authed, super_admin: each declares the access it enforces). Routers import only what section 4
 * exports.
 */
import { initTRPC } from '@trpc/server'
import { type Access, admit, bearerToken } from './auth/guard.ts'
import { logUnexpected } from './db-errors.ts'
import { toPublicError } from './errors.ts'
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

/** A context from its parts, no Request: what tests hand to `createCallerFactory`'s callers. */
export function createContextInner(opts: {
  services: Services
  session: AuthSession | null
  token?: string | null
  clientIp?: () => string
}): Context {
  const { services, session, token = null, clientIp = () => 'unknown' } = opts
  return { services, clientIp, session, token }
}

/** Context for one request: the session behind its bearer token, if any. */
export async function createContext(
  services: Services,
  req: Request,
  clientIp: () => string,
): Promise<Context> {
  const session = await services.sessions.sessionOf(req)
  return createContextInner({ services, session, token: bearerToken(req), clientIp })
}

// 2. Initialisation
/**
 * What a procedure declares beside itself. `cache`: its answer depends only on its input and that
 * source's version, so the HTTP layer may keep it as bytes (src/paths.ts, src/rest/site.ts).
 */
export type ProcedureMeta = { cache?: 'videos' | 'site' }
// `access` is set by the base procedure a procedure is built from (section 4), never by the
// procedure itself: only this module can make a `Granted`, so `.meta({ access })` elsewhere does
// not compile, and the declaration is the rule the procedure's middleware enforces.
declare const grantedHere: unique symbol
type Granted = Access & { readonly [grantedHere]: true }
type Meta = ProcedureMeta & { access?: Granted }
const granted = (access: Access) => ({ access: access as Granted })

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
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

export const publicProcedure = t.procedure.use(recordActivity).meta(granted('public'))

export const authedProcedure = publicProcedure
  .meta(granted('session'))
  .use(({ ctx, next }) => next({ ctx: { ...ctx, session: admit('session', ctx.session) } }))

export const superAdminProcedure = authedProcedure
  .meta(granted('super_admin'))
  .use(({ ctx, next }) => next({ ctx: { ...ctx, session: admit('super_admin', ctx.session) } }))
