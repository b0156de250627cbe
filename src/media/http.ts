// /media/*: stored files and derived outputs straight from disk with Range support. Streams,
// thumbnails and logos are for everyone; a master only while no streams exist for it, otherwise
// to an admin session or through a signed link (docs/decisions/058, 059).
import { IMMUTABLE, serveFile } from './range.ts'
import { derivedFile, type MediaStore, pathOfName, typeOfName } from './store.ts'

// Playlists are small and read once per play: a short cache lets a fix to one reach players
// soon. Segments, init segments and MP4s never change under their URL (a new run, a new folder).
const PLAYLIST_CACHE = 'public, max-age=60'
// A master's access changes under the same URL (its streams arrive): no shared cache may keep it,
// and a browser asks again each time, so a master that closed to visitors stays closed.
const MASTER_CACHE = 'private, no-cache'

const MEDIA_PREFIX = '/media/'

/** Who may fetch a master (a stored file of a video type). */
export type MasterAccess = {
  /** The masters visitors may fetch now. */
  openMasters(): Promise<ReadonlySet<string>>
  /** Whether the URL's query signs this name (and has not expired). */
  signed(name: string, search: URLSearchParams): Promise<boolean>
  /** Whether the request carries an admin's session. */
  admin(request: Request): Promise<boolean>
}

/** Answers the request when its path is under /media/; undefined hands it on. */
export function handleMediaPaths(
  request: Request,
  pathname: string,
  store: MediaStore,
  masters: MasterAccess,
): Promise<Response> | undefined {
  if (!pathname.startsWith(MEDIA_PREFIX)) return undefined
  return media(request, pathname, store, masters)
}

const notFound = () => new Response('Not found', { status: 404 })

async function media(request: Request, pathname: string, store: MediaStore, masters: MasterAccess) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, HEAD' } })
  }
  const name = pathname.slice(MEDIA_PREFIX.length)
  if (name.includes('/')) {
    const file = derivedFile(store, name.split('/'))
    if (!file) return notFound()
    const cache = file.path.endsWith('.m3u8') ? PLAYLIST_CACHE : IMMUTABLE
    return serveFile(request, file.path, file.type, cache)
  }
  const path = pathOfName(store, name)
  const type = typeOfName(name)
  if (!path || !type) return notFound()
  if (!type.startsWith('video/')) return serveFile(request, path, type)

  const search = new URL(request.url).searchParams
  if (search.has('signature')) {
    if (!(await masters.signed(name, search))) return notFound()
    const res = await serveFile(request, path, type, MASTER_CACHE)
    // The link is the "download the original" of the dashboard; a <video> ignores this header.
    if (res.ok) res.headers.set('Content-Disposition', 'attachment')
    return res
  }
  // 404, not 401: a visitor learns nothing about which names exist.
  if (!(await masters.openMasters()).has(name) && !(await masters.admin(request))) {
    return notFound()
  }
  return serveFile(request, path, type, MASTER_CACHE)
}
