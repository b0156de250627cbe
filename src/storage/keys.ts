// Keys of the store. A key is derived from what the database keeps (a stored file's name, a run's
// folder), never from anything a client sent: `masters/<name>` for videos, `images/<name>` for
// thumbnails, logos and site images, `captions/<name>` for caption tracks (WebVTT),
// `streams/<folder>/…` for a processing run's outputs. A public copy of a stream folder or an
// image (docs/decisions/087) is `public/<copy id>/<that key>`: the only keys a bucket may let
// anyone read.
import { StorageError } from './types.ts'

const VIDEO_NAME = /^[0-9a-f]{32}\.(mp4|webm|ogv)$/
const IMAGE_NAME = /^[0-9a-f]{32}\.(jpg|png|webp|avif|svg)$/
const CAPTIONS_NAME = /^[0-9a-f]{32}\.vtt$/
const FOLDER = /^[0-9a-f]{32}$/

export const KEY_PREFIXES = ['masters/', 'images/', 'captions/', 'streams/'] as const

/** Where public copies live; a bucket's policy makes this prefix, and only it, readable. */
export const PUBLIC_PREFIX = 'public/'
const COPY_ID = /^[0-9a-f]{32}$/

/** The key of `key`'s public copy `copyId`; only stream folders and images have one. */
export function publicKey(copyId: string, key: string): string {
  if (!COPY_ID.test(copyId) || !/^(streams|images)\//.test(key)) {
    throw new StorageError(`no public copy of ${key}`)
  }
  return `${PUBLIC_PREFIX}${copyId}/${key}`
}

/** The copy id and the copied key of a public copy's key; undefined for any other key. */
export function publicParts(key: string): { copyId: string; key: string } | undefined {
  if (!key.startsWith(PUBLIC_PREFIX)) return undefined
  const rest = key.slice(PUBLIC_PREFIX.length)
  const slash = rest.indexOf('/')
  const copyId = rest.slice(0, slash)
  const copied = rest.slice(slash + 1)
  if (slash < 0 || !COPY_ID.test(copyId) || !/^(streams|images)\//.test(copied)) return undefined
  return { copyId, key: copied }
}

/** The key of a stored file's name; undefined for a name the store could not have made. */
export function keyOfName(name: string): string | undefined {
  if (VIDEO_NAME.test(name)) return `masters/${name}`
  if (IMAGE_NAME.test(name)) return `images/${name}`
  if (CAPTIONS_NAME.test(name)) return `captions/${name}`
  return undefined
}

/** The key prefix of a run's folder (with its trailing slash). */
export function keyOfFolder(folder: string): string | undefined {
  return FOLDER.test(folder) ? `streams/${folder}/` : undefined
}

/** The stored name or run folder a key belongs to (what rows name); undefined for a stray key. */
export function ownerOfKey(key: string): string | undefined {
  const [prefix, first = '', ...rest] = key.split('/')
  if (prefix === 'masters' && rest.length === 0 && VIDEO_NAME.test(first)) return first
  if (prefix === 'images' && rest.length === 0 && IMAGE_NAME.test(first)) return first
  if (prefix === 'captions' && rest.length === 0 && CAPTIONS_NAME.test(first)) return first
  if (prefix === 'streams' && FOLDER.test(first) && rest.length > 0) return first
  return undefined
}

// Inside a run's folder: plain names, no dot files, at most two levels (rung, then file).
const PART = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/

/**
 * A key split into its owner (a stored name or a run's folder) and the parts below a run's folder
 * (none for masters and images); undefined for a key the store could not have made. Every engine
 * goes through this before touching a key, so no engine can be talked into writing a stray.
 */
export function partsOfKey(key: string): { owner: string; below: string[] } | undefined {
  const copy = publicParts(key)
  if (copy) return partsOfKey(copy.key)
  const owner = ownerOfKey(key)
  if (!owner) return undefined
  if (!key.startsWith('streams/')) return { owner, below: [] }
  const below = key.split('/').slice(2)
  return below.length <= 2 && below.every((part) => PART.test(part)) ? { owner, below } : undefined
}

/** `partsOfKey`, for a key about to be used: throws for a key the store could not have made. */
export function checkedKey(key: string): { owner: string; below: string[] } {
  const parts = partsOfKey(key)
  if (!parts) throw new StorageError(`not a storage key: ${key}`)
  return parts
}
