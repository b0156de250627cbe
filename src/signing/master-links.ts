// Short-lived links to a master
// (docs/decisions/059-a-master-for-admins-once-streams-exist-signed-links.md): once a video's
// streams exist its master is for admins only, and a browser cannot send a bearer token with a
// <video> or a download. An admin asks for a link (`videos.masterLink`, GET
// /api/videos/:id/master); /media checks its HMAC-SHA256 over the path and the expiry with a key
// every server shares (the database keeps it), so no server-side state is needed and any server can
// check any link.

import { mediaUrl } from '../storage/layout.ts'
import { signingKey } from './key.ts'

/** Long enough to start a download or a play; a seek after it needs a new link. */
export const MASTER_LINK_TTL_MS = 15 * 60_000

export type MasterLink = {
  /** `/media/<name>?expires=<unix seconds>&signature=<base64url>` (relative, as every media URL). */
  url: string
  /** ISO 8601. */
  expiresAt: string
}

export type MasterLinks = {
  sign(name: string, now?: number): MasterLink
  /** Whether `search` carries an unexpired signature of `name`. */
  verify(name: string, search: URLSearchParams, now?: number): boolean
}

/** `keyText`: the shared key (base64url, 32 bytes), loaded before the first request. */
export function createMasterLinks(keyText: string): MasterLinks {
  const key = signingKey(keyText)
  const textOf = (name: string) => (expires: number) => `${mediaUrl(name)}\n${expires}`

  return {
    sign(name, now = Date.now()) {
      const expires = Math.floor((now + MASTER_LINK_TTL_MS) / 1000)
      const signature = key.mac(textOf(name)(expires)).toString('base64url')
      return {
        url: `${mediaUrl(name)}?expires=${expires}&signature=${signature}`,
        expiresAt: new Date(expires * 1000).toISOString(),
      }
    },

    verify(name, search, now = Date.now()) {
      const expires = search.get('expires') ?? ''
      return key.verifyExpiring(expires, search.get('signature') ?? '', textOf(name), now)
    },
  }
}
