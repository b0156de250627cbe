// The typed tRPC hooks and the client: Bearer token on every call, and one place that reacts
// to a 401 (docs/dashboard.md: clear auth and go to sign-in, except for the login call itself).

import type { QueryClient } from '@tanstack/react-query'
import { httpBatchLink, type OperationContext, type TRPCLink } from '@trpc/client'
import { createTRPCQueryUtils, createTRPCReact } from '@trpc/react-query'
import { observable } from '@trpc/server/observable'
import type { AppRouter } from '../api.ts'
import { toClientError } from './lib/errors.ts'
import { handleUnauthorized, trackCall } from './lib/session.ts'
import { useAuthStore } from './stores/auth.ts'

export const trpc = createTRPCReact<AppRouter>()

/** The token a call is made with: its own `context.token` if it names one, else the stored one. */
const tokenOf = (context: OperationContext): string | null =>
  'token' in context ? (typeof context.token === 'string' ? context.token : null) : null

// The token is fixed when a call starts and travels in its context, so a call of a session the
// user has since ended is known by it (lib/session.ts), and sign-out can end a session whose
// token is no longer stored.
const sessionLink: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) => {
      const token = 'token' in op.context ? tokenOf(op.context) : useAuthStore.getState().token
      const done = trackCall(token)
      const subscription = next({ ...op, context: { ...op.context, token } }).subscribe({
        next: (value) => observer.next(value),
        error: (err) => {
          done()
          if (op.path !== 'auth.login' && toClientError(err).kind === 'unauthorized') {
            handleUnauthorized(token)
          }
          observer.error(err)
        },
        complete: () => {
          done()
          observer.complete()
        },
      })
      return () => {
        done()
        subscription.unsubscribe()
      }
    })

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      sessionLink,
      httpBatchLink({
        url: '/trpc',
        // The calls of one batch start in the same tick, so they carry the same token.
        headers: ({ opList }) => {
          const token = opList[0] ? tokenOf(opList[0].context) : null
          return token ? { Authorization: `Bearer ${token}` } : {}
        },
      }),
    ],
  })
}

/**
 * The query utilities outside React (the router's loaders): the same query keys and cache as
 * the hooks, so a loader's prefetch is what a page's query then finds.
 */
export function createTrpcUtils(
  queryClient: QueryClient,
  client: ReturnType<typeof createTrpcClient>,
) {
  return createTRPCQueryUtils<AppRouter>({ queryClient, client })
}

export type TrpcUtils = ReturnType<typeof createTrpcUtils>
