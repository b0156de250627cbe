// The public page's editable content: the visitors' read, the dashboard's read and its changes.
import { addImageSchema, saveSiteSchema, undoSiteSchema } from '../schemas/site.ts'
import { authedProcedure, publicProcedure, router } from '../trpc.ts'

const actorOf = (user: { _id: string; username: string }) => ({
  id: user._id,
  username: user.username,
})

export const siteRouter = router({
  /** What visitors see (also GET /api/public/site, cached as bytes there). */
  public: publicProcedure
    .meta({ cache: 'site' })
    .query(({ ctx }) => ctx.services.site.publicSite()),

  /** The current content with image ids, its version and whether undo can go back. */
  get: authedProcedure.query(({ ctx }) => ctx.services.site.current()),

  save: authedProcedure
    .input(saveSiteSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.site.save(actorOf(ctx.session.user), input.baseVersion, input.content),
    ),

  undo: authedProcedure
    .input(undoSiteSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.site.undo(actorOf(ctx.session.user), input.baseVersion),
    ),

  /** Raw image bytes: only through POST /api/site/images (a tRPC body is JSON and capped). */
  addImage: authedProcedure.input(addImageSchema).mutation(async ({ ctx, input }) => ({
    image: await ctx.services.site.addImage(actorOf(ctx.session.user), input.purpose, input.bytes),
  })),
})
