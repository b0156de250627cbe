// Signed path prefixes for the files of a hidden work
// (docs/decisions/064-a-hidden-works-media-by-set-lookup-signed-prefixes-and-link-paths.md):
// `/media/s/<expires>/ <signature>/<folder or name>/…`. The signature covers the first segment
// after it (a stream folder, or a stored file's name) and the expiry, so a master playlist's
// relative URIs resolve under the same prefix and every playlist and segment of that folder is
// signed by one prefix. Admins get these in their answers (the dashboard plays a hidden work);
// visitors never do.
import { signingKey } from './key.ts'

/** A prefix lives for at least this long, at most twice it: long enough for a working session. */
export const PREFIX_BUCKET_MS = 6 * 60 * 60_000

export type MediaPrefixes = {
  /** `/media/<rest>` under a signed prefix for `rest`'s first segment. */
  url(mediaPath: string, now?: number): string
  /** Whether `signature` signs `first` until `expires` (unix seconds), still in the future. */
  verify(first: string, expires: string, signature: string, now?: number): boolean
  /** Changes when the prefixes `url` gives change (answers holding them are then stale). */
  bucket(now?: number): number
}

const MEDIA = '/media/'

/** `keyText`: the shared key (base64url), loaded before the first request. */
export function createMediaPrefixes(keyText: string): MediaPrefixes {
  const key = signingKey(keyText)
  const textOf = (first: string) => (expires: number) => `prefix\n${first}\n${expires}`
  const bucket = (now = Date.now()) => Math.floor(now / PREFIX_BUCKET_MS)

  return {
    bucket,
    url(mediaPath, now = Date.now()) {
      if (!mediaPath.startsWith(MEDIA)) return mediaPath
      const rest = mediaPath.slice(MEDIA.length)
      const first = rest.split('/')[0] ?? ''
      // The same prefix for every answer of a bucket: answers can be cached within it.
      const expires = ((bucket(now) + 2) * PREFIX_BUCKET_MS) / 1000
      const signature = key.mac(textOf(first)(expires)).toString('base64url')
      return `${MEDIA}s/${expires}/${signature}/${rest}`
    },
    verify(first, expiresText, signature, now = Date.now()) {
      return key.verifyExpiring(expiresText, signature, textOf(first), now)
    },
  }
}
