// /media/*: stored files, for everyone, straight from disk with Range support.
import { serveFile } from './range.ts'
import { type MediaStore, pathOfName, typeOfName } from './store.ts'

const MEDIA_PREFIX = '/media/'

/** Answers the request when its path is under /media/; undefined hands it on. */
export function handleMediaPaths(
  request: Request,
  pathname: string,
  store: MediaStore,
): Promise<Response> | undefined {
  if (!pathname.startsWith(MEDIA_PREFIX)) return undefined
  return media(request, pathname, store)
}

async function media(request: Request, pathname: string, store: MediaStore) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, HEAD' } })
  }
  const name = pathname.slice(MEDIA_PREFIX.length)
  const path = pathOfName(store, name)
  const type = typeOfName(name)
  if (!path || !type) return new Response('Not found', { status: 404 })
  return serveFile(request, path, type)
}
