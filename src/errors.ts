// Expected failures: a typed code, a human message and, for form errors, the field. tRPC carries
// them to the web app; src/rest/respond.ts maps them to REST answers. Nothing else invents codes.
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

export type PublicError = { status: number; message: string; field?: string }

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
    }
  }
  if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') {
    return { status: getHTTPStatusCodeFromError(error), message: error.message }
  }
  return { status: 500, message: INTERNAL }
}
