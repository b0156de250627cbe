// The activity log's kinds and the list query
// (docs/decisions/042-activity-log-one-middleware-one-table.md). Shared with web/.
import { z } from 'zod'
import { uuidSchema } from './id.ts'

/** Every kind of entry, with the label the Activity page shows and filters by. */
export const activityKinds = {
  'auth.signIn': 'Signed in',
  'auth.signOut': 'Signed out',
  'auth.locked': 'Sign-in locked',
  'video.create': 'Video uploaded',
  'video.update': 'Video edited',
  'video.delete': 'Video deleted',
  'video.bulkDelete': 'Videos deleted',
  'video.retry': 'Video processing retried',
  'video.reorder': 'Videos reordered',
  'video.publish': 'Video published or hidden',
  'version.create': 'New version uploaded',
  'version.current': 'Current version changed',
  'version.delete': 'Version deleted',
  'admin.create': 'Admin created',
  'admin.update': 'Admin edited',
  'admin.delete': 'Admin deleted',
  'site.update': 'Site content changed',
  'site.undo': 'Site change undone',
  'reviewLink.create': 'Review link made',
  'reviewLink.revoke': 'Review link revoked',
  'reviewLink.open': 'Review link opened',
  'reviewNote.resolve': 'Review note resolved',
  'reviewNote.reopen': 'Review note reopened',
  other: 'Other',
} as const
export type ActivityKind = keyof typeof activityKinds
export const activityKindNames = Object.keys(activityKinds) as [ActivityKind, ...ActivityKind[]]

export const ACTIVITY_PAGE_SIZE = 20

/** `actor`: an admin's id, or `anonymous` for entries nobody signed in made (locked sign-ins). */
export const listActivitySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(ACTIVITY_PAGE_SIZE),
  actor: z.union([z.literal('anonymous'), uuidSchema('Unknown person')]).optional(),
  kind: z.enum(activityKindNames, { error: 'Unknown kind of activity' }).optional(),
})
export type ListActivityInput = z.input<typeof listActivitySchema>
export type ListActivityQuery = z.output<typeof listActivitySchema>
