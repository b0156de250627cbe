// /uploads/*: the tus endpoint, for signed-in admins only, at most a few uploads per session.
// Every answer leaves through here: each carries Tus-Resumable, and one given before the
// request's body was read still reaches its client (unread-body.ts).
import { TUS_RESUMABLE } from '@tus/server'
import { AppError, toPublicError } from '../errors.ts'
import type { Uploads } from './index.ts'
import { withMethodOverride } from './protocol.ts'
import { UPLOADS_PATH } from './tus.ts'
import { afterUnreadBody } from './unread-body.ts'

export type UploadPathsDeps = {
  uploads: Uploads
  /** The app's one session guard (src/accounts/guard.ts): the caller's session, or a thrown 401. */
  requireSession: (request: Request) => Promise<{ id: string; user: { _id: string } }>
}

/** Answers the request when its path is under /uploads; undefined hands it on. */
export function handleUploadPaths(
  request: Request,
  pathname: string,
  deps: UploadPathsDeps,
  closeIfIdle?: () => void,
): Promise<Response> | undefined {
  if (pathname !== UPLOADS_PATH && !pathname.startsWith(`${UPLOADS_PATH}/`)) return undefined
  return uploads(request, pathname, deps, closeIfIdle).then((response) => {
    response.headers.set('Tus-Resumable', TUS_RESUMABLE)
    return afterUnreadBody(request, response)
  })
}

async function uploads(
  original: Request,
  pathname: string,
  deps: UploadPathsDeps,
  closeIfIdle?: () => void,
) {
  // /uploads/ or /uploads/<one segment>; deeper paths are nobody's upload.
  if (pathname.slice(UPLOADS_PATH.length + 1).includes('/')) {
    return new Response('Not found', { status: 404 })
  }
  // From here on the method is the one X-HTTP-Method-Override names, if any (protocol.ts).
  const request = withMethodOverride(original)
  if (request instanceof Response) return request
  // Preflight carries no credentials; everything else needs a signed-in admin.
  if (request.method === 'OPTIONS') return deps.uploads.tus.preflight(request)
  let session: Awaited<ReturnType<UploadPathsDeps['requireSession']>>
  try {
    session = await deps.requireSession(request)
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    // tus refusals are a status and a one-line reason.
    return new Response(error.message, { status: toPublicError(error).status })
  }
  // A request that sends bytes takes one of the session's slots, whatever its method (a
  // POST may carry a PATCH in X-HTTP-Method-Override, or its first bytes for creation-with-upload).
  if (!request.body) return deps.uploads.tus.handle(request, session.user._id)
  let release: () => void
  try {
    release = deps.uploads.slots.acquire(session.id)
  } catch (error) {
    return new Response((error as Error).message, {
      status: 429,
      headers: { 'Retry-After': '5' },
    })
  }
  try {
    return await deps.uploads.tus.handle(request, session.user._id, closeIfIdle)
  } finally {
    release()
  }
}
