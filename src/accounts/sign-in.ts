// Sign-in, sessions and password reset: the rules behind the auth router and REST paths.
import { and, eq, gt, sql } from 'drizzle-orm'
import { RateLimiterRes } from 'rate-limiter-flexible'
import { admins, passwordResetTokens } from '../../db/schema.ts'
import { msg } from '../contract/messages.ts'
import type { Db } from '../db/database.ts'
import { FOREIGN_KEY_VIOLATION, logUnexpected, postgresErrorOf } from '../db/errors.ts'
import { AppError } from '../errors.ts'
import type { Mailer } from '../mail/mailer.ts'
import { type AdminView, toAdminView } from './admin-view.ts'
import { DeferredQueue } from './deferred-queue.ts'
import { LimitStore } from './limit-store.ts'
import { type AppLucia, SESSION_MAX_AGE_MS } from './lucia.ts'
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.ts'
import {
  type Attempt,
  AttemptLimits,
  BUSY_MESSAGE,
  type LimitOptions,
  tooManyMessage,
} from './rate-limit.ts'
import { resetPasswordMail } from './reset-mail.ts'
import { SessionCache } from './session-cache.ts'
import { hashToken, newToken } from './tokens.ts'

const RESET_TTL_MS = 60 * 60 * 1000
const LOCKS = {
  lockSeconds: 15 * 60,
  maxLockSeconds: 24 * 60 * 60,
  lockMemorySeconds: 24 * 60 * 60,
}

/**
 * ASVS 6.3.1; docs/decisions/062-limits-in-the-database-health-and-metrics.md explains the numbers.
 */
export const SIGN_IN_LIMITS: LimitOptions = {
  perPair: 10,
  perAddress: 20,
  windowSeconds: 15 * 60,
  ...LOCKS,
  inFlight: { perAddress: 4, perEmail: 4, total: 16 },
}
/** Reset requests cost a lookup, not an argon2 check: counted, not capped in flight. */
export const RESET_LIMITS: LimitOptions = {
  perPair: 5,
  perAddress: 10,
  windowSeconds: 15 * 60,
  ...LOCKS,
  inFlight: { perAddress: 0, perEmail: 0, total: 0 },
}
/** Reset mails one address receives per hour, whoever asks; further requests send nothing. */
const MAILS_PER_EMAIL_HOUR = 10
/** E-mails waiting for their reset work; beyond this (a flood) requests are answered and dropped. */
const MAX_QUEUED_RESETS = 1000
/** The random pause before queued reset work runs (src/accounts/deferred-queue.ts says why). */
const RESET_PAUSE_MS = { min: 20, max: 200 }

/**
 * A refused attempt: `started` says this refusal began the lock (of an e-mail from an address, or
 * of the address), which the activity log records once per lock (the `failed` entry of auth.login in src/api/routers/auth.ts).
 */
export class LockedOut extends AppError {
  constructor(
    message: string,
    readonly started: 'pair' | 'address' | undefined,
    readonly retryMs: number,
  ) {
    super('TOO_MANY_REQUESTS', message)
  }
}

export type SessionUser = AdminView
export type AuthSession = { id: string; user: SessionUser }

export function createAuthService(deps: {
  db: Db
  lucia: AppLucia
  mailer: Mailer
  publicUrl: string
}) {
  const { db, lucia, mailer } = deps
  // Shared by every server on the database
  // (docs/decisions/062-limits-in-the-database-health-and-metrics.md): each guards a secret.
  const limitStore = new LimitStore(db)
  const signIns = new AttemptLimits(limitStore, 'signin', SIGN_IN_LIMITS)
  const resetRequests = new AttemptLimits(limitStore, 'reset', RESET_LIMITS)
  const resetMails = limitStore.counter('reset-mail', MAILS_PER_EMAIL_HOUR, 60 * 60)

  /** One attempt reserved before the work it guards, or a 429 at once. */
  async function reserve(limits: AttemptLimits, email: string, clientIp: string): Promise<Attempt> {
    const attempt = await limits.reserve(email, clientIp)
    if (attempt.denied === 'busy') throw new AppError('TOO_MANY_REQUESTS', BUSY_MESSAGE)
    if (attempt.denied) {
      throw new LockedOut(tooManyMessage(attempt.retryMs), attempt.started, attempt.retryMs)
    }
    return attempt
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

  /** The reset request's real work: whether the address is known is decided here, off the answer. */
  async function sendResetMail(email: string) {
    const [row] = await db
      .select({ id: admins.id, email: admins.email })
      .from(admins)
      .where(eq(sql`lower(${admins.email})`, email))
      .limit(1)
    if (!row) return
    // Past the hourly cap the last mail's link still works (each mail replaces the one before).
    const underCap = await resetMails.consume(email).then(
      () => true,
      (e) => {
        if (e instanceof RateLimiterRes) return false
        throw e
      },
    )
    if (!underCap) return
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

  const resetWork = new DeferredQueue(
    sendResetMail,
    { pauseMs: RESET_PAUSE_MS, maxWaiting: MAX_QUEUED_RESETS },
    (e) => logUnexpected('auth: reset mail', e),
  )

  async function startSession(userId: string): Promise<string> {
    const token = newToken()
    await lucia.createSession(userId, { created_at: new Date() }, { sessionId: hashToken(token) })
    return token
  }

  return {
    async login(email: string, password: string, clientIp: string) {
      const attempt = await reserve(signIns, email, clientIp)
      try {
        const [row] = await db
          .select()
          .from(admins)
          .where(eq(sql`lower(${admins.email})`, email.toLowerCase()))
          .limit(1)
        const ok = row
          ? await verifyPassword(password, row.passwordHash)
          : await verifyAgainstDummy(password)
        if (!row || !ok) throw new AppError('UNAUTHORIZED', msg.invalidCredentials)
        await attempt.succeeded()
        const token = await startSession(row.id).catch((e) => {
          // The admin was deleted while signing in (sessions.user_id references admins).
          if (postgresErrorOf(e)?.code === FOREIGN_KEY_VIOLATION)
            throw new AppError('UNAUTHORIZED', msg.invalidCredentials)
          throw e
        })
        return { user: toAdminView(row), token }
      } finally {
        attempt.done()
      }
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

    /**
     * Answers the same, in the same time, for known and unknown addresses (ASVS 6.3.8): only the
     * limits are checked here; the lookup, the token and the mail are deferred work.
     */
    async requestPasswordReset(email: string, clientIp: string) {
      const attempt = await reserve(resetRequests, email, clientIp)
      attempt.done()
      resetWork.add(email.toLowerCase())
    },

    /** Resolves when background work (reset mails) has finished; used at shutdown and in tests. */
    settle: () => resetWork.settle(),

    async resetPassword(token: string, password: string) {
      const tokenHash = hashToken(token)
      const live = and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        gt(passwordResetTokens.expiresAt, new Date()),
      )
      // A wrong token costs one lookup, never an argon2 hash.
      const [known] = await db
        .select({ userId: passwordResetTokens.userId })
        .from(passwordResetTokens)
        .where(live)
        .limit(1)
      if (!known) throw new AppError('BAD_REQUEST', msg.invalidResetLink)
      const passwordHash = await hashPassword(password)
      const done = await db.transaction(async (tx) => {
        const [used] = await tx
          .delete(passwordResetTokens)
          .where(live)
          .returning({ userId: passwordResetTokens.userId })
        if (!used) return null
        const [admin] = await tx
          .update(admins)
          .set({ passwordHash, updatedAt: new Date() })
          .where(eq(admins.id, used.userId))
          .returning({ id: admins.id, email: admins.email })
        return admin ?? null
      })
      if (!done) throw new AppError('BAD_REQUEST', msg.invalidResetLink)
      sessions.forgetUser(done.id)
      await lucia.invalidateUserSessions(done.id)
      // The owner proved control of the address: the locks others caused on it end.
      await signIns.liftEmail(done.email.toLowerCase())
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
