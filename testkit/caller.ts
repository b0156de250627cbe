// Procedures called as the web app would, without HTTP: the app's own services, a session from a
// bearer token, and the router's `createCallerFactory` caller (tRPC's createContextInner pattern).

import { createContextInner } from '../src/api/context.ts'
import { appRouter } from '../src/api/routers/index.ts'
import { createCallerFactory } from '../src/api/trpc.ts'
import type { Services } from '../src/services.ts'

const createCaller = createCallerFactory(appRouter)

/** A caller of every procedure as the holder of `token`; null calls as nobody signed in. */
export async function callerAs(services: Services, token: string | null, clientIp = '10.1.1.1') {
  const session = token ? await services.auth.validate(token) : null
  return createCaller(createContextInner({ services, session, token, clientIp: () => clientIp }))
}
