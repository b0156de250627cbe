// Sign-in, sessions and password reset: the rules behind the auth router and REST paths.
import { and, eq, gt, sql } from 'drizzle-orm'
import { admins, passwordResetTokens } from '../../db/schema.ts'
import { type AppLucia, SESSION_MAX_AGE_MS } from '../auth/lucia.ts'
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../auth/password.ts'
import { RateLimiter, tooManyMessage } from '../auth/rate-limit.ts'
import { SessionCache } from '../auth/session-cache.ts'
import { hashToken, newToken } from '../auth/tokens.ts'
import type { Db } from '../database.ts'
import { logUnexpected } from '../db-errors.ts'
import { AppError } from '../errors.ts'
import type { Mailer } from '../mail/mailer.ts'
import { resetPasswordMail } from '../mail/reset-mail.ts'
import { msg } from '../schemas/messages.ts'
import { type AdminView, toAdminView } from './admin-view.ts'

const RESET_TTL_MS = 60 * 60 * 1000
const WINDOW_MS = 10 * 60 * 1000

export type SessionUser = AdminView
export type AuthSession = { id: string; user: SessionUser }

export function createAuthService(deps: {
  db: Db
  lucia: AppLucia
  mailer: Mailer
  publicUrl: string
}) {
  const { db, lucia, mailer } = deps
  // Failed sign-ins per e-mail and per client address (ASVS 6.3.1).
  const loginFailures = new RateLimiter(10, WINDOW_MS)
  const resetRequests = new RateLimiter(5, WINDOW_MS)

  function guard(limiter: RateLimiter, keys: string[]) {
    const wait = Math.max(...keys.map((k) => limiter.retryAfter(k)))
    if (wait > 0) throw new AppError('TOO_MANY_REQUESTS', tooManyMessage(wait))
  }

  const sessions = new SessionCache<AuthSession>()
  const checking = new Map<string, Promise<AuthSession | null>>()

  async function checkSession(id: string): Promise<AuthSession | null> {
    const generation = sessions.generation
    const { session, user } = await lucia.validateSession(id)
    if (!session || !user) return null
    if (Date.now() - session.createdAt.getTime() > SESSION_MAX_AGE_MS) {
      await lucia.invalidateSession(session.id)
      return null
    }
    const result = { id: session.id, user: toAdminView(user) }
    const absoluteEnd = session.createdAt.getTime() + SESSION_MAX_AGE_MS
    const expiresAt = Math.min(session.expiresAt.getTime(), absoluteEnd)
    sessions.set(id, { value: result, userId: user.id, expiresAt }, Date.now(), generation)
    return result
  }
  const pending = new Set<Promise<void>>()
  function track(work: Promise<void>) {
    const p = work
      .catch((e) => logUnexpected('auth: reset mail', e))
      .finally(() => pending.delete(p))
    pending.add(p)
  }

  async function issueResetToken(row: { id: string; email: string }) {
    const token = newToken()
    await db.transaction(async (tx) => {
      await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, row.id))
      await tx.insert(passwordResetTokens).values({
        tokenHash: hashToken(token),
        userId: row.id,
        expiresAt: new Date(Date.now() + RESET_TTL_MS),
      })
    })
    // Built from PUBLIC_URL only: a forged Host header must not steer the link.
    const link = `${deps.publicUrl}/auth/reset-password/${token}`
    await mailer.send(resetPasswordMail(row.email, link))
  }

  async function startSession(userId: string): Promise<string> {
    const token = newToken()
    await lucia.createSession(userId, { created_at: new Date() }, { sessionId: hashToken(token) })
    return token
  }

  return {
    async login(email: string, password: string, clientIp: string) {
      const keys = [`email:${email}`, `ip:${clientIp}`]
      guard(loginFailures, keys)
      const [row] = await db
        .select()
        .from(admins)
        .where(eq(sql`lower(${admins.email})`, email.toLowerCase()))
        .limit(1)
      const ok = row
        ? await verifyPassword(password, row.passwordHash)
        : await verifyAgainstDummy(password)
      if (!row || !ok) {
        for (const k of keys) loginFailures.hit(k)
        throw new AppError('UNAUTHORIZED', msg.invalidCredentials)
      }
      loginFailures.reset(`email:${email}`)
      const token = await startSession(row.id)
      return { user: toAdminView(row), token }
    },

    /** A session for a known admin without a password: trusted scripts only (db/seed.ts). */
    startSessionFor: startSession,

    /** The session a bearer token opens, or null. Expired ones (idle or absolute) are ended. */
    async validate(token: string): Promise<AuthSession | null> {
      if (!token || token.length > 256) return null
      const id = hashToken(token)
      const cached = sessions.get(id)
      if (cached) return cached
      // One database check per session at a time: when a busy session's entry goes stale, the
      // requests arriving meanwhile share that check (64 separate ones queued ~260 ms deep on
      // the embedded database in bench/api).
      let check = checking.get(id)
      if (!check) {
        check = checkSession(id).finally(() => checking.delete(id))
        checking.set(id, check)
      }
      return check
    },

    async logout(sessionId: string) {
      sessions.forget(sessionId)
      await lucia.invalidateSession(sessionId)
    },

    /** Drops what is cached for a user whose account changed (edit, delete). */
    forgetUser(userId: string) {
      sessions.forgetUser(userId)
    },

    async requestPasswordReset(email: string, clientIp: string) {
      const keys = [`email:${email}`, `ip:${clientIp}`]
      guard(resetRequests, keys)
      for (const k of keys) resetRequests.hit(k)
      const [row] = await db
        .select({ id: admins.id, email: admins.email })
        .from(admins)
        .where(eq(sql`lower(${admins.email})`, email.toLowerCase()))
        .limit(1)
      if (!row) return
      // The known-address work runs after the answer, so both answers take the same time (6.3.8).
      track(issueResetToken(row))
    },

    /** Resolves when background work (reset mails) has finished; used at shutdown and in tests. */
    async settle() {
      await Promise.allSettled([...pending])
    },

    async resetPassword(token: string, password: string) {
      const passwordHash = await hashPassword(password)
      const userId = await db.transaction(async (tx) => {
        const [used] = await tx
          .delete(passwordResetTokens)
          .where(
            and(
              eq(passwordResetTokens.tokenHash, hashToken(token)),
              gt(passwordResetTokens.expiresAt, new Date()),
            ),
          )
          .returning({ userId: passwordResetTokens.userId })
        if (!used) return null
        await tx
          .update(admins)
          .set({ passwordHash, updatedAt: new Date() })
          .where(eq(admins.id, used.userId))
        return used.userId
      })
      if (!userId) throw new AppError('BAD_REQUEST', msg.invalidResetLink)
      sessions.forgetUser(userId)
      await lucia.invalidateUserSessions(userId)
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
