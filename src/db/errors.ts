// What the database said, read once for every caller: the unique indexes that become 409s on a
// form field, and a log line that names the failure without the query's parameters (drizzle's
// wrapper prints them in its message, and for an admin insert they hold the password hash).
import { DrizzleQueryError } from 'drizzle-orm'
import postgres from 'postgres'
import { msg } from '../contract/messages.ts'
import { AppError } from '../errors.ts'

const UNIQUE_VIOLATION = '23505'
export const FOREIGN_KEY_VIOLATION = '23503'

/** Every unique index a request can run into, by name (db/schema.ts), with the field it names. */
const UNIQUE_FIELDS: Record<string, { field: string; message: string }> = {
  admins_email_lower_idx: { field: 'email', message: msg.emailTaken },
  admins_username_lower_idx: { field: 'username', message: msg.usernameTaken },
  videos_title_lower_idx: { field: 'title', message: msg.titleTaken },
  // Two titles that make one address (src/videos/slugs.ts), saved at the same moment.
  videos_slug_idx: { field: 'title', message: msg.slugRace },
  video_slugs_pkey: { field: 'title', message: msg.slugRace },
}

function* causes(error: unknown): Generator<unknown> {
  let e = error
  for (let depth = 0; depth < 8 && e; depth++) {
    yield e
    e = (e as { cause?: unknown }).cause
  }
}

/** The PostgreSQL error under any wrappers (drizzle's, tRPC's), if there is one. */
export function postgresErrorOf(error: unknown): postgres.PostgresError | undefined {
  for (const e of causes(error)) if (e instanceof postgres.PostgresError) return e
  return undefined
}

/**
 * For `.catch()` on a write: a unique index the check before it could not see (two requests
 * raced past it) becomes the same 409 the check gives; anything else is rethrown.
 */
export function conflictOnUnique(error: unknown): never {
  const pg = postgresErrorOf(error)
  const known =
    pg?.code === UNIQUE_VIOLATION && pg.constraint_name
      ? UNIQUE_FIELDS[pg.constraint_name]
      : undefined
  if (known) throw new AppError('CONFLICT', known.message, known.field)
  throw error
}

export type DatabaseFailure = {
  database: string
  code?: string
  constraint?: string
  table?: string
  stack?: string
}

/**
 * What may be logged of an unexpected error. A database failure becomes its message, SQLSTATE,
 * constraint and table plus the call frames; never the query text's parameters, the `detail`
 * (PostgreSQL puts the failing row there) or drizzle's message. Other errors are kept as they are.
 */
export function loggable(error: unknown): unknown {
  const chain = [...causes(error)]
  const pg = chain.find((e) => e instanceof postgres.PostgresError)
  const wrapper = chain.find((e) => e instanceof DrizzleQueryError)
  if (!pg && !wrapper) return error
  const inner = (pg ?? (wrapper as DrizzleQueryError).cause) as
    | Partial<postgres.PostgresError>
    | undefined
  const frames = (wrapper ?? pg) instanceof Error ? framesOf((wrapper ?? pg) as Error) : undefined
  const failure: DatabaseFailure = { database: inner?.message ?? 'query failed' }
  if (typeof inner?.code === 'string') failure.code = inner.code
  if (inner?.constraint_name) failure.constraint = inner.constraint_name
  if (inner?.table_name) failure.table = inner.table_name
  if (frames) failure.stack = frames
  return failure
}

/** The "at …" lines of a stack, without the message above them (which may span lines). */
function framesOf(error: Error): string | undefined {
  const stack = error.stack ?? ''
  const head = `${error.name}: ${error.message}`
  const rest = stack.startsWith(head) ? stack.slice(head.length) : ''
  const lines = rest.split('\n').filter((l) => /^\s+at /.test(l))
  return lines.length ? lines.join('\n') : undefined
}

/** The one way an unexpected error reaches the log. */
export function logUnexpected(scope: string, error: unknown): void {
  console.error(`[${scope}]`, loggable(error))
}
