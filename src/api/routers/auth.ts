import { z } from 'zod'
import { LockedOut } from '../../accounts/sign-in.ts'
import {
  forgotPasswordSchema,
  loginSchema,
  resetPasswordSchema,
  resetTokenSchema,
} from '../../contract/auth.ts'
import { type Answer, recorded, unrecorded } from '../activity.ts'
import { authedProcedure, publicProcedure, router } from '../trpc.ts'

const minutes = (ms: number) => {
  const n = Math.max(1, Math.round(ms / 60_000))
  return `${n} minute${n === 1 ? '' : 's'}`
}

export const authRouter = router({
  login: publicProcedure
    .input(loginSchema)
    .meta(
      recorded<z.infer<typeof loginSchema>, Answer<'auth', 'login'>>({
        after: ({ output }) => ({
          kind: 'auth.signIn',
          summary: 'Signed in',
          actor: { id: output.user._id, name: output.user.username },
        }),
        // One entry per lock, not per failure: the refusal that starts it.
        failed: ({ input, error }) =>
          error instanceof LockedOut && error.started
            ? {
                kind: 'auth.locked',
                summary:
                  error.started === 'pair'
                    ? `Sign-in for ${input.email} from this address locked for ${minutes(error.retryMs)} after repeated wrong passwords`
                    : `This address locked out of sign-in for ${minutes(error.retryMs)} after repeated failures`,
                actor: { id: null, name: String(input.email).toLowerCase() },
              }
            : null,
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.services.auth.login(input.email, input.password, ctx.clientIp()),
    ),

  logout: authedProcedure
    .meta(recorded({ after: () => ({ kind: 'auth.signOut', summary: 'Signed out' }) }))
    .mutation(async ({ ctx }) => {
      await ctx.services.auth.logout(ctx.session.id)
      return { ok: true as const }
    }),

  me: authedProcedure.query(({ ctx }) => ctx.session.user),

  // Anonymous requests: recording them would let anyone write to the log.
  requestPasswordReset: publicProcedure
    .input(forgotPasswordSchema)
    .meta(unrecorded('anonymous: anyone could write to the log'))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.auth.requestPasswordReset(input.email, ctx.clientIp())
      return { ok: true as const }
    }),

  // A completed reset shows as the sign-in that follows it.
  resetPassword: publicProcedure
    .input(resetPasswordSchema.extend({ token: z.string().pipe(resetTokenSchema) }))
    .meta(unrecorded('anonymous; the sign-in that follows is recorded'))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.auth.resetPassword(input.token, input.password)
      return { ok: true as const }
    }),
})
