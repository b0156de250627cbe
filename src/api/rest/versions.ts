// A work's versions over REST (docs/api.md): the same procedures as the dashboard's. A new
// version comes as a finished tus upload (`{ "upload": "<id>" }`) or as a multipart body with the
// file in `video` (or `file`), streamed to disk as on /api/videos/upload.
import { versionMessages } from '../../contract/version.ts'
import { AppError } from '../../errors.ts'
import { readJson } from '../../http/body.ts'
import { ok } from '../../http/respond.ts'
import { type RestHandler, route } from './route.ts'
import { withMultipart } from './videos.ts'

const add: RestHandler = async ({ req, ctx, caller, params }) => {
  const type = req.headers.get('content-type') ?? ''
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    const { upload } = await readJson(req)
    const added = await caller.versions.add({ id: params.id!, upload: upload as string })
    return ok({ version: added.version }, 201)
  }
  return withMultipart(req, ctx, { video: 'video', file: 'video' }, 'create', async (received) => {
    const upload = received.uploads.video
    if (!upload) throw new AppError('BAD_REQUEST', versionMessages.uploadRequired, 'video')
    const added = await caller.versions.add({ id: params.id!, upload })
    return ok({ version: added.version }, 201)
  })
}

export const versionRoutes = [
  route('GET', '/api/videos/:id/versions', async ({ caller, params }) => {
    const { versions } = await caller.versions.list({ id: params.id! })
    return ok({ versions })
  }),
  route('GET', '/api/videos/:id/versions/:versionId', async ({ caller, params }) => {
    const { version, video } = await caller.versions.get({
      id: params.id!,
      versionId: params.versionId!,
    })
    return ok({ version, video })
  }),
  route('POST', '/api/videos/:id/versions', add),
  route('PUT', '/api/videos/:id/versions/:versionId/current', async ({ caller, params }) => {
    const { version } = await caller.versions.makeCurrent({
      id: params.id!,
      versionId: params.versionId!,
    })
    return ok({ version })
  }),
  route('DELETE', '/api/videos/:id/versions/:versionId', async ({ caller, params }) => {
    await caller.versions.delete({ id: params.id!, versionId: params.versionId! })
    return ok({ deleted: 1 })
  }),
]
