// The two media paths: /uploads/* (tus, signed-in admins only) and /media/* (stored files).

import { UPLOADS_PATH } from '../uploads/tus.ts'
import type { Media } from './index.ts'
import { serveFile } from './range.ts'
import { pathOfName, typeOfName } from './store.ts'

const MEDIA_PREFIX = '/media/'

export type MediaPathsDeps = {
  media: Media
  /** The signed-in admin and session behind the request's bearer token, if any. */
  sessionOf: (request: Request) => Promise<{ userId: string; sessionId: string } | null>
}

/** Answers the request when its path is one of ours; undefined hands it on. */
export function handleMediaPaths(
  request: Request,
  pathname: string,
  deps: MediaPathsDeps,
  closeIfIdle?: () => void,
): Promise<Response> | undefined {
  if (pathname === UPLOADS_PATH || pathname.startsWith(`${UPLOADS_PATH}/`)) {
    return uploads(request, pathname, deps, closeIfIdle)
  }
  if (pathname.startsWith(MEDIA_PREFIX)) return media(request, pathname, deps)
  return undefined
}

async function uploads(
  request: Request,
  pathname: string,
  deps: MediaPathsDeps,
  closeIfIdle?: () => void,
) {
  // /uploads/ or /uploads/<one segment>; deeper paths are nobody's upload.
  if (pathname.slice(UPLOADS_PATH.length + 1).includes('/')) {
    return new Response('Not found', { status: 404 })
  }
  const session = request.method === 'OPTIONS' ? null : await deps.sessionOf(request)
  if (!session || request.method !== 'PATCH') {
    return deps.media.tus.handle(request, session?.userId ?? null)
  }
  let release: () => void
  try {
    release = deps.media.slots.acquire(session.sessionId)
  } catch (error) {
    return new Response((error as Error).message, {
      status: 429,
      headers: { 'Tus-Resumable': '1.0.0', 'Retry-After': '5' },
    })
  }
  try {
    return await deps.media.tus.handle(request, session.userId, closeIfIdle)
  } finally {
    release()
  }
}

async function media(request: Request, pathname: string, deps: MediaPathsDeps) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, HEAD' } })
  }
  const name = pathname.slice(MEDIA_PREFIX.length)
  const path = pathOfName(deps.media.store, name)
  const type = typeOfName(name)
  if (!path || !type) return new Response('Not found', { status: 404 })
  return serveFile(request, path, type)
}
