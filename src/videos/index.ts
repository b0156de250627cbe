// Portfolio videos: the one service behind the tRPC router, the REST adapter and the tus
// hand-over, composed of its reads (queries.ts), its changes (commands.ts), its versions
// (versions.ts) and what a start runs (maintenance.ts) over one read cache (context.ts). The
// media pipeline's row writes and the status machine are in rows.ts, the answers' shapes in
// views.ts.
import { createVideoCommands } from './commands.ts'
import { createVideosContext, type VideosDeps } from './context.ts'
import { createVideoMaintenance } from './maintenance.ts'
import { createVideoQueries } from './queries.ts'
import { createVersionCommands } from './versions.ts'

export type { PublicPage, ReviewVersion } from './queries.ts'
export type { PublicVideoView, VideoView } from './views.ts'
export { moveMediaUrls } from './views.ts'

export function createVideosService(deps: VideosDeps) {
  const ctx = createVideosContext(deps)
  return {
    ...createVideoQueries(ctx),
    ...createVideoCommands(ctx),
    ...createVideoMaintenance(ctx),
    ...createVersionCommands(ctx),

    /** Forgets cached reads; for writes that bypass this service (tests emptying tables). */
    invalidate: () => ctx.reads.invalidate(),

    /** A counter that moves with every change to the videos. */
    version: () => {
      ctx.syncBucket()
      return ctx.reads.version
    },
  }
}

export type VideosService = ReturnType<typeof createVideosService>
