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

const HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
}

// Answers that carry these already: those secured here, and cached answers built from secured
// headers (src/http/response-cache.ts). A WeakSet, because reading `res.headers` to find out
// costs Bun a Headers object per answer.
const secured = new WeakSet<Response>()

/** Notes that `res` was built from headers that withSecurityHeaders already set. */
export function markSecured(res: Response): Response {
  secured.add(res)
  return res
}

export function withSecurityHeaders(res: Response): Response {
  if (secured.has(res)) return res
  for (const [k, v] of Object.entries(HEADERS)) {
    try {
      res.headers.set(k, v)
    } catch {
      // Immutable headers (a proxied Response): copy into a new one.
      const copy = new Response(res.body, res)
      for (const [k2, v2] of Object.entries(HEADERS)) copy.headers.set(k2, v2)
      return markSecured(copy)
    }
  }
  return markSecured(res)
}
