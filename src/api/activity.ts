// What the activity log records for a mutation, declared in the procedure's meta beside its
// access and cache rules: `recorded(spec)` says how its entry reads, `unrecorded(reason)` why it
// has none. The middleware in trpc.ts reads the meta after the mutation has run, so every entry
// point (the web app over tRPC, the REST adapter through its caller) is recorded the same way; a
// mutation that declares neither still gets a plain entry (`fallbackSpec`), and
// tests/activity/log.test.ts fails on it. Only real changes are entries: an `after` answers null
// for a call that changed nothing (hiding a hidden video, saving what is already there), so
// repeating one cannot fill the log.
import { type ActivityKind, activityKinds } from '../contract/activity.ts'
import type { Services } from '../services.ts'
import type { Context } from './context.ts'

/** One entry to append: who is the session's user unless `actor` says otherwise. */
export type Draft = {
  kind: ActivityKind
  summary: string
  target?: { id: string | null; title: string | null }
  actor?: { id: string | null; name: string | null }
}

/** What `before` read: a title, or the fields an edit may change. */
export type Before = string | Record<string, string | null>

export type Spec<In, Out> = {
  /** Read before the change (a title a delete will remove); runs only for a signed-in caller. */
  before?: (ctx: Context, input: In) => Promise<Before | null>
  after: (args: { ctx: Context; input: In; output: Out; before: Before | null }) => Draft | null
  /** Refusals worth recording (a sign-in lock starting). */
  failed?: (args: { ctx: Context; input: In; error: unknown }) => Draft | null
}

/** The rules a procedure is recorded by, loosely typed for the middleware. */
export type ActivitySpec = Spec<unknown, unknown>

/** What a service method answers, for a spec's `Out`. */
export type Answer<S extends keyof Services, M extends keyof Services[S]> = Services[S][M] extends (
  ...args: never[]
) => infer R
  ? Awaited<R>
  : never

/** A mutation's entry, for its meta: `In` is its input as validated, `Out` its answer. */
export const recorded = <In, Out>(spec: Spec<In, Out>) => ({ activity: spec as ActivitySpec })

/** A mutation that is deliberately not recorded; `why` is for the reader. */
export const unrecorded = (_why: string) => ({ activity: null })

export const quoted = (title: string | null | undefined) => (title ? `“${title}”` : 'a video')
/** `before` as a title (specs that read one). */
export const titleOf = (before: Before | null) => (typeof before === 'string' ? before : null)
/** `before` as fields (specs that read them); undefined when it could not be read. */
export const fieldsOf = (before: Before | null) =>
  before !== null && typeof before === 'object' ? before : undefined

/**
 * For a mutation that declares nothing: a plain entry of its own kind (`videos.retry` →
 * `video.retry`) or `other`, naming the target id.
 */
export function fallbackSpec(path: string): ActivitySpec {
  const [group = '', name = ''] = path.split('.')
  const own = `${group.replace(/s$/, '')}.${name}`
  const kind: ActivityKind = own in activityKinds ? (own as ActivityKind) : 'other'
  return {
    after: ({ input }) => {
      const id = (input as { id?: unknown } | undefined)?.id
      return {
        kind,
        summary: kind === 'other' ? `Ran ${path}` : activityKinds[kind],
        target: typeof id === 'string' ? { id, title: null } : undefined,
      }
    },
  }
}
