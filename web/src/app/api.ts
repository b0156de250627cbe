// The one door to the server's types: everything in the app imports API types from here.
import type { inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '../../../src/routers/index.ts'

export type { AppRouter }

type Outputs = inferRouterOutputs<AppRouter>
export type User = Outputs['auth']['login']['user']
export type Video = Outputs['videos']['list']['videos'][number]
export type Admin = Outputs['admins']['list']['admins'][number]
export type VideoPage = Outputs['videos']['list']
