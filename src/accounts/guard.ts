// Who may pass: the one access rule. tRPC's base procedures (src/api/trpc.ts) enforce it, and the
// entries that decide before or outside tRPC (tus, multipart and image bodies, the answer cache)
// ask the same functions, so a refusal is the same AppError wherever it is made.
import { AppError } from '../errors.ts'
import type { AuthService, AuthSession } from './sign-in.ts'

/** What a procedure requires of its caller; declared by its base procedure (src/api/trpc.ts). */
export type Access = 'public' | 'session' | 'super_admin'

const SIGN_IN = 'Please sign in to continue'
const SUPER_ADMIN_ONLY = 'Only a super admin can do this'

/** The refusal a caller with `session` gets where `access` is required; null when it may pass. */
export function refusalFor(access: Access, session: AuthSession | null): AppError | null {
  if (access === 'public') return null
  if (!session) return new AppError('UNAUTHORIZED', SIGN_IN)
  if (access === 'super_admin' && session.user.role !== 'super_admin') {
    return new AppError('FORBIDDEN', SUPER_ADMIN_ONLY)
  }
  return null
}

/** The session, when it may pass where `access` is required; otherwise throws the refusal. */
export function admit(access: Exclude<Access, 'public'>, session: AuthSession | null): AuthSession {
  const refusal = refusalFor(access, session)
  if (refusal) throw refusal
  // refusalFor refuses a missing session wherever access is not public.
  return session as AuthSession
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization')
  const match = header?.match(/^Bearer\s+(\S+)$/i)
  return match?.[1] ?? null
}

export type SessionGuard = ReturnType<typeof createSessionGuard>

/**
 * The session behind a request's bearer token, looked up once per request: the tRPC context, the
 * answer cache and an entry's own guard all ask, and share one lookup.
 */
export function createSessionGuard(auth: Pick<AuthService, 'validate'>) {
  const seen = new WeakMap<Request, Promise<AuthSession | null>>()

  function sessionOf(request: Request): Promise<AuthSession | null> {
    let session = seen.get(request)
    if (!session) {
      const token = bearerToken(request)
      session = token ? auth.validate(token) : Promise.resolve(null)
      seen.set(request, session)
    }
    return session
  }

  return {
    sessionOf,
    /**
     * The guard of every entry outside tRPC (tus, multipart and image bodies): the signed-in
     * session, or the 401 AppError, thrown before a byte of the body is read.
     */
    async requireSession(request: Request): Promise<AuthSession> {
      return admit('session', await sessionOf(request))
    },
  }
}
