// REST answer shapes (docs/api.md): {status:'success', data} and {status:'error', message, field?}.
import { logUnexpected } from '../db/errors.ts'
import { toPublicError } from '../errors.ts'

export function ok(data: unknown, status = 200): Response {
  return Response.json({ status: 'success', data }, { status })
}

export function fail(error: unknown): Response {
  const pub = toPublicError(error)
  if (pub.status >= 500) logUnexpected('rest', error)
  const body = { status: 'error', message: pub.message, ...(pub.field ? { field: pub.field } : {}) }
  const headers = pub.retryAfter ? { 'Retry-After': String(pub.retryAfter) } : undefined
  return Response.json(body, { status: pub.status, headers })
}
