// /media/*: stored files and derived outputs, for everyone, straight from disk with Range support.
import { IMMUTABLE, serveFile } from './range.ts'
import { derivedFile, type MediaStore, pathOfName, typeOfName } from './store.ts'

// Playlists are small and read once per play: a short cache lets a fix to one reach players
// soon. Segments, init segments and MP4s never change under their URL (a new run, a new folder).
const PLAYLIST_CACHE = 'public, max-age=60'

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
  if (name.includes('/')) {
    const file = derivedFile(store, name.split('/'))
    if (!file) return new Response('Not found', { status: 404 })
    const cache = file.path.endsWith('.m3u8') ? PLAYLIST_CACHE : IMMUTABLE
    return serveFile(request, file.path, file.type, cache)
  }
  const path = pathOfName(store, name)
  const type = typeOfName(name)
  if (!path || !type) return new Response('Not found', { status: 404 })
  return serveFile(request, path, type)
}
