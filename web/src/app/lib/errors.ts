// Reads what the client needs from a failed call: status, code, the field at fault, a message.
import { TRPCClientError } from '@trpc/client'

export interface ApiError {
  status?: number
  code?: string
  field?: string
  /** The server's human message, when there is one worth showing. */
  message?: string
}

interface ErrorData {
  httpStatus?: number
  code?: string
  field?: string
}

/** A message that is really a serialized validation dump is not shown to people. */
const readable = (text: string | undefined) => (text && !/^\s*[[{]/.test(text) ? text : undefined)

export function readError(err: unknown): ApiError {
  if (err instanceof TRPCClientError) {
    const data = (err.data ?? {}) as ErrorData
    return {
      status: data.httpStatus,
      code: data.code,
      field: data.field ?? undefined,
      message: readable(err.message),
    }
  }
  if (err && typeof err === 'object' && 'status' in err) {
    const e = err as { status?: number; message?: string }
    return { status: e.status, message: readable(e.message) }
  }
  return { message: err instanceof Error ? readable(err.message) : undefined }
}

export const isUnauthorized = (err: unknown) => {
  const e = readError(err)
  return e.status === 401 || e.code === 'UNAUTHORIZED'
}
