import { z } from 'zod'
import {
  forgotPasswordSchema,
  loginSchema,
  resetPasswordSchema,
  resetTokenSchema,
} from '../schemas/auth.ts'
import { authedProcedure, publicProcedure, router } from '../trpc.ts'

export const authRouter = router({
  login: publicProcedure
    .input(loginSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.auth.login(input.email, input.password, ctx.clientIp()),
    ),

  logout: authedProcedure.mutation(async ({ ctx }) => {
    await ctx.services.auth.logout(ctx.session.id)
    return { ok: true as const }
  }),

  me: authedProcedure.query(({ ctx }) => ctx.session.user),

  requestPasswordReset: publicProcedure
    .input(forgotPasswordSchema)
    .mutation(async ({ ctx, input }) => {
      await ctx.services.auth.requestPasswordReset(input.email, ctx.clientIp())
      return { ok: true as const }
    }),

  resetPassword: publicProcedure
    .input(resetPasswordSchema.extend({ token: z.string().pipe(resetTokenSchema) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.auth.resetPassword(input.token, input.password)
      return { ok: true as const }
    }),
})
