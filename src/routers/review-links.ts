// Private review links over tRPC (docs/decisions/063): any admin may make, list and revoke a
// work's links. The REST adapter (src/rest/review-links.ts) calls these same procedures.
import {
  createReviewLinkSchema,
  listReviewLinksSchema,
  revokeReviewLinkSchema,
} from '../schemas/review-link.ts'
import { authedProcedure, router } from '../trpc.ts'

export const reviewLinksRouter = router({
  /** The work's links, newest first, each with its address. */
  list: authedProcedure
    .input(listReviewLinksSchema)
    .query(({ ctx, input }) => ctx.services.reviewLinks.list(input.videoId)),

  create: authedProcedure
    .input(createReviewLinkSchema)
    .mutation(({ ctx, input }) => ctx.services.reviewLinks.create(input, ctx.session.user.email)),

  /** Ends the link at once: its page, and every playlist and segment behind it, answer 410. */
  /** `changed`: false when it was revoked already (nothing done, nothing recorded). */
  revoke: authedProcedure.input(revokeReviewLinkSchema).mutation(async ({ ctx, input }) => ({
    revoked: true as const,
    changed: await ctx.services.reviewLinks.revoke(input.videoId, input.linkId),
  })),
})
