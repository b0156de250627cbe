// The typed tRPC hooks and the client: Bearer token on every call, and one place that reacts
// to a 401 (SPEC §4: clear auth and go to sign-in, except for the login call itself).
import { httpBatchLink, type TRPCLink } from '@trpc/client'
import { createTRPCReact } from '@trpc/react-query'
import { observable } from '@trpc/server/observable'
import type { AppRouter } from './api.ts'
import { isUnauthorized } from './lib/errors.ts'
import { handleUnauthorized } from './lib/session.ts'
import { authStore } from './stores/auth.ts'

export const trpc = createTRPCReact<AppRouter>()

export const authHeader = (): Record<string, string> => {
  const { token } = authStore.get()
  return token ? { Authorization: `Bearer ${token}` } : {}
}

const unauthorizedLink: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        error: (err) => {
          if (op.path !== 'auth.login' && isUnauthorized(err)) handleUnauthorized()
          observer.error(err)
        },
        complete: () => observer.complete(),
      }),
    )

export function createTrpcClient() {
  return trpc.createClient({
    links: [unauthorizedLink, httpBatchLink({ url: '/trpc', headers: authHeader })],
  })
}
