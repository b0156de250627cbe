// The public page's editable content: the visitors' read, the dashboard's read and its changes.
import {
  addImageSchema,
  saveSiteSchema,
  siteSections,
  undoSiteSchema,
} from '../../contract/site.ts'
import { type Answer, recorded, unrecorded } from '../activity.ts'
import { authedProcedure, publicProcedure, router } from '../trpc.ts'

const sectionList = (changed: readonly string[]) =>
  changed.map((s) => siteSections[s as keyof typeof siteSections] ?? s).join(', ')

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
    .meta(
      recorded<unknown, Answer<'site', 'save'>>({
        after: ({ output }) =>
          output.changed.length === 0
            ? null
            : {
                kind: 'site.update',
                summary: `Changed the site: ${sectionList(output.changed)}`,
                target: { id: String(output.version), title: `Version ${output.version}` },
              },
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.services.site.save(actorOf(ctx.session.user), input.baseVersion, input.content),
    ),

  undo: authedProcedure
    .input(undoSiteSchema)
    .meta(
      recorded<unknown, Answer<'site', 'undo'>>({
        after: ({ output }) => ({
          kind: 'site.undo',
          summary: `Undid the last site change (back to version ${output.restoredFrom})${output.changed.length ? `: ${sectionList(output.changed)}` : ''}`,
          target: { id: String(output.version), title: `Version ${output.version}` },
        }),
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.services.site.undo(actorOf(ctx.session.user), input.baseVersion),
    ),

  /** Raw image bytes: only through POST /api/site/images (a tRPC body is JSON and capped). */
  addImage: authedProcedure
    .input(addImageSchema)
    .meta(unrecorded('not a change of the page by itself: the save that uses the image is'))
    .mutation(async ({ ctx, input }) => ({
      image: await ctx.services.site.addImage(
        actorOf(ctx.session.user),
        input.purpose,
        input.bytes,
      ),
    })),
})
