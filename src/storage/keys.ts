// Keys of the store. A key is derived from what the database keeps (a stored file's name, a run's
// folder), never from anything a client sent: `masters/<name>` for videos, `images/<name>` for
// thumbnails, logos and site images, `streams/<folder>/…` for a processing run's outputs.

const VIDEO_NAME = /^[0-9a-f]{32}\.(mp4|webm|ogv)$/
const IMAGE_NAME = /^[0-9a-f]{32}\.(jpg|png|webp|avif|svg)$/
const FOLDER = /^[0-9a-f]{32}$/

export const KEY_PREFIXES = ['masters/', 'images/', 'streams/'] as const

/** The key of a stored file's name; undefined for a name the store could not have made. */
export function keyOfName(name: string): string | undefined {
  if (VIDEO_NAME.test(name)) return `masters/${name}`
  if (IMAGE_NAME.test(name)) return `images/${name}`
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
  if (prefix === 'streams' && FOLDER.test(first) && rest.length > 0) return first
  return undefined
}
