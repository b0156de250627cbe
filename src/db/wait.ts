// A DATABASE_URL server that is not there yet is waited for: in a container the database often
// comes up seconds after the app. Each wait is logged in one line; after DATABASE_WAIT seconds,
// or at once for an answer no wait can change (a wrong password, a missing database), start-up
// stops with one line naming the host and the cause, never the password.
import postgres from 'postgres'

export class DatabaseUnreachableError extends Error {}

// Errors of the network or of a server still starting: worth another try.
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '53300', // too_many_connections
])

/** host:port as written in the URL (port 5432 when none), for messages: no user, no password. */
export function hostOf(url: string): string {
  const authority = url.slice(url.indexOf('://') + 3).split(/[?/]/)[0] ?? ''
  const hosts = authority.slice(authority.lastIndexOf('@') + 1) || 'localhost'
  return hosts
    .split(',')
    .map((h) => (/:\d+$/.test(h) ? h : `${h}:5432`))
    .join(',')
}

function causeOf(error: unknown): { text: string; transient: boolean } {
  const e = error as { code?: unknown; message?: unknown; severity?: unknown }
  const code = typeof e?.code === 'string' ? e.code : ''
  // A PostgreSQL error (it has a severity) reads best as its message; a network one as its code.
  const text = e?.severity || !code ? String(e?.message ?? error).replace(/\s+/g, ' ') : code
  return { text, transient: TRANSIENT_CODES.has(code) }
}

/** The pause before retry number `attempt` (0-based): 0.5, 1, 2, 4, then 5 s. */
const backoffMs = (attempt: number) => Math.min(500 * 2 ** attempt, 5000)

export async function waitForDatabase(
  url: string,
  waitSeconds: number,
  log: (line: string) => void = console.warn,
): Promise<void> {
  const where = hostOf(url)
  const deadline = performance.now() + waitSeconds * 1000
  for (let attempt = 0; ; attempt++) {
    const left = () => deadline - performance.now()
    const probe = postgres(url, {
      max: 1,
      onnotice: () => {},
      connect_timeout: Math.max(1, Math.min(10, Math.ceil(left() / 1000))),
    })
    let cause: ReturnType<typeof causeOf>
    try {
      await probe`select 1`
      return
    } catch (error) {
      cause = causeOf(error)
    } finally {
      await probe.end({ timeout: 0 })
    }
    if (!cause.transient) {
      throw new DatabaseUnreachableError(
        `Could not use the database at ${where}: ${cause.text}. Check DATABASE_URL.`,
      )
    }
    if (left() <= 0) {
      throw new DatabaseUnreachableError(
        `Could not reach the database at ${where} within ${waitSeconds} s: ${cause.text}. Check that it is running and that DATABASE_URL names it (DATABASE_WAIT sets the wait).`,
      )
    }
    const pause = Math.min(backoffMs(attempt), left())
    log(
      `Database at ${where} not reachable (${cause.text}); retrying in ${(pause / 1000).toFixed(1)} s`,
    )
    await Bun.sleep(pause)
  }
}
