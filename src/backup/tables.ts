// The database side of a backup: which tables it holds (every table of the app's schema but the
// transient ones), in an order where a row's foreign keys point at rows already restored, each
// dumped as JSON lines and put back through json_populate_recordset, so a dump from the
// embedded database restores into PostgreSQL and back.
import { is } from 'drizzle-orm'
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core'
import type postgres from 'postgres'
import * as schema from '../../db/schema.ts'

/**
 * Left out: sign-in rate limits are counters that expire within the hour, sessions and reset links
 * are live credentials a restored site should not honour (everyone signs in again). Public copies
 * describe objects an archive does not hold
 * (docs/decisions/087-public-copies-under-public-for-shown-works-only.md): a restored site makes
 * its own. pg-boss's schema is not `public`: its jobs are rebuilt from the videos at start-up.
 */
export const TRANSIENT_TABLES = [
  'rate_limits',
  'sessions',
  'password_reset_tokens',
  'public_copies',
] as const

export type TableInfo = { name: string; columns: string[] }

/**
 * The tables an archive may hold, with the columns a row of each may name: this version's schema
 * but the transient tables and computed columns. Restore refuses any other table or column before
 * it touches the target; an archive of a table this version dropped restores with the version
 * that wrote it, and is carried forward by that version's migrations.
 */
export const ARCHIVED_TABLES: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => getTableConfig(table))
    .filter((table) => !(TRANSIENT_TABLES as readonly string[]).includes(table.name))
    .map((table) => [
      table.name,
      new Set(table.columns.filter((c) => !c.generated).map((c) => c.name)),
    ]),
)

export type SequenceValue = { name: string; value: string }

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`

/** Tables of `public` (but the transient ones) with their stored columns, parents first. */
export async function listTables(
  sql: postgres.Sql | postgres.TransactionSql,
): Promise<TableInfo[]> {
  const rows = await sql<{ name: string; columns: string[] }[]>`
    select c.relname as name,
           array_agg(a.attname::text order by a.attnum) as columns
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                         and a.attgenerated = ''
     where n.nspname = 'public' and c.relkind in ('r', 'p')
     group by c.relname
     order by c.relname`
  const edges = await sql<{ child: string; parent: string }[]>`
    select distinct c.relname as child, p.relname as parent
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`
  const skip = new Set<string>(TRANSIENT_TABLES)
  const tables = rows.filter((row) => !skip.has(row.name))
  const parents = new Map(tables.map((t) => [t.name, new Set<string>()]))
  for (const { child, parent } of edges) parents.get(child)?.add(parent)
  const ordered: TableInfo[] = []
  const placed = new Set<string>()
  while (ordered.length < tables.length) {
    const next = tables.find(
      (t) =>
        !placed.has(t.name) &&
        [...(parents.get(t.name) ?? [])].every((p) => placed.has(p) || !parents.has(p)),
    )
    if (!next) throw new Error('the tables reference each other in a cycle; no restore order')
    placed.add(next.name)
    ordered.push(next)
  }
  return ordered
}

/** Each row of `table` as one line of JSON text, a few hundred rows at a time. */
export async function* dumpRows(
  tx: postgres.TransactionSql,
  table: string,
): AsyncGenerator<string> {
  const cursor = tx.unsafe(`select row_to_json(t)::text as j from ${ident(table)} t`).cursor(500)
  for await (const rows of cursor) for (const row of rows) yield row.j as string
}

/** Every sequence of `public` that has handed out a value (identity columns included). */
export async function dumpSequences(tx: postgres.TransactionSql): Promise<SequenceValue[]> {
  const rows = await tx<{ name: string; value: string }[]>`
    select sequencename as name, last_value::text as value
      from pg_sequences
     where schemaname = 'public' and last_value is not null
     order by sequencename`
  return rows.map(({ name, value }) => ({ name, value }))
}

/**
 * Inserts rows given as JSON texts, each exactly one JSON object (restore has checked every line
 * of the archive: joined, they must make one array element each). Only the archive's columns are
 * named, so a column added by a later migration takes its default; identity columns keep their
 * values. Returns how many rows went in.
 */
export async function insertRows(
  tx: postgres.TransactionSql,
  table: TableInfo,
  lines: string[],
): Promise<number> {
  if (lines.length === 0) return 0
  const columns = table.columns.map(ident).join(', ')
  const result = await tx.unsafe(
    `insert into ${ident(table.name)} (${columns}) overriding system value
       select ${columns} from json_populate_recordset(null::${ident(table.name)}, $1::json)`,
    [`[${lines.join(',')}]`],
  )
  return result.count
}

/** The sequences of `public` (what a manifest's sequences may name). */
export async function publicSequences(tx: postgres.TransactionSql): Promise<Set<string>> {
  const rows = await tx<{ name: string }[]>`
    select sequencename as name from pg_sequences where schemaname = 'public'`
  return new Set(rows.map((row) => row.name))
}

/** Sets each sequence to where it stood, so new rows do not collide with restored ones. */
export async function restoreSequences(
  tx: postgres.TransactionSql,
  sequences: SequenceValue[],
): Promise<void> {
  for (const { name, value } of sequences) {
    await tx`select setval(${`public.${ident(name)}`}::regclass, ${value}::bigint, true)`
  }
}

/** The first of the site's tables that has a row, of those this database has. */
export async function firstNonEmptyTable(sql: postgres.Sql): Promise<string | undefined> {
  // Only the site's own tables: a database may hold others in `public` (PostGIS's, say).
  const existing = await sql<{ name: string }[]>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relname = any(${[...ARCHIVED_TABLES.keys()]})`
  for (const { name } of existing) {
    const [row] = await sql.unsafe(`select 1 from ${ident(name)} limit 1`)
    if (row) return name
  }
  return undefined
}

/**
 * The stored names and stream folders the rows name (what the media sweep keeps): the videos'
 * files and folders, their caption tracks, the files of their versions that are not current, and
 * the site's images.
 */
export async function namedMedia(
  tx: postgres.TransactionSql,
): Promise<{ names: Set<string>; folders: Set<string> }> {
  const names = await tx<{ name: string }[]>`
    select video_key as name from videos
    union select thumbnail_key from videos
    union select brand_logo_key from videos
    union select key from video_captions
    union select master_key from video_versions where master_key is not null
    union select c->>'key' from video_versions, jsonb_array_elements(captions) c
    union select unnest(names) from site_images`
  const folders = await tx<{ folder: string }[]>`
    select streams_key as folder from videos where streams_key is not null
    union select streams_key from video_versions where streams_key is not null`
  return {
    names: new Set(names.map((r) => r.name)),
    folders: new Set(folders.map((r) => r.folder)),
  }
}
