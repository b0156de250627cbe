// Video REST paths (docs/api.md). Multipart bodies are streamed to disk, registered as finished
// uploads of the caller, and handed to the same procedures the web app calls over tRPC.

import { CAPTIONS_MAX_BYTES, captionsMessages } from '../../contract/captions.ts'
import {
  type FileKind,
  type FileMode,
  fileKinds,
  kindAccepts,
  maxBytes,
  requiredMessage,
  tooLargeMessage,
  wrongTypeMessage,
} from '../../contract/file-rules.ts'
import { AppError } from '../../errors.ts'
import { readJson } from '../../http/body.ts'
import { ok } from '../../http/respond.ts'
import { crashPoint } from '../../uploads/crash-points.ts'
import type { UploadKind } from '../../uploads/kinds.ts'
import { type FileRule, receiveMultipart } from '../../uploads/multipart.ts'
import { sniff } from '../../uploads/sniff.ts'
import type { Context } from '../trpc.ts'
import { type RestHandler, route } from './route.ts'

const ruleFor = (kind: UploadKind, mode: FileMode): FileRule =>
  // Text, checked line by line by the procedure once it is in.
  kind === 'captions'
    ? { maxBytes: CAPTIONS_MAX_BYTES, tooLarge: captionsMessages.tooLarge }
    : {
        maxBytes: maxBytes(kind, mode),
        tooLarge: tooLargeMessage(kind, mode),
        // Refused from the first bytes, so a wrong 2 GB file is not read to its end.
        checkHead: (head) => (kindAccepts(kind, sniff(head)) ? undefined : wrongTypeMessage(kind)),
      }

type Received = { fields: Record<string, string>; uploads: Partial<Record<UploadKind, string>> }

/**
 * Streams the multipart body to disk and registers each file as a finished upload of the caller,
 * then runs `use`; whatever `use` did not take is released. `aliases` maps other field names
 * (the single-file paths also take `file`) onto a kind.
 */
export async function withMultipart<T>(
  req: Request,
  ctx: Context,
  files: Partial<Record<string, UploadKind>>,
  mode: FileMode,
  use: (received: Received) => Promise<T>,
): Promise<T> {
  const { services } = ctx
  // The procedure decides who may change videos; this only refuses, before the body is read, a
  // caller it would refuse anyway (the one guard of entries outside tRPC).
  const session = await services.sessions.requireSession(req)
  const rules = Object.fromEntries(
    Object.entries(files).map(([field, kind]) => [field, ruleFor(kind!, mode)]),
  )
  const release = services.uploads.slots.acquire(session.id)
  const result = await receiveMultipart(req, { dir: services.media.tmpDir, files: rules }).finally(
    release,
  )
  if (!result.ok) {
    const { status, message, field } = result.failure
    const code =
      status === 413
        ? 'PAYLOAD_TOO_LARGE'
        : status === 415
          ? 'UNSUPPORTED_MEDIA_TYPE'
          : 'BAD_REQUEST'
    throw new AppError(code, message, field ? files[field] : undefined)
  }
  const uploads: Partial<Record<UploadKind, string>> = {}
  // Every one registered, also one an alias field replaced in `uploads` (`file` and the kind).
  const registered: string[] = []
  try {
    for (const [field, file] of Object.entries(result.files)) {
      const kind = files[field]!
      uploads[kind] = await services.uploads.tus.register(file.path, kind, session.user._id)
      registered.push(uploads[kind])
      crashPoint('rest:registered')
    }
    return await use({ fields: result.fields, uploads })
  } finally {
    await Promise.all(registered.map((id) => services.uploads.tus.release(id)))
    await result.cleanup()
  }
}

const allKinds = Object.fromEntries(fileKinds.map((kind) => [kind, kind]))

const upload: RestHandler = ({ req, ctx, caller }) =>
  withMultipart(req, ctx, allKinds, 'create', async ({ fields, uploads }) => {
    for (const kind of fileKinds) {
      if (!uploads[kind]) throw new AppError('BAD_REQUEST', requiredMessage(kind), kind)
    }
    const created = await caller.videos.create({
      title: fields.title ?? '',
      description: fields.description,
      uploads: uploads as Record<FileKind, string>,
    })
    return ok(created, 201)
  })

const updateAll: RestHandler = ({ req, ctx, caller, params }) =>
  withMultipart(req, ctx, allKinds, 'edit', async ({ fields, uploads }) =>
    ok(
      await caller.videos.update({
        id: params.id!,
        title: fields.title,
        description: fields.description,
        uploads,
      }),
    ),
  )

const replaceOne =
  (kind: FileKind): RestHandler =>
  ({ req, ctx, caller, params }) =>
    withMultipart(req, ctx, { [kind]: kind, file: kind }, 'edit', async ({ uploads }) => {
      if (!uploads[kind]) throw new AppError('BAD_REQUEST', requiredMessage(kind), kind)
      return ok(await caller.videos.update({ id: params.id!, uploads }))
    })

/** A caption track from a multipart body: `file` (WebVTT or SRT), `language`, `label`. */
const addCaptions: RestHandler = ({ req, ctx, caller, params }) =>
  withMultipart(req, ctx, { file: 'captions' }, 'edit', async ({ fields, uploads }) => {
    if (!uploads.captions) throw new AppError('BAD_REQUEST', captionsMessages.fileRequired, 'file')
    const added = await caller.videos.addCaptions({
      id: params.id!,
      upload: uploads.captions,
      language: fields.language ?? '',
      label: fields.label ?? '',
    })
    return ok(added.caption, 201)
  })

export const videoRoutes = [
  route('GET', '/api/public/videos', async ({ req, caller }) => {
    // No parameters: every published work (docs/api.md). `limit` and `cursor`: one page of them.
    const query = new URL(req.url).searchParams
    const limit = query.get('limit') ?? undefined
    const cursor = query.get('cursor') ?? undefined
    const paged = limit !== undefined || cursor !== undefined
    return ok(await caller.videos.publicList(paged ? { limit, cursor } : undefined))
  }),
  route('GET', '/api/videos', async ({ req, caller }) => {
    const query = new URL(req.url).searchParams
    const page = query.get('page') ?? undefined
    const limit = query.get('limit') ?? undefined
    const order = (query.get('order') ?? undefined) as 'newest' | 'curated' | undefined
    return ok(await caller.videos.list({ page, limit, order }))
  }),
  route('POST', '/api/videos/reorder', async ({ req, caller }) => {
    const { ids } = await readJson(req)
    return ok(await caller.videos.reorder({ ids: ids as string[] }))
  }),
  route('PUT', '/api/videos/:id/published', async ({ req, caller, params }) => {
    const { published } = await readJson(req)
    return ok(await caller.videos.setPublished({ id: params.id!, published: published as boolean }))
  }),
  route('POST', '/api/videos/check-title', async ({ req, caller }) => {
    const { title } = await readJson(req)
    return ok(await caller.videos.checkTitle({ title: title as string }))
  }),
  route('POST', '/api/videos/upload', upload),
  route('POST', '/api/videos/bulk-delete', async ({ req, caller }) => {
    const { ids } = await readJson(req)
    return ok(await caller.videos.bulkDelete({ ids: ids as string[] }))
  }),
  route('GET', '/api/videos/:id', async ({ caller, params }) =>
    ok(await caller.videos.get({ id: params.id! })),
  ),
  route('GET', '/api/videos/:id/master', async ({ caller, params }) =>
    ok(await caller.videos.masterLink({ id: params.id! })),
  ),
  route('PATCH', '/api/videos/:id', async ({ req, caller, params }) => {
    const { title, description } = await readJson(req)
    return ok(
      await caller.videos.update({
        id: params.id!,
        ...(title === undefined ? {} : { title: title as string }),
        ...(description === undefined ? {} : { description: description as string }),
      }),
    )
  }),
  route('POST', '/api/videos/:id/retry', async ({ caller, params }) =>
    ok(await caller.videos.retry({ id: params.id! })),
  ),
  route('PUT', '/api/videos/:id/update-all', updateAll),
  route('PUT', '/api/videos/:id/video', replaceOne('video')),
  route('PUT', '/api/videos/:id/thumbnail', replaceOne('thumbnail')),
  route('POST', '/api/videos/:id/captions', addCaptions),
  route('DELETE', '/api/videos/:id/captions/:language', async ({ caller, params }) => {
    await caller.videos.removeCaptions({ id: params.id!, language: params.language! })
    return new Response(null, { status: 204 })
  }),
  route('DELETE', '/api/videos/:id', async ({ caller, params }) =>
    ok(await caller.videos.delete({ id: params.id! })),
  ),
]
