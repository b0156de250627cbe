/**
 * tRPC setup: 1. context (who is calling), 2. initialisation (one initTRPC, errors shaped once),
 * 3. procedures (public, authed, super_admin). Routers import only what section 3 exports.
 */
import { initTRPC } from '@trpc/server'
import { AppError, toPublicError } from './errors.ts'
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

// 3. Procedures
export const router = t.router
export const createCallerFactory = t.createCallerFactory
export const publicProcedure = t.procedure

export const authedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new AppError('UNAUTHORIZED', 'Please sign in to continue')
  return next({ ctx: { ...ctx, session: ctx.session } })
})

export const superAdminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.session.user.role !== 'super_admin')
    throw new AppError('FORBIDDEN', 'Only a super admin can manage admin accounts')
  return next({ ctx })
})
