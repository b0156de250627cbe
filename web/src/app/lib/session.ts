// The end of a session, seen from the browser. Every call to the server is made with the token
// of the session it belongs to; a 401 means "the session is gone" only for a call of the
// session still signed in. Calls of a session the user has already ended are told apart by
// their token, and signing out waits for them before it ends the session on the server, so none
// of them meets a 401.
import { useAuthStore } from '../stores/auth.ts'

// Who handles "the session is gone": set once by mount.tsx (it owns the router and the cache).
let handler: () => void = () => {}

export function setUnauthorizedHandler(next: () => void) {
  handler = next
}

/** A call made with `sentWith` was refused with 401: handled only if that is still our session. */
export function handleUnauthorized(sentWith: string | null) {
  const { token } = useAuthStore.getState()
  if (sentWith && sentWith === token) handler()
}

// Calls on their way, by the token they were sent with.
const inFlight = new Map<string, { count: number; idle: Array<() => void> }>()

/** Counts a call made with `token` until the returned function is called (once is enough). */
export function trackCall(token: string | null): () => void {
  if (!token) return () => {}
  const calls = inFlight.get(token) ?? { count: 0, idle: [] }
  inFlight.set(token, calls)
  calls.count++
  let done = false
  return () => {
    if (done) return
    done = true
    if (--calls.count > 0) return
    inFlight.delete(token)
    for (const resolve of calls.idle) resolve()
  }
}

/** Resolves once no call made with `token` is on its way, or after `timeoutMs` regardless. */
export function callsSettled(token: string, timeoutMs: number): Promise<void> {
  const calls = inFlight.get(token)
  if (!calls) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs)
    calls.idle.push(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}

// Long enough for any read the dashboard makes; a session must not outlive sign-out for long.
const SETTLE_LIMIT_MS = 5000

/**
 * Ends the session `token` on the server once the calls it made have answered. The caller has
 * already left the dashboard and cleared the stored auth, so no new call is made with it.
 */
export async function endSession(token: string, end: (token: string) => Promise<unknown>) {
  await callsSettled(token, SETTLE_LIMIT_MS)
  // Best effort: the browser has forgotten the token either way.
  await end(token).catch(() => undefined)
}
