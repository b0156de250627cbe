import { router } from '../trpc.ts'
import { adminsRouter } from './admins.ts'
import { authRouter } from './auth.ts'
import { videosRouter } from './videos.ts'

export const appRouter = router({
  auth: authRouter,
  admins: adminsRouter,
  videos: videosRouter,
})

export type AppRouter = typeof appRouter
