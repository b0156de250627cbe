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

const headersOf = (csp: string) =>
  Object.entries({
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  })

/** One app's headers: its policy names where its media may load from. */
export type SecurityHeaders = {
  /**
   * Sets the headers every answer carries, and `cacheControl` where the answer has no
   * Cache-Control of its own (cached answers and static files choose theirs).
   */
  secure(res: Response, cacheControl?: string): Response
  /** The sources media and images may come from, for policies written elsewhere. */
  mediaSources: string
}

/**
 * The headers of an app whose media load from our origin and, when /media redirects there
 * (MEDIA_PUBLIC_URL), from that URL's origin.
 */
export function securityHeaders(mediaPublicUrl: string | undefined): SecurityHeaders {
  const mediaSources = mediaPublicUrl ? `'self' ${new URL(mediaPublicUrl).origin}` : "'self'"
  const headers = headersOf(policy(mediaSources))
  const set = (target: Headers, cacheControl: string | undefined) => {
    for (const [k, v] of headers) target.set(k, v)
    if (cacheControl && !target.has('cache-control')) target.set('Cache-Control', cacheControl)
  }
  return {
    mediaSources,
    secure(res, cacheControl) {
      if (secured.has(res)) return res
      try {
        set(res.headers, cacheControl)
        return markSecured(res)
      } catch {
        // Immutable headers (a proxied Response): copy into a new one.
        const copy = new Response(res.body, res)
        set(copy.headers, cacheControl)
        return markSecured(copy)
      }
    },
  }
}

/** For answers about or for one signed-in admin (and tokens): no browser or proxy keeps them. */
export const NO_STORE = 'no-store'

// Answers that carry these already: those secured here, and cached answers built from secured
// headers (src/http/response-cache.ts). A WeakSet, because reading `res.headers` to find out
// costs Bun a Headers object per answer.
const secured = new WeakSet<Response>()

/** Notes that `res` was built from headers that `secure` already set. */
export function markSecured(res: Response): Response {
  secured.add(res)
  return res
}
