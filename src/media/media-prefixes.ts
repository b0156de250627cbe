// Signed path prefixes for the files of a hidden work (docs/decisions/064): `/media/s/<expires>/
// <signature>/<folder or name>/…`. The signature covers the first segment after it (a stream
// folder, or a stored file's name) and the expiry, so a master playlist's relative URIs resolve
// under the same prefix and every playlist and segment of that folder is signed by one prefix.
// Admins get these in their answers (the dashboard plays a hidden work); visitors never do.
import { createHmac, timingSafeEqual } from 'node:crypto'

/** A prefix lives for at least this long, at most twice it: long enough for a working session. */
export const PREFIX_BUCKET_MS = 6 * 60 * 60_000

export type MediaPrefixes = {
  /** Loads the key; `url` may be called once it resolved. */
  ready(): Promise<void>
  /** `/media/<rest>` under a signed prefix for `rest`'s first segment. */
  url(mediaPath: string, now?: number): string
  /** Whether `signature` signs `first` until `expires` (unix seconds), still in the future. */
  verify(first: string, expires: string, signature: string, now?: number): Promise<boolean>
  /** Changes when the prefixes `url` gives change (answers holding them are then stale). */
  bucket(now?: number): number
}

const MEDIA = '/media/'

export function createMediaPrefixes(loadKey: () => Promise<string>): MediaPrefixes {
  let key: Buffer | undefined
  let loading: Promise<Buffer> | undefined
  const keyOf = () => {
    loading ??= loadKey()
      .then((text) => {
        key = Buffer.from(text, 'base64url')
        return key
      })
      .catch((error: unknown) => {
        loading = undefined
        throw error
      })
    return loading
  }
  const mac = (k: Buffer, first: string, expires: number) =>
    createHmac('sha256', k).update(`prefix\n${first}\n${expires}`).digest()
  const bucket = (now = Date.now()) => Math.floor(now / PREFIX_BUCKET_MS)

  return {
    async ready() {
      await keyOf()
    },
    bucket,
    url(mediaPath, now = Date.now()) {
      if (!key) throw new Error('media prefixes: ready() first')
      if (!mediaPath.startsWith(MEDIA)) return mediaPath
      const rest = mediaPath.slice(MEDIA.length)
      const first = rest.split('/')[0] ?? ''
      // The same prefix for every answer of a bucket: answers can be cached within it.
      const expires = ((bucket(now) + 2) * PREFIX_BUCKET_MS) / 1000
      const signature = mac(key, first, expires).toString('base64url')
      return `${MEDIA}s/${expires}/${signature}/${rest}`
    },
    async verify(first, expiresText, signature, now = Date.now()) {
      if (!/^\d{1,12}$/.test(expiresText)) return false
      const expires = Number(expiresText)
      if (expires * 1000 <= now) return false
      const given = Buffer.from(signature, 'base64url')
      const expected = mac(await keyOf(), first, expires)
      return given.length === expected.length && timingSafeEqual(given, expected)
    },
  }
}
