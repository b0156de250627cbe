import { z } from 'zod'
import { createAdminSchema, idSchema, updateAdminSchema } from '../schemas/admin.ts'
import { router, superAdminProcedure } from '../trpc.ts'

const byId = z.object({ id: idSchema })

export const adminsRouter = router({
  list: superAdminProcedure.query(async ({ ctx }) => ({
    admins: await ctx.services.admins.list(),
  })),

  create: superAdminProcedure.input(createAdminSchema).mutation(async ({ ctx, input }) => ({
    admin: await ctx.services.admins.create(input),
  })),

  update: superAdminProcedure
    .input(updateAdminSchema.extend(byId.shape))
    .mutation(async ({ ctx, input: { id, ...fields } }) => ({
      admin: await ctx.services.admins.update(
        id,
        fields,
        id === ctx.session.user._id ? ctx.session.id : undefined,
      ),
    })),

  delete: superAdminProcedure.input(byId).mutation(async ({ ctx, input }) => ({
    deleted: await ctx.services.admins.remove(input.id, ctx.session.user._id),
  })),
})
