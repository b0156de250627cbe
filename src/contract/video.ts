import { z } from 'zod'
import {
  captionLabelSchema,
  captionLanguageSchema,
  captionsListSchema,
  captionsUploadSchema,
} from './captions.ts'
import { lowerId, uuidSchema } from './id.ts'
import { limits } from './limits.ts'
import { msg } from './messages.ts'
import { plainText } from './text.ts'

/** Upload page: title required (docs/dashboard.md#upload-video). */
export const titleSchema = plainText(z.string({ error: msg.titleRequired }).trim(), 'Title')
  .min(1, msg.titleRequired)
  .max(limits.titleMax, `Title must be at most ${limits.titleMax} characters`)

/** Edit form: title required and at least 3 characters. */
export const editTitleSchema = titleSchema.pipe(z.string().min(limits.titleMin, msg.titleMin))

export const descriptionSchema = plainText(z.string().trim(), 'Description', { multiline: true })
  .max(limits.descriptionMax, `Description must be at most ${limits.descriptionMax} characters`)
  .default('')

/** A finished tus upload's id (hex, as @tus/server's default naming makes them). */
export const uploadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'Invalid upload id')

export const createVideoSchema = z.object({
  title: titleSchema,
  description: descriptionSchema,
  uploads: z.object({
    video: uploadIdSchema,
    thumbnail: uploadIdSchema,
    brandLogo: uploadIdSchema,
  }),
  /** Caption tracks to add with the work (finished uploads of kind `captions`). */
  captions: captionsListSchema.optional(),
})
export type CreateVideoInput = z.input<typeof createVideoSchema>

export const updateVideoSchema = z.object({
  id: uuidSchema(msg.videoNotFound),
  title: editTitleSchema.optional(),
  description: descriptionSchema.optional(),
  uploads: z
    .object({
      video: uploadIdSchema.optional(),
      thumbnail: uploadIdSchema.optional(),
      brandLogo: uploadIdSchema.optional(),
    })
    .optional(),
})
export type UpdateVideoInput = z.input<typeof updateVideoSchema>

/** `newest`: newest first (the REST default); `curated`: the public order admins set. */
export const videoOrders = ['newest', 'curated'] as const
export type VideoOrder = (typeof videoOrders)[number]

export const listVideosSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(limits.pageSizeMax).default(limits.pageSizeDefault),
  order: z.enum(videoOrders, { error: 'Order is newest or curated' }).default('newest'),
})

export const checkTitleSchema = z.object({
  title: plainText(z.string().trim(), 'Title').min(1, msg.titleRequired).max(limits.titleMax),
  excludeId: uuidSchema('Invalid id').optional(),
})

export const bulkDeleteSchema = z.object({
  ids: z
    .array(z.string().max(100).transform(lowerId))
    .min(1, 'Select at least one video')
    .max(1000),
})

/** A video id from a path or input. Anything that is not an existing video is 404, not 400. */
export const videoIdSchema = z
  .string()
  .trim()
  .min(1, msg.videoNotFound)
  .max(100, msg.videoNotFound)
  .transform(lowerId)

/** Adds a caption track to a work, or replaces the one of the same language. */
export const addCaptionsSchema = z.object({
  id: videoIdSchema,
  upload: captionsUploadSchema.shape.upload,
  language: captionLanguageSchema,
  label: captionLabelSchema,
})

/** Removes a work's caption track of one language. */
export const removeCaptionsSchema = z.object({
  id: videoIdSchema,
  language: captionLanguageSchema,
})

/** The edit call with a lenient id (see videoIdSchema). */
export const editVideoSchema = updateVideoSchema.extend({ id: videoIdSchema })
export type EditVideoInput = z.input<typeof editVideoSchema>

/** Where a video is in the media pipeline (docs/media.md#processing). */
export const videoStatuses = ['queued', 'processing', 'ready', 'failed'] as const
export type VideoStatus = (typeof videoStatuses)[number]

/** Retry (dashboard and `POST /api/videos/:id/retry`) applies to a failed video only. */
export const retryNotFailed = 'Only a video whose processing failed can be retried'

/**
 * A new order for some videos (a Manage page after a drag): they take the places they held
 * between them, in the order given; every other video stays where it is.
 */
export const reorderVideosSchema = z.object({
  ids: z
    .array(videoIdSchema)
    .min(2, 'Give at least two videos to reorder')
    .max(limits.pageSizeMax, `Reorder at most ${limits.pageSizeMax} videos at once`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each video may appear only once'),
})

/** The Manage page's 'Published' switch: hidden videos leave the public page and its API. */
export const publishVideoSchema = z.object({
  id: videoIdSchema,
  published: z.boolean({ error: 'Published is true or false' }),
})

/** The landing page's page of works; every published work when neither is given (docs/api.md). */
export const publicPageSize = { default: 24, max: 100 } as const
export const invalidCursor = 'Invalid cursor: ask for the first page without one'

export const publicListSchema = z
  .object({
    limit: z.coerce
      .number({ error: `Limit is a number from 1 to ${publicPageSize.max}` })
      .int(`Limit is a number from 1 to ${publicPageSize.max}`)
      .min(1, `Limit is a number from 1 to ${publicPageSize.max}`)
      .max(publicPageSize.max, `Limit is a number from 1 to ${publicPageSize.max}`)
      .optional(),
    cursor: z.string().min(1, invalidCursor).max(300, invalidCursor).optional(),
  })
  .optional()
export type PublicListInput = z.output<typeof publicListSchema>
