// Headers on every answer. Scripts only from our own origin (no inline), no framing, and no
// Referer, because reset links carry tokens in their path.
const policy = (media: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${media} data: blob:`,
    // data: for the empty WebVTT (`data:,WEBVTT`) hls.js gives each text track it makes from a
    // stream's subtitles before filling it with cues; media cannot run script.
    `media-src ${media} blob: data:`,
    "font-src 'self'",
    // hls.js fetches playlists and segments itself.
    `connect-src ${media}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')

export const CONTENT_SECURITY_POLICY = policy("'self'")

const headersOf = (csp: string) =>
  Object.entries({
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  })

let HEADERS = headersOf(CONTENT_SECURITY_POLICY)
let media = "'self'"

/**
 * Where media may load from: our origin, and the origin of MEDIA_PUBLIC_URL when /media redirects
 * there. One app per process, so the app sets it once as it starts.
 */
export function allowMediaFrom(publicUrl: string | undefined): void {
  media = publicUrl ? `'self' ${new URL(publicUrl).origin}` : "'self'"
  HEADERS = headersOf(policy(media))
}

/** The sources media and images may come from, for policies written elsewhere. */
export const mediaSources = () => media

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
