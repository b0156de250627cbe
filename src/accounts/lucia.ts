// lucia v3 sessions on their own postgres.js client. Session ids are SHA-256 of the bearer token.
import { PostgresJsAdapter } from '@lucia-auth/adapter-postgresql'
import { Lucia, TimeSpan } from 'lucia'
import type postgres from 'postgres'
import type { Role } from '../contract/admin.ts'

export const SESSION_IDLE_DAYS = 30
/** Absolute lifetime, however active the session (ASVS 7.3.2). */
export const SESSION_MAX_AGE_MS = 90 * 24 * 60 * 60 * 1000

export function createLucia(sql: postgres.Sql) {
  const adapter = new PostgresJsAdapter(sql, { user: 'admins', session: 'sessions' })
  return new Lucia(adapter, {
    // Sliding: lucia extends a session once half of this has passed.
    sessionExpiresIn: new TimeSpan(SESSION_IDLE_DAYS, 'd'),
    sessionCookie: { attributes: { secure: true } },
    getUserAttributes: (a) => ({
      username: a.username,
      email: a.email,
      role: a.role,
      createdAt: new Date(a.created_at),
    }),
    getSessionAttributes: (a) => ({ createdAt: new Date(a.created_at) }),
  })
}

export type AppLucia = ReturnType<typeof createLucia>

declare module 'lucia' {
  interface Register {
    Lucia: AppLucia
    DatabaseUserAttributes: {
      username: string
      email: string
      role: Role
      created_at: Date | string
    }
    DatabaseSessionAttributes: { created_at: Date | string }
  }
}
