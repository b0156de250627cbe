// Short-lived links to a master (docs/decisions/059): once a video's streams exist its master is
// for admins only, and a browser cannot send a bearer token with a <video> or a download. An
// admin asks for a link (`videos.masterLink`, GET /api/videos/:id/master); /media checks its
// HMAC-SHA256 over the path and the expiry with a key every server shares (the database keeps
// it), so no server-side state is needed and any server can check any link.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { mediaUrl } from './store.ts'

/** Long enough to start a download or a play; a seek after it needs a new link. */
export const MASTER_LINK_TTL_MS = 15 * 60_000

export type MasterLink = {
  /** `/media/<name>?expires=<unix seconds>&signature=<base64url>` (relative, as every media URL). */
  url: string
  /** ISO 8601. */
  expiresAt: string
}

export type MasterLinks = {
  sign(name: string, now?: number): Promise<MasterLink>
  /** Whether `search` carries an unexpired signature of `name`. */
  verify(name: string, search: URLSearchParams, now?: number): Promise<boolean>
}

/** `loadKey` gives the shared key (base64url, 32 bytes); called once, again after a failure. */
export function createMasterLinks(loadKey: () => Promise<string>): MasterLinks {
  let key: Promise<Buffer> | undefined
  const keyOf = () => {
    key ??= loadKey()
      .then((text) => Buffer.from(text, 'base64url'))
      .catch((error: unknown) => {
        key = undefined
        throw error
      })
    return key
  }
  const mac = (k: Buffer, name: string, expires: number) =>
    createHmac('sha256', k)
      .update(`${mediaUrl(name)}\n${expires}`)
      .digest()

  return {
    async sign(name, now = Date.now()) {
      const expires = Math.floor((now + MASTER_LINK_TTL_MS) / 1000)
      const signature = mac(await keyOf(), name, expires).toString('base64url')
      return {
        url: `${mediaUrl(name)}?expires=${expires}&signature=${signature}`,
        expiresAt: new Date(expires * 1000).toISOString(),
      }
    },

    async verify(name, search, now = Date.now()) {
      const expiresText = search.get('expires') ?? ''
      const given = Buffer.from(search.get('signature') ?? '', 'base64url')
      if (!/^\d{1,12}$/.test(expiresText) || given.length === 0) return false
      const expires = Number(expiresText)
      if (expires * 1000 <= now) return false
      const expected = mac(await keyOf(), name, expires)
      return given.length === expected.length && timingSafeEqual(given, expected)
    },
  }
}
