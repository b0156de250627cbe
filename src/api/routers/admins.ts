import { z } from 'zod'
import { createAdminSchema, idSchema, updateAdminSchema } from '../../contract/admin.ts'
import { type Answer, fieldsOf, recorded, titleOf } from '../activity.ts'
import type { Context } from '../context.ts'
import { router, superAdminProcedure } from '../trpc.ts'

const byId = z.object({ id: idSchema })
type WithAdmin = { admin: Answer<'admins', 'create'> }

/** An admin's name and address, read before an edit or a delete (for its entry). */
async function adminFields(ctx: Context, id: string) {
  const admins = await ctx.services.admins.list()
  const admin = admins.find((a) => a._id === id.toLowerCase())
  return admin ? { username: admin.username, email: admin.email } : null
}

export const adminsRouter = router({
  list: superAdminProcedure.query(async ({ ctx }) => ({
    admins: await ctx.services.admins.list(),
  })),

  create: superAdminProcedure
    .input(createAdminSchema)
    .meta(
      recorded<unknown, WithAdmin>({
        after: ({ output }) => ({
          kind: 'admin.create',
          summary: `Created admin ${output.admin.username} (${output.admin.email})`,
          target: { id: output.admin._id, title: output.admin.username },
        }),
      }),
    )
    .mutation(async ({ ctx, input }) => ({
      admin: await ctx.services.admins.create(input),
    })),

  update: superAdminProcedure
    .input(updateAdminSchema.extend(byId.shape))
    .meta(
      recorded<Record<string, unknown> & { id: string }, WithAdmin>({
        before: (ctx, input) => adminFields(ctx, input.id),
        after: ({ input, output, before }) => {
          const was = fieldsOf(before)
          const sent = (['username', 'email', 'password'] as const).filter(
            (f) => typeof input[f] === 'string' && String(input[f]).trim() !== '',
          )
          // A password is always new (only its hash is kept); a name or address only if it differs.
          const fields = sent.filter((f) => f === 'password' || !was || was[f] !== output.admin[f])
          if (fields.length === 0) return null
          const renamed =
            was?.username && was.username !== output.admin.username ? ` (was ${was.username})` : ''
          return {
            kind: 'admin.update',
            summary: `Edited admin ${output.admin.username}${renamed}${fields.length ? `: ${fields.join(', ')}` : ''}`,
            target: { id: output.admin._id, title: output.admin.username },
          }
        },
      }),
    )
    .mutation(async ({ ctx, input: { id, ...fields } }) => ({
      admin: await ctx.services.admins.update(
        id,
        fields,
        id === ctx.session.user._id ? ctx.session.id : undefined,
      ),
    })),

  delete: superAdminProcedure
    .input(byId)
    .meta(
      recorded<z.infer<typeof byId>, unknown>({
        before: async (ctx, input) => (await adminFields(ctx, input.id))?.username ?? null,
        after: ({ input, before }) => ({
          kind: 'admin.delete',
          summary: `Deleted admin ${titleOf(before) ?? input.id}`,
          target: { id: input.id.toLowerCase(), title: titleOf(before) },
        }),
      }),
    )
    .mutation(async ({ ctx, input }) => ({
      deleted: await ctx.services.admins.remove(input.id, ctx.session.user._id),
    })),
})
