// Where sign-in may send the visitor afterwards.
import { z } from 'zod'

// Any origin that is not a real one: a redirect that resolves against it to another origin
// ("//evil.example", "/\\evil.example", "https://…") leaves the site.
const HERE = 'http://here.invalid'

/**
 * Only a path of this site is followed after sign-in, as the browser would read it; anything
 * else is undefined (and sign-in goes to /dashboard).
 */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/')) return undefined
  let url: URL
  try {
    url = new URL(value, HERE)
  } catch {
    return undefined
  }
  const path = url.pathname + url.search + url.hash
  // "/.//evil.example" resolves here to the path "//evil.example", which leaves when followed.
  return url.origin === HERE && !path.startsWith('//') ? path : undefined
}

/**
 * The sign-in routes' search (validateSearch): `redirect` is what safeRedirect makes of it. The
 * key stays when it was there, as undefined when refused: the router lays the validated search
 * over the raw one, so a missing key would let the raw value through.
 */
export const signInSearchSchema = z.object({
  redirect: z.unknown().optional().transform(safeRedirect),
})
