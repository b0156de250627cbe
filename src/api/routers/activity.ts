// The activity log, for super admins only. There is no procedure that writes, edits or removes an
// entry: the middleware in src/api/trpc.ts appends them.
import { listActivitySchema } from '../../contract/activity.ts'
import { router, superAdminProcedure } from '../trpc.ts'

export const activityRouter = router({
  list: superAdminProcedure
    .input(listActivitySchema)
    .query(({ ctx, input }) => ctx.services.activity.list(input)),

  people: superAdminProcedure.query(async ({ ctx }) => ({
    people: await ctx.services.activity.people(),
  })),
})
