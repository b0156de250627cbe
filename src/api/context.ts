// Who is calling: the context every procedure gets, built once per request (or by a test).
import { bearerToken } from '../accounts/guard.ts'
import type { AuthSession } from '../accounts/sign-in.ts'
import type { Services } from '../services.ts'

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
