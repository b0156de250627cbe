// Videos over tRPC: the web app's calls, and the procedures the REST adapter calls too.
// `cache: 'videos'`: the answer depends only on the input and the videos' version (which the
// clients' notes move too: admins' answers count open notes), so GET requests keep it as bytes
// (src/api/routes.ts); the caller's access is still checked every time.
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
} from '../../contract/video.ts'
import { type Answer, type Before, fieldsOf, quoted, recorded, titleOf } from '../activity.ts'
import type { Context } from '../context.ts'
import { authedProcedure, publicProcedure, router } from '../trpc.ts'

const byId = z.object({ id: videoIdSchema })
type ById = z.infer<typeof byId>
type WithVideo = { video: Answer<'videos', 'get'> }

/** Titles of up to 10 videos, read before a bulk change (for its entry). */
async function titlesOf(ctx: Context, ids: readonly string[]): Promise<Before> {
  const titles: string[] = []
  for (const id of ids.slice(0, 10)) {
    const video = await ctx.services.videos.get(id).catch(() => null)
    if (video) titles.push(quoted(video.title))
  }
  const more = ids.length - Math.min(ids.length, 10)
  return titles.join(', ') + (more > 0 ? ` and ${more} more` : '')
}

/** A plain entry naming the video of the answer. */
const aboutVideo = (kind: 'video.create' | 'video.retry', summary: (title: string) => string) =>
  recorded<unknown, WithVideo>({
    after: ({ output }) => ({
      kind,
      summary: summary(quoted(output.video.title)),
      target: { id: output.video._id, title: output.video.title },
    }),
  })

/** An edit of a work's captions, naming the track it added or removed. */
const aboutCaptions = <Out extends WithVideo>(
  what: string,
  trackOf: (output: Out) => { label: string; language: string },
) =>
  recorded<unknown, Out>({
    after: ({ output }) => {
      const track = trackOf(output)
      return {
        kind: 'video.update',
        summary: `Edited ${quoted(output.video.title)}: ${what} ${track.label} (${track.language})`,
        target: { id: output.video._id, title: output.video.title },
      }
    },
  })

/**
 * An entry for a change to several videos, naming the first of them (read before the change);
 * none when the change touched none.
 */
const aboutSeveral = <Key extends string>(
  kind: 'video.reorder' | 'video.bulkDelete',
  /** The answer's field that counts the videos changed. */
  countKey: Key,
  summary: (count: number) => string,
) =>
  recorded<{ ids: string[] }, Record<Key, number>>({
    before: (ctx, input) => titlesOf(ctx, input.ids),
    after: ({ output, before }) => {
      const count = output[countKey]
      if (count === 0) return null
      const titles = titleOf(before)
      return { kind, summary: `${summary(count)}${titles ? `: ${titles}` : ''}` }
    },
  })

export const videosRouter = router({
  /** The public landing page's grid: no sign-in, only what the page shows. */
  publicList: publicProcedure
    .input(publicListSchema)
    .meta({ cache: 'videos' })
    .query(({ ctx, input }) => ctx.services.videos.publicList(input)),

  /** Each work with its `openNotes` (the answer cache's version moves with the notes too). */
  list: authedProcedure
    .input(listVideosSchema)
    .meta({ cache: 'videos' })
    .query(async ({ ctx, input }) => {
      const page = await ctx.services.videos.list(input)
      return { ...page, videos: await ctx.services.reviewNotes.withOpenNotes(page.videos) }
    }),

  get: authedProcedure
    .input(byId)
    .meta({ cache: 'videos' })
    .query(async ({ ctx, input }) => {
      const [video] = await ctx.services.reviewNotes.withOpenNotes([
        await ctx.services.videos.get(input.id),
      ])
      return { video: video! }
    }),

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
  create: authedProcedure
    .input(createVideoSchema)
    .meta(aboutVideo('video.create', (title) => `Uploaded ${title}`))
    .mutation(async ({ ctx, input }) => ({
      video: await ctx.services.videos.create(ctx.session.user._id, input),
    })),

  /** Any of title, description and replacement uploads; omitted fields stay as they are. */
  update: authedProcedure
    .input(editVideoSchema)
    .meta(
      recorded<z.infer<typeof editVideoSchema>, WithVideo>({
        before: async (ctx, input) => {
          const video = await ctx.services.videos.get(input.id)
          return { title: video.title, description: video.description }
        },
        after: ({ input, output, before }) => {
          const was = fieldsOf(before)
          const parts = [
            input.title !== undefined && was && was.title !== output.video.title
              ? `title (was ${quoted(was.title)})`
              : null,
            input.description !== undefined &&
            (!was || was.description !== output.video.description)
              ? 'description'
              : null,
            ...Object.keys(input.uploads ?? {}).map((kind) =>
              kind === 'brandLogo' ? 'brand logo' : `${kind} file`,
            ),
          ].filter(Boolean)
          // The same title and description sent again, no file: nothing changed.
          if (parts.length === 0 && was) return null
          return {
            kind: 'video.update',
            summary: `Edited ${quoted(output.video.title)}${parts.length ? `: ${parts.join(', ')}` : ''}`,
            target: { id: output.video._id, title: output.video.title },
          }
        },
      }),
    )
    .mutation(async ({ ctx, input }) => ({
      video: await ctx.services.videos.update(ctx.session.user._id, input),
    })),

  /**
   * A caption track from a finished upload of kind `captions` (WebVTT, or SRT converted); it
   * replaces the track of the same language. `caption` is the track as answers list it.
   */
  addCaptions: authedProcedure
    .input(addCaptionsSchema)
    .meta(aboutCaptions<Answer<'videos', 'addCaptions'>>('captions', (output) => output.caption))
    .mutation(({ ctx, input }) => ctx.services.videos.addCaptions(ctx.session.user._id, input)),

  /** Removes the caption track of a language (404 when the work has none in it). */
  removeCaptions: authedProcedure
    .input(removeCaptionsSchema)
    .meta(
      aboutCaptions<Answer<'videos', 'removeCaptions'>>(
        'removed captions',
        (output) => output.removed,
      ),
    )
    .mutation(({ ctx, input }) => ctx.services.videos.removeCaptions(input.id, input.language)),

  /** A failed video back to the queue (the Manage page's Retry). */
  retry: authedProcedure
    .input(byId)
    .meta(aboutVideo('video.retry', (title) => `Retried processing of ${title}`))
    .mutation(async ({ ctx, input }) => ({
      video: await ctx.services.videos.retry(input.id),
    })),

  /** The curated order: the given videos take the places they held between them. */
  reorder: authedProcedure
    .input(reorderVideosSchema)
    .meta(aboutSeveral('video.reorder', 'reordered', () => 'Reordered the portfolio'))
    .mutation(async ({ ctx, input }) => ({
      reordered: await ctx.services.videos.reorder(input.ids),
    })),

  /** The 'Published' switch: hidden videos stay here and leave the public page and its API. */
  /** `changed`: false when the video already was so (nothing done, nothing recorded). */
  setPublished: authedProcedure
    .input(publishVideoSchema)
    .meta(
      recorded<unknown, Answer<'videos', 'setPublished'>>({
        after: ({ output }) =>
          output.changed
            ? {
                kind: 'video.publish',
                summary: output.video.published
                  ? `Published ${quoted(output.video.title)}`
                  : `Hid ${quoted(output.video.title)} from the public page`,
                target: { id: output.video._id, title: output.video.title },
              }
            : null,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.videos.setPublished(input.id, input.published)),

  delete: authedProcedure
    .input(byId)
    .meta(
      recorded<ById, unknown>({
        before: async (ctx, input) => (await ctx.services.videos.get(input.id)).title,
        after: ({ input, before }) => ({
          kind: 'video.delete',
          summary: `Deleted ${quoted(titleOf(before))}`,
          target: { id: input.id.toLowerCase(), title: titleOf(before) },
        }),
      }),
    )
    .mutation(async ({ ctx, input }) => ({
      deleted: await ctx.services.videos.remove(input.id),
    })),

  bulkDelete: authedProcedure
    .input(bulkDeleteSchema)
    .meta(
      aboutSeveral('video.bulkDelete', 'deleted', (n) => `Deleted ${n} video${n === 1 ? '' : 's'}`),
    )
    .mutation(async ({ ctx, input }) => ({
      deleted: await ctx.services.videos.removeMany(input.ids),
    })),
})
