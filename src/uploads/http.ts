// /uploads/*: the tus endpoint, for signed-in admins only, at most a few PATCHes per session.
import type { Uploads } from './index.ts'
import { UPLOADS_PATH } from './tus.ts'

export type UploadPathsDeps = {
  uploads: Uploads
  /** The signed-in admin and session behind the request's bearer token, if any. */
  sessionOf: (request: Request) => Promise<{ userId: string; sessionId: string } | null>
}

/** Answers the request when its path is under /uploads; undefined hands it on. */
export function handleUploadPaths(
  request: Request,
  pathname: string,
  deps: UploadPathsDeps,
  closeIfIdle?: () => void,
): Promise<Response> | undefined {
  if (pathname !== UPLOADS_PATH && !pathname.startsWith(`${UPLOADS_PATH}/`)) return undefined
  return uploads(request, pathname, deps, closeIfIdle)
}

async function uploads(
  request: Request,
  pathname: string,
  deps: UploadPathsDeps,
  closeIfIdle?: () => void,
) {
  // /uploads/ or /uploads/<one segment>; deeper paths are nobody's upload.
  if (pathname.slice(UPLOADS_PATH.length + 1).includes('/')) {
    return new Response('Not found', { status: 404 })
  }
  const session = request.method === 'OPTIONS' ? null : await deps.sessionOf(request)
  if (!session || request.method !== 'PATCH') {
    return deps.uploads.tus.handle(request, session?.userId ?? null)
  }
  let release: () => void
  try {
    release = deps.uploads.slots.acquire(session.sessionId)
  } catch (error) {
    return new Response((error as Error).message, {
      status: 429,
      headers: { 'Tus-Resumable': '1.0.0', 'Retry-After': '5' },
    })
  }
  try {
    return await deps.uploads.tus.handle(request, session.userId, closeIfIdle)
  } finally {
    release()
  }
}
