// Expected failures: a typed code, a human message and, for form errors, the field. tRPC carries
// them to the web app; src/http/respond.ts maps them to REST answers. Nothing else invents codes.
import { TRPCError } from '@trpc/server'
import { getHTTPStatusCodeFromError } from '@trpc/server/http'
import { ZodError } from 'zod'

export type AppErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'

export class AppError extends TRPCError {
  readonly field: string | undefined
  constructor(code: AppErrorCode, message: string, field?: string) {
    super({ code, message })
    this.field = field
  }
}

/** A refusal for now (a rate limit): the client may try again after `seconds` (Retry-After). */
export class TryLater extends AppError {
  constructor(
    message: string,
    readonly seconds: number,
  ) {
    super('TOO_MANY_REQUESTS', message)
  }
}

export type PublicError = {
  status: number
  message: string
  field?: string
  /** Seconds a client should wait before asking again (a Retry-After header). */
  retryAfter?: number
}

const INTERNAL = 'Something went wrong. Please try again.'

/** The one mapping from any thrown value to what a client may see. Never a stack trace. */
export function toPublicError(error: unknown): PublicError {
  const cause = error instanceof TRPCError ? error.cause : undefined
  const zod = error instanceof ZodError ? error : cause instanceof ZodError ? cause : undefined
  if (zod) {
    const issue = zod.issues[0]
    const field = issue?.path.length ? String(issue.path[0]) : undefined
    return { status: 400, message: issue?.message ?? 'Invalid input', ...(field ? { field } : {}) }
  }
  if (error instanceof AppError) {
    return {
      status: getHTTPStatusCodeFromError(error),
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
      ...(error instanceof TryLater ? { retryAfter: error.seconds } : {}),
    }
  }
  if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') {
    return { status: getHTTPStatusCodeFromError(error), message: error.message }
  }
  if (isDiskFull(error)) return { status: 507, message: STORAGE_FULL }
  if (isStorageUnavailable(error)) {
    return { status: 503, message: STORAGE_UNAVAILABLE, retryAfter: STORAGE_RETRY_SECONDS }
  }
  return { status: 500, message: INTERNAL }
}

// The media store did not answer (a bucket that keeps silent past its limits, or out of reach):
// the server is fine and the client may ask again soon. /media and tus answer with the same.
export const STORAGE_UNAVAILABLE = 'The media storage is not answering. Please try again shortly.'
export const STORAGE_RETRY_SECONDS = 5

/** Whether `error`, or an error it wraps, is the media store not answering (docs/limits.md). */
export function isStorageUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Object && depth < 8; depth++) {
    // A StorageError with a code is a store out of reach (s3.ts); a timeout is one too.
    if (e instanceof StorageError && (e instanceof StorageTimeoutError || 'code' in e)) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

// A full disk or quota is the server's state, not a crash and not the client's fault: 507 says
// so, and the client may try again later. The tus endpoint maps it with the same two.
export const STORAGE_FULL = 'The server is out of storage space. Please try again later.'
// ENOSPC/EDQUOT from the file system; 53100 (disk_full) from PostgreSQL.
const DISK_FULL_CODES: ReadonlySet<unknown> = new Set(['ENOSPC', 'EDQUOT', '53100'])

/** Whether `error`, or an error it wraps (drizzle and tRPC keep the original as `cause`), is a full disk. */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Object && depth < 8; depth++) {
    if (DISK_FULL_CODES.has((e as { code?: unknown }).code)) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

/** A storage engine refused or failed (src/storage/): a key it could not have made, a store out of reach. */
export class StorageError extends Error {
  override name = 'StorageError'
}

/**
 * The store did not answer in time (docs/limits.md): a request with no answer, or a body that
 * moved no byte, for its limit. Not retried by the S3 client: a store that kept silent that long
 * is answered for with 503 and Retry-After (below), never waited on.
 */
export class StorageTimeoutError extends StorageError {
  override name = 'StorageTimeoutError'
  constructor(
    what: string,
    readonly seconds: number,
  ) {
    super(`${what}: no answer in ${seconds} s`)
  }
}
