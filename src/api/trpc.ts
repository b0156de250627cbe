/**
 * tRPC setup: 2. initialisation (one initTRPC, errors shaped once, what a procedure's meta
 * declares), 3. the activity log's middleware, 4. procedures (public, authed, super_admin: each
 * declares the access it enforces). 1, the context, is context.ts. Routers import only what
 * section 4 exports; this file imports no router.
 */
import { initTRPC } from '@trpc/server'
import { type Access, admit } from '../accounts/guard.ts'
import { logUnexpected } from '../db/errors.ts'
import { toPublicError } from '../errors.ts'
import { type ActivitySpec, type Draft, fallbackSpec } from './activity.ts'
import type { Context } from './context.ts'

export type { Context } from './context.ts'

// 2. Initialisation
/**
 * What a procedure declares beside itself. `cache`: its answer depends only on its input and that
 * source's version, so the HTTP layer may keep it as bytes (src/api/routes.ts, src/api/rest/site.ts).
 */
export type ProcedureMeta = {
  cache?: 'videos' | 'site'
  /** A mutation's activity entry (activity.ts): `recorded(…)`, or null from `unrecorded(…)`. */
  activity?: ActivitySpec | null
}
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

// 3. Activity log: every mutation's entry is declared in its meta (activity.ts) and, once it
// has succeeded (or, for a few refusals, failed), appended with who, what and from where. One
// mechanism for the web app and the REST adapter alike; a failure to record is logged, never
// turned into a failed answer for a change that has already committed.
const recordActivity = t.middleware(async ({ ctx, type, path, meta, getRawInput, next }) => {
  const spec =
    type !== 'mutation' ? null : meta?.activity === undefined ? fallbackSpec(path) : meta.activity
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
