// A work's versions (docs/review.md#versions): the inputs of their calls and the messages of
// their refusals. Shared with web/.
import { z } from 'zod'
import { lowerId } from './id.ts'
import type { VideoStatus } from './video.ts'
import { uploadIdSchema, videoIdSchema } from './video.ts'

export const versionMessages = {
  notFound: 'Version not found',
  deleteCurrent: 'The current version cannot be deleted: make another version current first',
  notReady: 'Only a version whose processing is done can be made current',
  uploadRequired: 'Choose the video file of the new version',
} as const

/** Like a video id: anything that is not one of the work's versions is 404, not 400. */
export const versionIdSchema = z
  .string()
  .trim()
  .min(1, versionMessages.notFound)
  .max(100, versionMessages.notFound)
  .transform(lowerId)

export const listVersionsSchema = z.object({ id: videoIdSchema })

/** A new version from a finished tus upload of kind `video` (or a registered multipart part). */
export const addVersionSchema = z.object({
  id: videoIdSchema,
  upload: z.string({ error: versionMessages.uploadRequired }).pipe(uploadIdSchema),
})
export type AddVersionInput = z.input<typeof addVersionSchema>

export const versionRefSchema = z.object({ id: videoIdSchema, versionId: versionIdSchema })

/** One version as the dashboard lists it. */
export type VersionView = {
  _id: string
  videoId: string
  number: number
  createdAt: string
  /** Seconds; null until probed. */
  duration: number | null
  status: VideoStatus
  progress: number
  error: string | null
  current: boolean
  uploadedBy: { _id: string | null; name: string | null }
}
