// The one client error vocabulary: any failed call (tRPC, a REST request, a tus upload) becomes
// `{ kind, field?, message }`. `kind` comes from the answer's status, `field` from the server's
// typed field (src/errors.ts), never from the wording of a message; screens decide with those.
import { TRPCClientError } from '@trpc/client'

export type ErrorKind =
  | 'invalid' // 400
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not-found' // 404
  | 'conflict' // 409
  | 'too-large' // 413
  | 'unsupported' // 415
  | 'rate-limited' // 429
  | 'storage-full' // 507
  | 'server' // any other failure the server answered
  | 'network' // no answer at all

export interface ClientError {
  kind: ErrorKind
  /** The form field at fault, as the server names it. */
  field?: string
  /** The server's human message; '' when there is none worth showing (use the screen's fallback). */
  message: string
}

/**
 * A failed REST or tus request: the answer's status, the server's one-line message and the field
 * it names. What web code throws for a non-tRPC call, so `toClientError` reads it like the rest.
 */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly field?: string,
  ) {
    super(message)
    this.name = 'RequestError'
  }
}

const kindByStatus: Record<number, ErrorKind> = {
  400: 'invalid',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  413: 'too-large',
  415: 'unsupported',
  429: 'rate-limited',
  507: 'storage-full',
}

/** tRPC's codes, for an error whose HTTP status is not known. */
const kindByCode: Record<string, ErrorKind> = {
  BAD_REQUEST: 'invalid',
  PARSE_ERROR: 'invalid',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not-found',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'too-large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported',
  TOO_MANY_REQUESTS: 'rate-limited',
}

export const kindOfStatus = (status: number | undefined): ErrorKind =>
  !status ? 'network' : (kindByStatus[status] ?? 'server')

interface TrpcErrorData {
  httpStatus?: number
  code?: string
  field?: string | null
}

/** What `err` means for the screen that made the call. */
export function toClientError(err: unknown): ClientError {
  if (err instanceof TRPCClientError) {
    const data = err.data as TrpcErrorData | undefined
    // No data: the call never got a tRPC answer (offline, a proxy's page).
    if (!data) return { kind: 'network', message: err.message }
    const kind = data.httpStatus
      ? kindOfStatus(data.httpStatus)
      : (kindByCode[data.code ?? ''] ?? 'server')
    return { kind, message: err.message, ...(data.field ? { field: data.field } : {}) }
  }
  if (err instanceof RequestError) {
    return {
      kind: kindOfStatus(err.status),
      message: err.message,
      ...(err.field ? { field: err.field } : {}),
    }
  }
  // A fetch that found no server throws a TypeError; anything else is this page's own failure.
  if (err instanceof TypeError) return { kind: 'network', message: err.message }
  return { kind: 'server', message: err instanceof Error ? err.message : '' }
}
