// The activity log (docs/decisions/042-activity-log-one-middleware-one-table.md): who did what,
// when and from where. Entries are appended by the tRPC middleware (src/api/trpc.ts) after a
// mutation has changed something; nothing here changes one, and the table's trigger refuses it
// anyway. Only the retention removes entries: older than a year, or past the newest 100,000
// (docs/decisions/060-undo-walks-back-and-the-log-is-bounded.md). Events that come in numbers (a
// review link's opens) are one entry per key, written by the first, with a count beside it that the
// list shows (docs/decisions/085-review-link-checks-wait-their-turn-opens-counted-per-day.md).
import { and, count, desc, eq, isNull, max, type SQL, sql } from 'drizzle-orm'
import { activityCounts, activityLog } from '../../db/schema.ts'
import type { ActivityKind, ListActivityQuery } from '../contract/activity.ts'
import { withoutRefusedFormat } from '../contract/text.ts'
import type { Db } from '../db/database.ts'

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
/** An e-mail address is at most 254 characters; a name typed at sign-in is shown as one. */
const ACTOR_MAX = 254

/** What the log keeps: a year, and at most this many entries. */
export const ACTIVITY_RETENTION = { days: 365, entries: 100_000 }

// What a sign-in attempt typed reaches the log as it came (validation never saw it): the log
// keeps one visible line, each run of controls, separators or spaces one space, and no invisible
// formatting that the text rule (src/contract/text.ts) would refuse.
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}\s]+/gu

/** One visible line of at most `max` characters, or null when nothing visible is left. */
export function logText(value: string | null | undefined, max = TEXT_MAX): string | null {
  if (value == null) return null
  const line = withoutRefusedFormat(value.replace(BREAKS, () => ' ')).trim()
  if (!line) return null
  const chars = [...line]
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : line
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** What a counted entry's summary ends with in the list. */
export const countText = (times: number, addresses: number) =>
  `${plural(times, 'time', 'times')} from ${plural(addresses, 'address', 'addresses')}`

const rowOf = (entry: ActivityEntry) => ({
  actorId: entry.actorId,
  actorName: logText(entry.actorName, ACTOR_MAX),
  kind: entry.kind,
  summary: logText(entry.summary) ?? '',
  targetId: logText(entry.targetId),
  targetTitle: logText(entry.targetTitle),
  ip: logText(entry.ip),
})

export function createActivityService(db: Db) {
  return {
    async record(entry: ActivityEntry): Promise<void> {
      await db.insert(activityLog).values(rowOf(entry))
    },

    /**
     * One more event of `key` (e.g. a link's opens in a day), `newAddress` when it came from an
     * address the caller had not seen for that key. The first event writes `entry`; the later
     * ones only count beside it. In one transaction: of simultaneous first events, one claims
     * the key and writes the entry (the others wait on the key, then count).
     */
    async counted(key: string, entry: ActivityEntry, newAddress: boolean): Promise<void> {
      const added = newAddress ? 1 : 0
      await db.transaction(async (tx) => {
        const [claimed] = await tx
          .insert(activityCounts)
          .values({ key, times: 1, addresses: added })
          .onConflictDoNothing()
          .returning({ key: activityCounts.key })
        if (!claimed) {
          await tx
            .update(activityCounts)
            .set({
              times: sql`${activityCounts.times} + 1`,
              addresses: sql`${activityCounts.addresses} + ${added}`,
            })
            .where(eq(activityCounts.key, key))
          return
        }
        const [written] = await tx
          .insert(activityLog)
          .values(rowOf(entry))
          .returning({ id: activityLog.id })
        await tx
          .update(activityCounts)
          .set({ entryId: written!.id })
          .where(eq(activityCounts.key, key))
      })
    },

    /**
     * Removes entries older than `days` and those past the newest `entries`; the trigger lets
     * these deletes, and only these, through. Run at start-up and hourly (src/services.ts, its housekeeping).
     */
    async prune({ days, entries } = ACTIVITY_RETENTION): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('studio.activity_retention', 'on', true)`)
        const old = await tx
          .delete(activityLog)
          .where(sql`${activityLog.at} < now() - make_interval(days => ${days})`)
          .returning({ id: activityLog.id })
        const beyond = await tx
          .delete(activityLog)
          .where(
            sql`${activityLog.id} <= (select id from ${activityLog} order by id desc offset ${entries} limit 1)`,
          )
          .returning({ id: activityLog.id })
        // Counts whose entry is gone; a day's grace for a key whose first event is being written.
        await tx.execute(sql`delete from ${activityCounts} c
          where c.at < now() - interval '1 day'
            and not exists (select 1 from ${activityLog} l where l.id = c.entry_id)`)
        return old.length + beyond.length
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
        .select({
          entry: activityLog,
          times: activityCounts.times,
          addresses: activityCounts.addresses,
        })
        .from(activityLog)
        .leftJoin(activityCounts, eq(activityCounts.entryId, activityLog.id))
        .where(where)
        .orderBy(desc(activityLog.id))
        .limit(limit)
        .offset((page - 1) * limit)
      const entries: ActivityView[] = rows.map(({ entry: r, times, addresses }) => ({
        _id: String(r.id),
        at: r.at.toISOString(),
        actor: { _id: r.actorId, name: r.actorName },
        kind: r.kind,
        summary: times === null ? r.summary : `${r.summary}: ${countText(times, addresses ?? 0)}`,
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
