// Private review links: a secret address that shows one work to whoever holds it, for a while,
// optionally behind a password. Shared by the server (procedures, REST) and the dashboard's
// "Share privately…" dialog, so both take the same input and read the same answer.
import { z } from 'zod'
import { uuidSchema } from './id.ts'
import { msg } from './messages.ts'
import { plainText } from './text.ts'

export const reviewLinkLimits = {
  noteMax: 120,
  passwordMin: 4,
  passwordMax: 200,
  /** Links per work, so a script cannot fill the table. */
  perVideo: 50,
  /** The furthest expiry a link may be given. */
  maxDays: 366,
} as const

/** The dialog's expiry choices; `date` takes a chosen day, `never` keeps the link until revoked. */
export const reviewLinkExpiries = ['1d', '7d', '30d', 'date', 'never'] as const
export type ReviewLinkExpiry = (typeof reviewLinkExpiries)[number]

export const reviewLinkNoteSchema = plainText(z.string().trim(), 'Note').max(
  reviewLinkLimits.noteMax,
  `Note must be at most ${reviewLinkLimits.noteMax} characters`,
)

export const reviewLinkPasswordSchema = z
  .string()
  .min(
    reviewLinkLimits.passwordMin,
    `Password must be at least ${reviewLinkLimits.passwordMin} characters`,
  )
  .max(
    reviewLinkLimits.passwordMax,
    `Password must be at most ${reviewLinkLimits.passwordMax} characters`,
  )

/**
 * What makes a link. `expiresAt`: an ISO 8601 instant in the future, at most `maxDays` ahead;
 * absent or null = never expires. An empty password or note counts as none.
 */
export const createReviewLinkSchema = z.object({
  videoId: uuidSchema(msg.videoNotFound),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'Expiry must be a date and time (ISO 8601)' })
    .nullish()
    .refine((v) => v == null || Date.parse(v) > Date.now(), 'Expiry must be in the future')
    .refine(
      (v) => v == null || Date.parse(v) <= Date.now() + reviewLinkLimits.maxDays * 86_400_000,
      `Expiry must be at most ${reviewLinkLimits.maxDays} days ahead`,
    ),
  password: z
    .literal('')
    .or(reviewLinkPasswordSchema)
    .nullish()
    .transform((v) => v || null),
  note: reviewLinkNoteSchema.nullish().transform((v) => v || null),
})
export type CreateReviewLinkInput = z.input<typeof createReviewLinkSchema>

export const listReviewLinksSchema = z.object({ videoId: uuidSchema(msg.videoNotFound) })

export const revokeReviewLinkSchema = z.object({
  videoId: uuidSchema(msg.videoNotFound),
  linkId: uuidSchema('Link not found'),
})

/** One link as admins see it (tRPC and REST alike; REST adds `_id`). Never the token's hash. */
export type ReviewLinkView = {
  id: string
  videoId: string
  /** The full address to send; present when the link is made, and on later reads too. */
  url: string
  note: string | null
  hasPassword: boolean
  /** ISO 8601, or null for a link that never expires. */
  expiresAt: string | null
  createdAt: string
  createdBy: string | null
  lastOpenedAt: string | null
  openCount: number
  revokedAt: string | null
  /** `active` until it expires or is revoked. */
  state: 'active' | 'expired' | 'revoked'
}

/** What the review page says for a link that no longer opens. */
export const reviewLinkGoneMessage = 'This link has expired. Ask the studio for a new one.'

/**
 * The date a dialog choice gives, from `now`; `date` takes the chosen day's end in the admin's
 * time zone (the caller passes that instant).
 */
export function expiryFor(choice: ReviewLinkExpiry, now: Date, chosen?: Date): Date | null {
  const days = { '1d': 1, '7d': 7, '30d': 30 } as const
  if (choice === 'never') return null
  if (choice === 'date') return chosen ?? null
  return new Date(now.getTime() + days[choice] * 86_400_000)
}
