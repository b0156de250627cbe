// What the activity log records for each mutation, in one table keyed by procedure path. The
// middleware in src/trpc.ts consults it after a mutation has run, so every entry point (the web
// app over tRPC, the REST adapter through its caller) is recorded the same way. `null` means the
// procedure is not recorded, with the reason beside it; tests/activity.test.ts fails when a
// mutation has no entry here (one without is still recorded, as kind `other` or its own). Only
// real changes are entries: an `after` answers null for a call that changed nothing (hiding a
// hidden video, saving what is already there), so repeating one cannot fill the log.
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server'
import { type ActivityKind, activityKinds } from '../schemas/activity.ts'
import { siteSections } from '../schemas/site.ts'
import { LockedOut } from '../services/auth.ts'
import type { Context } from '../trpc.ts'
import type { AppRouter } from './index.ts'

/** One entry to append: who is the session's user unless `actor` says otherwise. */
export type Draft = {
  kind: ActivityKind
  summary: string
  target?: { id: string | null; title: string | null }
  actor?: { id: string | null; name: string | null }
}

/** What `before` read: a title, or the fields an edit may change. */
type Before = string | Record<string, string | null>

type Spec<In, Out> = {
  /** Read before the change (a title a delete will remove); runs only for a signed-in caller. */
  before?: (ctx: Context, input: In) => Promise<Before | null>
  after: (args: { ctx: Context; input: In; output: Out; before: Before | null }) => Draft | null
  /** Refusals worth recording (a sign-in lock starting). */
  failed?: (args: { ctx: Context; input: In; error: unknown }) => Draft | null
}

type Inputs = inferRouterInputs<AppRouter>
type Outputs = inferRouterOutputs<AppRouter>
type Specs = {
  [R in keyof Inputs]?: { [P in keyof Inputs[R]]?: Spec<Inputs[R][P], Outputs[R][P]> | null }
}

const quoted = (title: string | null | undefined) => (title ? `“${title}”` : 'a video')
/** `before` as a title (specs that read one). */
const titleOf = (before: Before | null) => (typeof before === 'string' ? before : null)
/** `before` as fields (specs that read them); undefined when it could not be read. */
const fieldsOf = (before: Before | null) =>
  before !== null && typeof before === 'object' ? before : undefined
const minutes = (ms: number) => {
  const n = Math.max(1, Math.round(ms / 60_000))
  return `${n} minute${n === 1 ? '' : 's'}`
}
const sectionList = (changed: readonly string[]) =>
  changed.map((s) => siteSections[s as keyof typeof siteSections] ?? s).join(', ')

/** Titles of up to 10 videos, read before a bulk delete removes them. */
async function titlesOf(ctx: Context, ids: readonly string[]) {
  const titles: string[] = []
  for (const id of ids.slice(0, 10)) {
    const video = await ctx.services.videos.get(id).catch(() => null)
    if (video) titles.push(quoted(video.title))
  }
  const more = ids.length - Math.min(ids.length, 10)
  return titles.join(', ') + (more > 0 ? ` and ${more} more` : '')
}

async function adminFields(ctx: Context, id: string) {
  const admins = await ctx.services.admins.list()
  const admin = admins.find((a) => a._id === id.toLowerCase())
  return admin ? { username: admin.username, email: admin.email } : null
}

const specs: Specs = {
  auth: {
    login: {
      after: ({ output }) => ({
        kind: 'auth.signIn',
        summary: 'Signed in',
        actor: { id: output.user._id, name: output.user.username },
      }),
      // One entry per lock, not per failure: the refusal that starts it.
      failed: ({ input, error }) =>
        error instanceof LockedOut && error.started
          ? {
              kind: 'auth.locked',
              summary:
                error.started === 'pair'
                  ? `Sign-in for ${input.email} from this address locked for ${minutes(error.retryMs)} after repeated wrong passwords`
                  : `This address locked out of sign-in for ${minutes(error.retryMs)} after repeated failures`,
              actor: { id: null, name: String(input.email).toLowerCase() },
            }
          : null,
    },
    logout: { after: () => ({ kind: 'auth.signOut', summary: 'Signed out' }) },
    // Anonymous requests: recording them would let anyone write to the log. A completed reset
    // shows as the sign-in that follows it.
    requestPasswordReset: null,
    resetPassword: null,
  },
  videos: {
    create: {
      after: ({ output }) => ({
        kind: 'video.create',
        summary: `Uploaded ${quoted(output.video.title)}`,
        target: { id: output.video._id, title: output.video.title },
      }),
    },
    update: {
      before: async (ctx, input) => {
        const video = await ctx.services.videos.get(input.id)
        return { title: video.title, description: video.description }
      },
      after: ({ input, output, before }) => {
        const was = fieldsOf(before)
        const parts = [
          input.title !== undefined && was && was.title !== output.video.title
            ? `title (was ${quoted(was.title)})`
            : null,
          input.description !== undefined && (!was || was.description !== output.video.description)
            ? 'description'
            : null,
          ...Object.keys(input.uploads ?? {}).map((kind) =>
            kind === 'brandLogo' ? 'brand logo' : `${kind} file`,
          ),
        ].filter(Boolean)
        // The same title and description sent again, no file: nothing changed.
        if (parts.length === 0 && was) return null
        return {
          kind: 'video.update',
          summary: `Edited ${quoted(output.video.title)}${parts.length ? `: ${parts.join(', ')}` : ''}`,
          target: { id: output.video._id, title: output.video.title },
        }
      },
    },
    addCaptions: {
      after: ({ output }) => ({
        kind: 'video.update',
        summary: `Edited ${quoted(output.video.title)}: captions ${output.caption.label} (${output.caption.language})`,
        target: { id: output.video._id, title: output.video.title },
      }),
    },
    removeCaptions: {
      after: ({ output }) => ({
        kind: 'video.update',
        summary: `Edited ${quoted(output.video.title)}: removed captions ${output.removed.label} (${output.removed.language})`,
        target: { id: output.video._id, title: output.video.title },
      }),
    },
    delete: {
      before: async (ctx, input) => (await ctx.services.videos.get(input.id)).title,
      after: ({ input, before }) => ({
        kind: 'video.delete',
        summary: `Deleted ${quoted(titleOf(before))}`,
        target: { id: input.id.toLowerCase(), title: titleOf(before) },
      }),
    },
    retry: {
      after: ({ output }) => ({
        kind: 'video.retry',
        summary: `Retried processing of ${quoted(output.video.title)}`,
        target: { id: output.video._id, title: output.video.title },
      }),
    },
    reorder: {
      before: (ctx, input) => titlesOf(ctx, input.ids),
      after: ({ output, before }) =>
        output.reordered === 0
          ? null
          : {
              kind: 'video.reorder',
              summary: `Reordered the portfolio${titleOf(before) ? `: ${titleOf(before)}` : ''}`,
            },
    },
    setPublished: {
      after: ({ output }) =>
        output.changed
          ? {
              kind: 'video.publish',
              summary: output.video.published
                ? `Published ${quoted(output.video.title)}`
                : `Hid ${quoted(output.video.title)} from the public page`,
              target: { id: output.video._id, title: output.video.title },
            }
          : null,
    },
    bulkDelete: {
      before: (ctx, input) => titlesOf(ctx, input.ids),
      after: ({ output, before }) =>
        output.deleted === 0
          ? null
          : {
              kind: 'video.bulkDelete',
              summary: `Deleted ${output.deleted} video${output.deleted === 1 ? '' : 's'}${titleOf(before) ? `: ${titleOf(before)}` : ''}`,
            },
    },
  },
  admins: {
    create: {
      after: ({ output }) => ({
        kind: 'admin.create',
        summary: `Created admin ${output.admin.username} (${output.admin.email})`,
        target: { id: output.admin._id, title: output.admin.username },
      }),
    },
    update: {
      before: (ctx, input) => adminFields(ctx, input.id),
      after: ({ input, output, before }) => {
        const was = fieldsOf(before)
        const sent = (['username', 'email', 'password'] as const).filter(
          (f) => typeof input[f] === 'string' && String(input[f]).trim() !== '',
        )
        // A password is always new (only its hash is kept); a name or address only if it differs.
        const fields = sent.filter((f) => f === 'password' || !was || was[f] !== output.admin[f])
        if (fields.length === 0) return null
        const renamed =
          was?.username && was.username !== output.admin.username ? ` (was ${was.username})` : ''
        return {
          kind: 'admin.update',
          summary: `Edited admin ${output.admin.username}${renamed}${fields.length ? `: ${fields.join(', ')}` : ''}`,
          target: { id: output.admin._id, title: output.admin.username },
        }
      },
    },
    delete: {
      before: async (ctx, input) => (await adminFields(ctx, input.id))?.username ?? null,
      after: ({ input, before }) => ({
        kind: 'admin.delete',
        summary: `Deleted admin ${titleOf(before) ?? input.id}`,
        target: { id: input.id.toLowerCase(), title: titleOf(before) },
      }),
    },
  },
  site: {
    save: {
      after: ({ output }) =>
        output.changed.length === 0
          ? null
          : {
              kind: 'site.update',
              summary: `Changed the site: ${sectionList(output.changed)}`,
              target: { id: String(output.version), title: `Version ${output.version}` },
            },
    },
    undo: {
      after: ({ output }) => ({
        kind: 'site.undo',
        summary: `Undid the last site change (back to version ${output.restoredFrom})${output.changed.length ? `: ${sectionList(output.changed)}` : ''}`,
        target: { id: String(output.version), title: `Version ${output.version}` },
      }),
    },
    // Not a change of the page by itself: the save that uses the image is recorded.
    addImage: null,
  },
  reviewLinks: {
    create: {
      before: async (ctx, input) => (await ctx.services.videos.get(input.videoId)).title,
      after: ({ output, before }) => ({
        kind: 'reviewLink.create',
        summary: `Made a review link for ${quoted(titleOf(before))}${output.note ? ` (${output.note})` : ''}${output.hasPassword ? ', with a password' : ''}${output.expiresAt ? `, until ${output.expiresAt}` : ', never expiring'}`,
        target: { id: output.videoId, title: titleOf(before) },
      }),
    },
    revoke: {
      before: async (ctx, input) => (await ctx.services.videos.get(input.videoId)).title,
      after: ({ input, output, before }) =>
        output.changed
          ? {
              kind: 'reviewLink.revoke',
              summary: `Revoked a review link of ${quoted(titleOf(before))}`,
              target: { id: input.videoId, title: titleOf(before) },
            }
          : null,
    },
  },
}

/** The rules a procedure is recorded by, loosely typed for the middleware. */
export type ActivitySpec = Spec<unknown, unknown>

/**
 * The spec for `path`: `null` when it is not recorded; for a mutation missing from the table, a
 * plain entry of its own kind (`videos.retry` → `video.retry`) or `other`, naming the target id.
 */
export function activitySpecFor(path: string): ActivitySpec | null {
  const [group = '', name = ''] = path.split('.')
  const table = specs as Record<string, Record<string, ActivitySpec | null> | undefined>
  const spec = table[group]?.[name]
  if (spec !== undefined) return spec
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

/** Mutation paths the table names (recorded or deliberately not), for the completeness test. */
export const declaredPaths = (): string[] =>
  Object.entries(specs).flatMap(([group, procs]) =>
    Object.keys(procs ?? {}).map((name) => `${group}.${name}`),
  )
