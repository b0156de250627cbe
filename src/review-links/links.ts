// Private review links (docs/decisions/063-review-links-hmac-tokens-hashed-path-scoped-cookie.md):
// a secret address (/r/<token>) that shows one work, shown or hidden, to whoever holds it, until it
// expires or is revoked, optionally behind a password. The token is an HMAC of the link's random id
// under a server key: the database keeps only its SHA-256 (a copy of the database opens nothing),
// and the dashboard can show the address again. A password is hashed and rate-limited as a sign-in
// is (docs/decisions/008-argon2id-via-bun-password.md,
// docs/decisions/062-limits-in-the-database-health-and-metrics.md); a right one earns a cookie for
// that link's path only, signed with the link's id.
import { availableParallelism } from 'node:os'
import { and, count, desc, eq, gt, isNull, or, sql } from 'drizzle-orm'
import { type ReviewLinkRow, reviewLinkOpens, reviewLinks } from '../../db/schema.ts'
import { CheckQueue, type CheckQueueOptions } from '../accounts/check-queue.ts'
import { LimitStore } from '../accounts/limit-store.ts'
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../accounts/password.ts'
import { AttemptLimits, type LimitOptions } from '../accounts/rate-limit.ts'
import { hashToken } from '../accounts/tokens.ts'
import type { ActivityService } from '../activity/log.ts'
import {
  type CreateReviewLinkInput,
  createReviewLinkSchema,
  type ReviewLinkView,
  reviewLinkLimits,
} from '../contract/review-link.ts'
import type { Db } from '../db/database.ts'
import { AppError } from '../errors.ts'
import { addressGroup } from '../http/client-ip.ts'
import { sameBytes, signingKey } from '../signing/key.ts'
import type { PublicVideoView, ReviewVersion, VideosService } from '../videos/index.ts'

/**
 * Failures as a sign-in's (src/accounts/sign-in.ts), with a link in place of an e-mail. Checks
 * running at once are capped per address only: a cap per link or in all would let one holder's
 * flood refuse the client the link was made for. The CPU is bounded by REVIEW_CHECK_QUEUE instead,
 * which makes checks wait rather than refuses them.
 */
export const REVIEW_PASSWORD_LIMITS: LimitOptions = {
  perPair: 10,
  perAddress: 20,
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
  maxLockSeconds: 24 * 60 * 60,
  lockMemorySeconds: 24 * 60 * 60,
  inFlight: { perAddress: 4, perEmail: 0, total: 0 },
}

/**
 * argon2id checks of link passwords, one core's worth at a time (two cores here: the other one
 * keeps serving); an address without failures goes before every address with some.
 */
export const REVIEW_CHECK_QUEUE: CheckQueueOptions = {
  running: Math.max(1, availableParallelism() - 1),
  waiting: { clean: 64, failed: 32 },
  maxWaitMs: 5000,
}

/** How soon a check refused for want of a turn may be tried again. */
const BUSY_RETRY_MS = 1000

/** A token as /r/ takes it: 43 base64url characters (256 bits). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/
export const LINK_NOT_FOUND = 'Link not found'
export const tooManyLinks = `A work may have at most ${reviewLinkLimits.perVideo} active review links`

export type ReviewLinkState = ReviewLinkView['state']

/** What /r/<token> found: a link that opens, one that no longer does, or nothing. */
export type Resolved =
  | { state: 'active'; link: ReviewLinkRow; token: string }
  | { state: 'gone'; link: ReviewLinkRow }
  | { state: 'unknown' }

/** `busy`: refused for want of a turn, not for this address's failures. */
export type PasswordCheck =
  | { ok: true; cookie: string }
  | { ok: false; retryMs?: number; busy?: boolean }

/**
 * A version a link's page offers in its switcher: the current one, or an earlier ready one; its
 * `video` has the work's title, poster and logo with the version's own streams and captions.
 */
export type LinkVersion = Omit<ReviewVersion, 'names'>

/** A work its review page can play: streams exist and it has not failed. */
export type PlayableVideo = PublicVideoView & { hlsUrl: string; mp4Url: string }

/**
 * Whether a link's page plays its work. Until its streams exist (and after a failure) the page
 * says so and serves no media: the master is for admins only, whatever the work's state.
 */
export function playable(video: PublicVideoView): video is PlayableVideo {
  return video.status !== 'failed' && video.hlsUrl !== null && video.mp4Url !== null
}

export function stateOf(
  row: Pick<ReviewLinkRow, 'revokedAt' | 'expiresAt'>,
  now = Date.now(),
): ReviewLinkState {
  if (row.revokedAt) return 'revoked'
  if (row.expiresAt && row.expiresAt.getTime() <= now) return 'expired'
  return 'active'
}

export function createReviewLinksService(deps: {
  db: Db
  videos: Pick<VideosService, 'get' | 'forReview' | 'readyVersions' | 'findVersion'>
  activity: Pick<ActivityService, 'counted'>
  publicUrl: string
  /** The shared review-links key (base64url), loaded before the first request. */
  key: string
}) {
  const { db } = deps
  const base = deps.publicUrl.replace(/\/+$/, '')
  const limits = new AttemptLimits(new LimitStore(db), 'review', REVIEW_PASSWORD_LIMITS)
  const checks = new CheckQueue(REVIEW_CHECK_QUEUE)

  const key = signingKey(deps.key)
  const mac = (purpose: string, value: string) =>
    key.mac(`${purpose}\n${value}`).toString('base64url')

  const tokenOf = (id: string) => mac('token', id)

  function view(row: ReviewLinkRow): ReviewLinkView {
    return {
      id: row.id,
      videoId: row.videoId,
      url: `${base}/r/${tokenOf(row.id)}`,
      note: row.note,
      hasPassword: row.passwordHash !== null,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      createdBy: row.createdBy,
      lastOpenedAt: row.lastOpenedAt?.toISOString() ?? null,
      openCount: row.openCount,
      revokedAt: row.revokedAt?.toISOString() ?? null,
      state: stateOf(row),
    }
  }

  const activeNow = () =>
    and(
      isNull(reviewLinks.revokedAt),
      or(isNull(reviewLinks.expiresAt), gt(reviewLinks.expiresAt, sql`now()`)),
    )

  return {
    /** The work's links, newest first; 404 for an unknown work. */
    async list(videoId: string): Promise<ReviewLinkView[]> {
      const video = await deps.videos.get(videoId)
      const rows = await db
        .select()
        .from(reviewLinks)
        .where(eq(reviewLinks.videoId, video._id))
        .orderBy(desc(reviewLinks.createdAt), desc(reviewLinks.id))
      return rows.map(view)
    },

    async create(input: CreateReviewLinkInput, createdBy: string | null): Promise<ReviewLinkView> {
      const parsed = createReviewLinkSchema.parse(input)
      const video = await deps.videos.get(parsed.videoId)
      const [{ active } = { active: 0 }] = await db
        .select({ active: count() })
        .from(reviewLinks)
        .where(and(eq(reviewLinks.videoId, video._id), activeNow()))
      if (active >= reviewLinkLimits.perVideo) throw new AppError('CONFLICT', tooManyLinks)
      const id = crypto.randomUUID()
      const token = tokenOf(id)
      const [row] = await db
        .insert(reviewLinks)
        .values({
          id,
          videoId: video._id,
          tokenHash: hashToken(token),
          note: parsed.note,
          passwordHash: parsed.password ? await hashPassword(parsed.password) : null,
          expiresAt: parsed.expiresAt ? new Date(parsed.expiresAt) : null,
          createdBy,
        })
        .returning()
      return view(row!)
    },

    /** Ends a link at once; revoking a revoked link is no error (and no change). */
    async revoke(videoId: string, linkId: string): Promise<boolean> {
      const video = await deps.videos.get(videoId)
      const [found] = await db
        .select({ id: reviewLinks.id })
        .from(reviewLinks)
        .where(and(eq(reviewLinks.id, linkId), eq(reviewLinks.videoId, video._id)))
      if (!found) throw new AppError('NOT_FOUND', LINK_NOT_FOUND)
      const changed = await db
        .update(reviewLinks)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(reviewLinks.id, found.id), isNull(reviewLinks.revokedAt)))
        .returning({ id: reviewLinks.id })
      return changed.length > 0
    },

    /**
     * The link behind a token. One indexed lookup of the token's hash whatever the token is, so
     * an unknown token costs what a known one does; the caller pads refusals alike.
     */
    async resolve(token: string, now = Date.now()): Promise<Resolved> {
      if (!TOKEN_PATTERN.test(token)) return { state: 'unknown' }
      const [row] = await db
        .select()
        .from(reviewLinks)
        .where(eq(reviewLinks.tokenHash, hashToken(token)))
      if (!row) return { state: 'unknown' }
      return stateOf(row, now) === 'active'
        ? { state: 'active', link: row, token }
        : { state: 'gone', link: row }
    },

    /**
     * The work a link shows, with the names its page may fetch (its streams, poster, logo and
     * captions, never its master); null once the work is gone. `versionId`: one of the work's
     * versions instead of the current one (null for an id not of this work).
     */
    async work(
      link: ReviewLinkRow,
      versionId?: string,
    ): Promise<{ video: PublicVideoView; names: ReadonlySet<string> } | null> {
      return deps.videos.forReview(link.videoId, versionId)
    },

    /**
     * The versions the page of a link offers, oldest first: the current one (`current`, as
     * `work` shows it) and every earlier or later one that is ready. A version that is still
     * processing, failed or deleted is not offered.
     */
    async versions(link: ReviewLinkRow, current: PublicVideoView): Promise<LinkVersion[]> {
      const [now, others] = await Promise.all([
        deps.videos.findVersion(link.videoId).catch(() => null),
        deps.videos.readyVersions(link.videoId),
      ])
      // The current work is read through the cache, the others fresh: for the second a switch
      // takes to reach every server, the cut that was current may be among both, once is enough.
      const shown: LinkVersion[] = others
        .filter((version) => version.video.hlsUrl !== current.hlsUrl)
        .map(({ names: _, ...version }) => version)
      shown.push({
        id: now?._id ?? '',
        number: now?.number ?? 1,
        current: true,
        createdAt: now?.createdAt ?? current.createdAt,
        video: current,
      })
      return shown.sort((a, b) => a.number - b.number)
    },

    /**
     * Whether the page of a link may fetch the stored name or folder `first`: one of the files of
     * its work's current version while that plays, or of a ready version it offers. Never a
     * master, another work's file or a deleted version's. Null once the work is gone.
     */
    async mayFetch(link: ReviewLinkRow, first: string): Promise<boolean | null> {
      const work = await deps.videos.forReview(link.videoId)
      if (!work) return null
      if (playable(work.video) && work.names.has(first)) return true
      // Only now the versions that are not current: the current one's files pay one lookup.
      const others = await deps.videos.readyVersions(link.videoId)
      return others.some((version) => version.names.has(first))
    },

    /** The cookie value a right password earns: bound to the link, so it opens no other. */
    passCookie: (link: Pick<ReviewLinkRow, 'id'>) => mac('pass', link.id),

    hasPass(link: ReviewLinkRow, cookie: string | undefined): boolean {
      if (!link.passwordHash) return true
      if (!cookie) return false
      return sameBytes(Buffer.from(cookie), Buffer.from(mac('pass', link.id)))
    },

    /** A password typed on the page, counted per link and address as sign-ins are. */
    async checkPassword(
      link: ReviewLinkRow,
      password: string,
      address: string,
    ): Promise<PasswordCheck> {
      const attempt = await limits.reserve(link.id, address)
      if (attempt.denied) return { ok: false, retryMs: attempt.retryMs }
      try {
        const who = { address: addressGroup(address), clean: attempt.failures === 0 }
        const right = await checks.run(who, () =>
          link.passwordHash
            ? verifyPassword(password.slice(0, reviewLinkLimits.passwordMax), link.passwordHash)
            : verifyAgainstDummy(password),
        )
        if (right === null) {
          await attempt.withdrawn()
          return { ok: false, retryMs: BUSY_RETRY_MS, busy: true }
        }
        if (!right) return { ok: false }
        await attempt.succeeded()
        return { ok: true, cookie: mac('pass', link.id) }
      } finally {
        attempt.done()
      }
    },

    /**
     * Notes an open of the page: the last time always; the link's count once per day (UTC) and
     * address (an IPv6 /64 is one), which is kept only as an HMAC; and one activity entry per
     * link and day, with the day's opens and addresses counted beside it.
     */
    async opened(link: ReviewLinkRow, address: string, now = new Date()): Promise<void> {
      const day = now.toISOString().slice(0, 10)
      const addressHash = mac('address', addressGroup(address))
      const first = await db
        .insert(reviewLinkOpens)
        .values({ linkId: link.id, day, addressHash })
        .onConflictDoNothing()
        .returning({ day: reviewLinkOpens.day })
      await db
        .update(reviewLinks)
        .set({
          lastOpenedAt: now,
          ...(first.length ? { openCount: sql`${reviewLinks.openCount} + 1` } : {}),
        })
        .where(eq(reviewLinks.id, link.id))
      if (first.length) {
        // Yesterday's rows still tell a second open today from a first; older ones tell nothing.
        await db
          .delete(reviewLinkOpens)
          .where(
            sql`${reviewLinkOpens.day} < ${new Date(now.getTime() - 2 * 86_400_000).toISOString().slice(0, 10)}`,
          )
      }
      const work = await deps.videos.forReview(link.videoId)
      await deps.activity.counted(
        `reviewLink.open\n${link.id}\n${day}`,
        {
          actorId: null,
          actorName: null,
          kind: 'reviewLink.open',
          summary: `Review link${link.note ? ` (${link.note})` : ''} opened on ${day} (UTC)`,
          targetId: link.videoId,
          targetTitle: work?.video.title ?? null,
          ip: null,
        },
        first.length > 0,
      )
    },
  }
}

export type ReviewLinksService = ReturnType<typeof createReviewLinksService>
