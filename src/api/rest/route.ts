// What a REST route is: a method, a path pattern of docs/api.md with a minimal matcher, and a
// handler that calls the same tRPC procedures as the web app, through a caller.
import type { Context } from '../context.ts'
import { appRouter } from '../routers/index.ts'
import { createCallerFactory } from '../trpc.ts'

export const createCaller = createCallerFactory(appRouter)

export type Caller = ReturnType<typeof createCaller>
export type RestArgs = {
  req: Request
  params: Record<string, string>
  caller: Caller
  ctx: Context
}
export type RestHandler = (args: RestArgs) => Promise<Response>
export type Route = { method: string; pattern: string; handler: RestHandler }

export function route(method: string, pattern: string, handler: RestHandler): Route {
  return { method, pattern, handler }
}

export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!
    const g = got[i]!
    if (w.startsWith(':')) {
      let value: string
      try {
        value = decodeURIComponent(g)
      } catch {
        return null
      }
      if (!value) return null
      params[w.slice(1)] = value
    } else if (w !== g) return null
  }
  return params
}
