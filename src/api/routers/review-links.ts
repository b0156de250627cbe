// Private review links over tRPC
// (docs/decisions/063-review-links-hmac-tokens-hashed-path-scoped-cookie.md): any admin may make,
// list and revoke a work's links. The REST adapter (src/api/rest/review-links.ts) calls these same
// procedures.

import type { z } from 'zod'
import {
  createReviewLinkSchema,
  listReviewLinksSchema,
  revokeReviewLinkSchema,
} from '../../contract/review-link.ts'
import { type Answer, quoted, recorded, titleOf } from '../activity.ts'
import type { Context } from '../context.ts'
import { authedProcedure, router } from '../trpc.ts'

const titleOfVideo = async (ctx: Context, input: { videoId: string }) =>
  (await ctx.services.videos.get(input.videoId)).title

export const reviewLinksRouter = router({
  /** The work's links, newest first, each with its address. */
  list: authedProcedure
    .input(listReviewLinksSchema)
    .query(({ ctx, input }) => ctx.services.reviewLinks.list(input.videoId)),

  create: authedProcedure
    .input(createReviewLinkSchema)
    .meta(
      recorded<z.infer<typeof createReviewLinkSchema>, Answer<'reviewLinks', 'create'>>({
        before: titleOfVideo,
        after: ({ output, before }) => ({
          kind: 'reviewLink.create',
          summary: `Made a review link for ${quoted(titleOf(before))}${output.note ? ` (${output.note})` : ''}${output.hasPassword ? ', with a password' : ''}${output.expiresAt ? `, until ${output.expiresAt}` : ', never expiring'}`,
          target: { id: output.videoId, title: titleOf(before) },
        }),
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.reviewLinks.create(input, ctx.session.user.email)),

  /** Ends the link at once: its page, and every playlist and segment behind it, answer 410. */
  /** `changed`: false when it was revoked already (nothing done, nothing recorded). */
  revoke: authedProcedure
    .input(revokeReviewLinkSchema)
    .meta(
      recorded<z.infer<typeof revokeReviewLinkSchema>, { changed: boolean }>({
        before: titleOfVideo,
        after: ({ input, output, before }) =>
          output.changed
            ? {
                kind: 'reviewLink.revoke',
                summary: `Revoked a review link of ${quoted(titleOf(before))}`,
                target: { id: input.videoId, title: titleOf(before) },
              }
            : null,
      }),
    )
    .mutation(async ({ ctx, input }) => ({
      revoked: true as const,
      changed: await ctx.services.reviewLinks.revoke(input.videoId, input.linkId),
    })),
})
