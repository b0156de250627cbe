import { router } from '../trpc.ts'
import { activityRouter } from './activity.ts'
import { adminsRouter } from './admins.ts'
import { authRouter } from './auth.ts'
import { reviewLinksRouter } from './review-links.ts'
import { reviewNotesRouter } from './review-notes.ts'
import { siteRouter } from './site.ts'
import { versionsRouter } from './versions.ts'
import { videosRouter } from './videos.ts'

export const appRouter = router({
  auth: authRouter,
  admins: adminsRouter,
  videos: videosRouter,
  site: siteRouter,
  activity: activityRouter,
  reviewLinks: reviewLinksRouter,
  versions: versionsRouter,
  reviewNotes: reviewNotesRouter,
})

export type AppRouter = typeof appRouter
