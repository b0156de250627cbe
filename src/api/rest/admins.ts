import type { UpdateAdminInput } from '../../contract/admin.ts'
import { readJson } from '../../http/body.ts'
import { ok } from '../../http/respond.ts'
import { type RestHandler, route } from './route.ts'

const update: RestHandler = async ({ req, caller, params }) => {
  const body = (await readJson(req)) as UpdateAdminInput
  return ok(await caller.admins.update({ ...body, id: params.id! }))
}

export const adminRoutes = [
  route('GET', '/api/admins', async ({ caller }) => ok(await caller.admins.list())),
  route('POST', '/api/admins', async ({ req, caller }) => {
    const body = await readJson(req)
    return ok(await caller.admins.create(body as never), 201)
  }),
  route('PUT', '/api/admins/:id', update),
  route('PATCH', '/api/admins/:id', update),
  route('DELETE', '/api/admins/:id', async ({ caller, params }) =>
    ok(await caller.admins.delete({ id: params.id! })),
  ),
]
