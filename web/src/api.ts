// The one door to the server's types: every web module imports API types from here, and this is
// the only web file that names a server path (types only: nothing of the server enters a bundle).
import type { inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '../../src/api/routers/index.ts'

export type { AppRouter }

type Outputs = inferRouterOutputs<AppRouter>
export type User = Outputs['auth']['login']['user']
type ListedVideo = Outputs['videos']['list']['videos'][number]
/** A work as the dashboard holds it; `openNotes` comes with reads, not with a change's answer. */
export type Video = Omit<ListedVideo, 'openNotes'> & { openNotes?: number }
/** While processing: the stream as the encoder makes it (admins only). */
export type GrowingStream = NonNullable<Video['growing']>
export type Admin = Outputs['admins']['list']['admins'][number]
export type VideoPage = Omit<Outputs['videos']['list'], 'videos'> & { videos: Video[] }
/** The public grid's video shape, as GET /api/public/videos answers it. */
export type PublicVideo = Outputs['videos']['publicList']['videos'][number]
/** One entry of the activity log, as GET /api/activity answers it. */
export type ActivityEntry = Outputs['activity']['list']['entries'][number]
/** A client's note on a review link, as admins see it. */
export type AdminNote = Outputs['reviewNotes']['list'][number]
