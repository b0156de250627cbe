// Reading small request bodies with a hard cap, so no JSON route can be made to buffer megabytes.
import { AppError } from '../errors.ts'

export const JSON_BODY_LIMIT = 64 * 1024

/** The body as text, refusing more than `limit` bytes whatever Content-Length claims. */
export async function readCapped(req: Request, limit = JSON_BODY_LIMIT): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? 0)
  if (declared > limit) throw new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large')
  if (!req.body) return ''
  const reader = req.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new AppError('BAD_REQUEST', 'Request body could not be read')
    })
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large')
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** A JSON object body; an empty body counts as {}. */
export async function readJson(
  req: Request,
  limit = JSON_BODY_LIMIT,
): Promise<Record<string, unknown>> {
  const text = await readCapped(req, limit)
  if (!text.trim()) return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new AppError('BAD_REQUEST', 'Request body must be valid JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new AppError('BAD_REQUEST', 'Request body must be a JSON object')
  return value as Record<string, unknown>
}
