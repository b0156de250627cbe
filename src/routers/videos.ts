// Videos over tRPC: the web app's calls, and the procedures the REST adapter calls too.
// `cache: 'videos'`: the answer depends only on the input and the videos' version, so GET
// requests keep it as bytes (src/paths.ts); the caller's access is still checked every time.
import { z } from 'zod'
import {
  addCaptionsSchema,
  bulkDeleteSchema,
  checkTitleSchema,
  createVideoSchema,
  editVideoSchema,
  listVideosSchema,
  publicListSchema,
  publishVideoSchema,
  removeCaptionsSchema,
  reorderVideosSchema,
  videoIdSchema,
} from '../schemas/video.ts'
import { authedProcedure, publicProcedure, router } from '../trpc.ts'

const byId = z.object({ id: videoIdSchema })

export const videosRouter = router({
  /** The public landing page's grid: no sign-in, only what the page shows. */
  publicList: publicProcedure
    .input(publicListSchema)
    .meta({ cache: 'videos' })
    .query(({ ctx, input }) => ctx.services.videos.publicList(input)),

  list: authedProcedure
    .input(listVideosSchema)
    .meta({ cache: 'videos' })
    .query(({ ctx, input }) => ctx.services.videos.list(input)),

  get: authedProcedure
    .input(byId)
    .meta({ cache: 'videos' })
    .query(async ({ ctx, input }) => ({ video: await ctx.services.videos.get(input.id) })),

  /**
   * A link to the master as uploaded, valid for minutes (`{ url, expiresAt }`): once streams
   * exist /media gives the master to nobody else. Never cached: every call signs anew.
   */
  masterLink: authedProcedure
    .input(byId)
    .query(({ ctx, input }) => ctx.services.videos.masterLink(input.id)),

  checkTitle: authedProcedure
    .input(checkTitleSchema)
    .query(({ ctx, input }) => ctx.services.videos.checkTitle(input.title, input.excludeId)),

  stats: authedProcedure.meta({ cache: 'videos' }).query(({ ctx }) => ctx.services.videos.stats()),

  /** Title, description and three finished tus uploads (or registered multipart parts). */
  create: authedProcedure.input(createVideoSchema).mutation(async ({ ctx, input }) => ({
    video: await ctx.services.videos.create(ctx.session.user._id, input),
  })),

  /** Any of title, description and replacement uploads; omitted fields stay as they are. */
  update: authedProcedure.input(editVideoSchema).mutation(async ({ ctx, input }) => ({
    video: await ctx.services.videos.update(ctx.session.user._id, input),
  })),

  /**
   * A caption track from a finished upload of kind `captions` (WebVTT, or SRT converted); it
   * replaces the track of the same language. `caption` is the track as answers list it.
   */
  addCaptions: authedProcedure
    .input(addCaptionsSchema)
    .mutation(({ ctx, input }) => ctx.services.videos.addCaptions(ctx.session.user._id, input)),

  /** Removes the caption track of a language (404 when the work has none in it). */
  removeCaptions: authedProcedure
    .input(removeCaptionsSchema)
    .mutation(({ ctx, input }) => ctx.services.videos.removeCaptions(input.id, input.language)),

  /** A failed video back to the queue (the Manage page's Retry). */
  retry: authedProcedure.input(byId).mutation(async ({ ctx, input }) => ({
    video: await ctx.services.videos.retry(input.id),
  })),

  /** The curated order: the given videos take the places they held between them. */
  reorder: authedProcedure.input(reorderVideosSchema).mutation(async ({ ctx, input }) => ({
    reordered: await ctx.services.videos.reorder(input.ids),
  })),

  /** The 'Published' switch: hidden videos stay here and leave the public page and its API. */
  /** `changed`: false when the video already was so (nothing done, nothing recorded). */
  setPublished: authedProcedure
    .input(publishVideoSchema)
    .mutation(({ ctx, input }) => ctx.services.videos.setPublished(input.id, input.published)),

  delete: authedProcedure.input(byId).mutation(async ({ ctx, input }) => ({
    deleted: await ctx.services.videos.remove(input.id),
  })),

  bulkDelete: authedProcedure.input(bulkDeleteSchema).mutation(async ({ ctx, input }) => ({
    deleted: await ctx.services.videos.removeMany(input.ids),
  })),
})
