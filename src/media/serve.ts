// /media/*: stored files and derived outputs from the store, with Range support. Streams,
// thumbnails and logos of a shown work are for everyone; a master, in every state of its work, only
// to an admin session or through a signed link
// (docs/decisions/059-a-master-for-admins-once-streams-exist-signed-links.md,
// docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md). A hidden work's files answer
// only to an admin session, under a signed prefix (/media/s/…), or through a review link
// (/r/<token>/media/…, src/pages/review.ts):
// docs/decisions/064-a-hidden-works-media-by-set-lookup-signed-prefixes-and-link-paths.md. With a
// public base URL for the bucket, a shown work's public files answer with a redirect to their
// public copy there instead
// (docs/decisions/073-public-media-stream-by-default-redirect-with-media-public-url.md,
// docs/decisions/087-public-copies-under-public-for-shown-works-only.md), once the copy is
// complete; everything checked per request keeps streaming through here. A work's caption tracks
// are files of their own (/media/<name>.vtt, for a <track>) and, once streams exist, a SUBTITLES
// group of its master (captions.ts); both follow the work's access.
import { derivedFile, publicKey, storedFile } from '../storage/layout.ts'
import type { MediaStore } from '../storage/store.ts'
import type { CaptionsLookup } from '../videos/captions.ts'
import { mayBeCaptioned, serveCaptioned, WEBVTT_TYPE } from './captions.ts'
import { IMMUTABLE, serveObject } from './range.ts'

// Playlists are small and read once per play: a short cache lets a fix to one reach players
// soon. Segments, init segments and MP4s never change under their URL (a new run, a new folder).
const PLAYLIST_CACHE = 'public, max-age=60'
// A master answers only to an admin or a signed link: no shared cache may keep it, and a browser
// asks again each time, so a session that ended or a link that expired gets nothing more.
const MASTER_CACHE = 'private, no-cache'
/** A hidden work's files: for the one browser that asked, checked again on every request. */
export const PRIVATE_CACHE = 'private, no-cache'

// A redirect names a public copy, and a work hidden and shown again gets new copies: a browser
// keeps the redirect only briefly (the copy itself is cached as the file would be).
const REDIRECT_CACHE = 'public, max-age=60'

const MEDIA_PREFIX = '/media/'
const SIGNED_PREFIX = /^s\/(\d{1,12})\/([A-Za-z0-9_-]{43})\/(.+)$/

/** Who may fetch what. */
export type MediaAccess = {
  /** The folders and stored names of works visitors do not see (hidden, failed). */
  privateNames(): Promise<ReadonlySet<string>>
  /** Whether the URL's query signs this name (and has not expired). */
  signed(name: string, search: URLSearchParams): Promise<boolean>
  /** Whether a /media/s/<expires>/<signature>/ prefix signs `first` (and has not expired). */
  prefixSigned(first: string, expires: string, signature: string): Promise<boolean>
  /** Whether the request carries an admin's session. */
  admin(request: Request): Promise<boolean>
  /** The caption tracks of a stream folder. */
  captions: CaptionsLookup
  /** Set: the public base URL of the bucket's keys (no trailing slash), for public files. */
  publicUrl?: string | undefined
  /**
   * The id of a shown work's folder's or image's complete public copy, if any
   * (docs/decisions/087-public-copies-under-public-for-shown-works-only.md).
   */
  publicCopy?: ((name: string) => Promise<string | undefined>) | undefined
}

/** Answers the request when its path is under /media/; undefined hands it on. */
export function handleMediaPaths(
  request: Request,
  pathname: string,
  store: MediaStore,
  access: MediaAccess,
): Promise<Response> | undefined {
  if (!pathname.startsWith(MEDIA_PREFIX)) return undefined
  return media(request, pathname, store, access)
}

const notFound = () => new Response('Not found', { status: 404 })

export const methodNotAllowed = () =>
  new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, HEAD' } })

/** The first segment of a path after /media/: a stream folder or a stored file's name. */
export function firstSegment(rest: string): string {
  const slash = rest.indexOf('/')
  return slash < 0 ? rest : rest.slice(0, slash)
}

async function media(request: Request, pathname: string, store: MediaStore, access: MediaAccess) {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed()
  const name = pathname.slice(MEDIA_PREFIX.length)
  const signed = SIGNED_PREFIX.exec(name)
  if (signed) {
    const [, expires = '', signature = '', rest = ''] = signed
    if (!(await access.prefixSigned(firstSegment(rest), expires, signature))) return notFound()
    return (await servePrivate(request, rest, store, access.captions)) ?? notFound()
  }
  // The one question a shown work's request adds: a lookup in a set kept until the next change.
  if ((await access.privateNames()).has(firstSegment(name))) {
    if (!(await access.admin(request))) return notFound()
    return (await servePrivate(request, name, store, access.captions)) ?? notFound()
  }
  if (name.includes('/')) {
    const parts = name.split('/')
    if (mayBeCaptioned(parts)) {
      const captioned = await serveCaptioned(
        request,
        parts,
        store,
        await access.captions(parts[0]!),
        { playlist: PLAYLIST_CACHE, file: IMMUTABLE },
      )
      if (captioned) return captioned
    }
    const file = derivedFile(parts)
    if (!file) return notFound()
    const cache = file.key.endsWith('.m3u8') ? PLAYLIST_CACHE : IMMUTABLE
    const copied = await redirectToCopy(access, parts[0]!, file.key)
    return copied ?? serveObject(request, store.storage, file.key, file.type, cache)
  }
  const file = storedFile(name)
  if (!file) return notFound()
  const { key, type } = file
  // Through here even with a public base URL: a <track> loads only from its page's origin.
  if (type === 'text/vtt') return serveObject(request, store.storage, key, WEBVTT_TYPE)
  if (!type.startsWith('video/')) {
    return (
      (await redirectToCopy(access, name, key)) ?? serveObject(request, store.storage, key, type)
    )
  }

  const search = new URL(request.url).searchParams
  if (search.has('signature')) {
    if (!(await access.signed(name, search))) return notFound()
    const res = await serveObject(request, store.storage, key, type, MASTER_CACHE)
    // The link is the "download the original" of the dashboard; a <video> ignores this header.
    if (res.ok) res.headers.set('Content-Disposition', 'attachment')
    return res
  }
  // Never to visitors, whatever its work's state: public answers name streams and the MP4 only.
  // 404, not 401: a visitor learns nothing about which names exist.
  if (!(await access.admin(request))) return notFound()
  return serveObject(request, store.storage, key, type, MASTER_CACHE)
}

/**
 * A shown work's public file, at its public copy under the bucket's public URL; undefined while
 * it has no complete copy (the caller streams it). A master playlist's relative URIs resolve
 * under the same copy, so renditions and segments load from there too (a copy keeps the app's
 * folder layout).
 */
async function redirectToCopy(
  access: MediaAccess,
  name: string,
  key: string,
): Promise<Response | undefined> {
  if (!access.publicUrl || !access.publicCopy) return undefined
  const copyId = await access.publicCopy(name)
  if (!copyId) return undefined
  return new Response(null, {
    status: 302,
    headers: {
      Location: `${access.publicUrl}/${publicKey(copyId, key)}`,
      'Cache-Control': REDIRECT_CACHE,
    },
  })
}

/**
 * A file of the store (`rest`: what follows /media/) for a caller already let in, kept by no
 * shared cache; undefined for anything the store could not hold.
 */
export async function servePrivate(
  request: Request,
  rest: string,
  store: MediaStore,
  captions: CaptionsLookup,
): Promise<Response | undefined> {
  const parts = rest.split('/')
  if (mayBeCaptioned(parts)) {
    const captioned = await serveCaptioned(request, parts, store, await captions(parts[0]!), {
      playlist: PRIVATE_CACHE,
      file: PRIVATE_CACHE,
    })
    if (captioned) return captioned
  }
  const file = rest.includes('/') ? derivedFile(parts) : storedFile(rest)
  const type = file?.type === 'text/vtt' ? WEBVTT_TYPE : file?.type
  return file && serveObject(request, store.storage, file.key, type!, PRIVATE_CACHE)
}
