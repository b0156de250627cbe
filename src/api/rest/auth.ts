import { readJson } from '../../http/body.ts'
import { ok } from '../../http/respond.ts'
import { route } from './route.ts'

export const authRoutes = [
  route('POST', '/api/auth/login', async ({ req, caller }) => {
    const body = await readJson(req)
    return ok(await caller.auth.login(body as { email: string; password: string }))
  }),
  route('POST', '/api/auth/logout', async ({ caller }) => ok(await caller.auth.logout())),
  route('GET', '/api/auth/me', async ({ caller }) => ok({ user: await caller.auth.me() })),
  route('POST', '/api/auth/reset-password/request', async ({ req, caller }) => {
    const body = await readJson(req)
    return ok(await caller.auth.requestPasswordReset(body as { email: string }))
  }),
  route('POST', '/api/auth/reset-password/:token', async ({ req, caller, params }) => {
    const body = await readJson(req)
    return ok(
      await caller.auth.resetPassword({ ...(body as { password: string }), token: params.token! }),
    )
  }),
]
