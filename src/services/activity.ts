// The activity log (record 042): who did what, when and from where. Entries are appended by
// the tRPC middleware (src/trpc.ts) after a mutation succeeds; nothing here changes or removes
// one, and the table's trigger refuses it anyway.
import { and, count, desc, eq, isNull, max, type SQL, sql } from 'drizzle-orm'
import { activityLog } from '../../db/schema.ts'
import type { Db } from '../database.ts'
import type { ActivityKind, ListActivityQuery } from '../schemas/activity.ts'

export type ActivityEntry = {
  actorId: string | null
  actorName: string | null
  kind: ActivityKind
  summary: string
  targetId?: string | null
  targetTitle?: string | null
  ip: string | null
}

export type ActivityView = {
  _id: string
  at: string
  actor: { _id: string | null; name: string | null }
  kind: string
  summary: string
  target: { _id: string | null; title: string | null } | null
  ip: string | null
}

// Long enough for any title or list of titles the summaries name; a log line, not a document.
const TEXT_MAX = 500
const clip = (value: string | null | undefined) =>
  value == null ? null : value.length > TEXT_MAX ? `${value.slice(0, TEXT_MAX - 1)}…` : value

export function createActivityService(db: Db) {
  return {
    async record(entry: ActivityEntry): Promise<void> {
      await db.insert(activityLog).values({
        actorId: entry.actorId,
        actorName: clip(entry.actorName),
        kind: entry.kind,
        summary: clip(entry.summary) ?? '',
        targetId: clip(entry.targetId),
        targetTitle: clip(entry.targetTitle),
        ip: clip(entry.ip),
      })
    },

    /** Newest first, filtered by person (`anonymous`: nobody signed in) and kind. */
    async list(input: ListActivityQuery) {
      const { page, limit } = input
      const filters: SQL[] = []
      if (input.actor === 'anonymous') filters.push(isNull(activityLog.actorId))
      else if (input.actor) filters.push(eq(activityLog.actorId, input.actor))
      if (input.kind) filters.push(eq(activityLog.kind, input.kind))
      const where = filters.length ? and(...filters) : undefined
      const [{ total } = { total: 0 }] = await db
        .select({ total: count() })
        .from(activityLog)
        .where(where)
      const rows = await db
        .select()
        .from(activityLog)
        .where(where)
        .orderBy(desc(activityLog.id))
        .limit(limit)
        .offset((page - 1) * limit)
      const entries: ActivityView[] = rows.map((r) => ({
        _id: String(r.id),
        at: r.at.toISOString(),
        actor: { _id: r.actorId, name: r.actorName },
        kind: r.kind,
        summary: r.summary,
        target: r.targetId || r.targetTitle ? { _id: r.targetId, title: r.targetTitle } : null,
        ip: r.ip,
      }))
      return { entries, total, totalPages: Math.max(1, Math.ceil(total / limit)), page, limit }
    },

    /** Everyone who appears in the log, by the name of their latest entry (for the filter). */
    async people(): Promise<{ _id: string; name: string }[]> {
      const latest = db
        .select({ actorId: activityLog.actorId, last: max(activityLog.id).as('last') })
        .from(activityLog)
        .where(sql`${activityLog.actorId} is not null`)
        .groupBy(activityLog.actorId)
        .as('latest')
      const rows = await db
        .select({ id: activityLog.actorId, name: activityLog.actorName })
        .from(activityLog)
        .innerJoin(latest, eq(activityLog.id, latest.last))
        .orderBy(activityLog.actorName)
      return rows.map((r) => ({ _id: r.id ?? '', name: r.name ?? '' }))
    },
  }
}

export type ActivityService = ReturnType<typeof createActivityService>
