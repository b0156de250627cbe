// Headers on every answer. Scripts only from our own origin (no inline), no framing, and no
// Referer, because reset links carry tokens in their path.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const HEADERS = Object.entries({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
})

/** For answers about or for one signed-in admin (and tokens): no browser or proxy keeps them. */
export const NO_STORE = 'no-store'

// Answers that carry these already: those secured here, and cached answers built from secured
// headers (src/http/response-cache.ts). A WeakSet, because reading `res.headers` to find out
// costs Bun a Headers object per answer.
const secured = new WeakSet<Response>()

/** Notes that `res` was built from headers that withSecurityHeaders already set. */
export function markSecured(res: Response): Response {
  secured.add(res)
  return res
}

/**
 * Sets the headers every answer carries, and `cacheControl` where the answer has no
 * Cache-Control of its own (cached answers and static files choose theirs).
 */
export function withSecurityHeaders(res: Response, cacheControl?: string): Response {
  if (secured.has(res)) return res
  try {
    secure(res.headers, cacheControl)
    return markSecured(res)
  } catch {
    // Immutable headers (a proxied Response): copy into a new one.
    const copy = new Response(res.body, res)
    secure(copy.headers, cacheControl)
    return markSecured(copy)
  }
}

function secure(headers: Headers, cacheControl: string | undefined) {
  for (const [k, v] of HEADERS) headers.set(k, v)
  if (cacheControl && !headers.has('cache-control')) headers.set('Cache-Control', cacheControl)
}
