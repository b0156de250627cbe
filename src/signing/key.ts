// The HMAC key every server shares (kept in the database, server_keys) and the few operations built
// on it: master download links, signed media prefixes and review-link tokens all sign with it, so
// any server can check what another signed, with no state per link. The key is read from the
// database once, before the first request is served (src/app.ts): signing never waits on a query,
// so it is safe anywhere, inside a transaction too
// (docs/decisions/084-a-transaction-never-waits-on-another-connection.md).
import { createHmac, timingSafeEqual } from 'node:crypto'

export type SigningKey = {
  /** HMAC-SHA256 of `text`. */
  mac(text: string): Buffer
  /**
   * Whether `signature` (base64url) is the MAC of `textOf(expires)` and `expiresText` (unix
   * seconds) is still in the future. Malformed input is simply false.
   */
  verifyExpiring(
    expiresText: string,
    signature: string,
    textOf: (expires: number) => string,
    now?: number,
  ): boolean
}

/** `keyText` is the shared key as base64url, as the database keeps it. */
export function signingKey(keyText: string): SigningKey {
  const key = Buffer.from(keyText, 'base64url')
  if (key.length === 0) throw new Error('signing key: empty')
  const mac = (text: string) => createHmac('sha256', key).update(text).digest()
  return {
    mac,
    verifyExpiring(expiresText, signature, textOf, now = Date.now()) {
      if (!/^\d{1,12}$/.test(expiresText)) return false
      const expires = Number(expiresText)
      if (expires * 1000 <= now) return false
      return sameBytes(Buffer.from(signature, 'base64url'), mac(textOf(expires)))
    },
  }
}

/** Constant-time equality that is false (not an error) for different lengths or empty input. */
export function sameBytes(given: Uint8Array, expected: Uint8Array): boolean {
  return given.length > 0 && given.length === expected.length && timingSafeEqual(given, expected)
}
