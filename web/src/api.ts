// The one door to the server's types: every web module imports API types from here, and this is
// the only web file that names a server path (types only: nothing of the server enters a bundle).
import type { inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '../../src/api/routers/index.ts'

export type { AppRouter }

type Outputs = inferRouterOutputs<AppRouter>
export type User = Outputs['auth']['login']['user']
export type Video = Outputs['videos']['list']['videos'][number]
export type Admin = Outputs['admins']['list']['admins'][number]
export type VideoPage = Outputs['videos']['list']
/** The public grid's video shape, as GET /api/public/videos answers it. */
export type PublicVideo = Outputs['videos']['publicList']['videos'][number]
/** One entry of the activity log, as GET /api/activity answers it. */
export type ActivityEntry = Outputs['activity']['list']['entries'][number]
