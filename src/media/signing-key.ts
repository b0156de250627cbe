// The HMAC key every server shares (kept in the database, server_keys) and the few operations
// built on it: master download links, signed media prefixes and review-link tokens all sign with
// it, so any server can check what another signed, with no state per link.
import { createHmac, timingSafeEqual } from 'node:crypto'

export type SigningKey = {
  /** Resolves once the key is loaded; loads it again after a failed attempt. */
  get(): Promise<Buffer>
  /** HMAC-SHA256 of `text` with the key `get` loaded; throws when it has not resolved yet. */
  macLoaded(text: string): Buffer
  /** HMAC-SHA256 of `text`. */
  mac(text: string): Promise<Buffer>
  /**
   * Whether `signature` (base64url) is the MAC of `textOf(expires)` and `expiresText` (unix
   * seconds) is still in the future. Malformed input is simply false.
   */
  verifyExpiring(
    expiresText: string,
    signature: string,
    textOf: (expires: number) => string,
    now?: number,
  ): Promise<boolean>
}

/** `loadKey` gives the shared key as base64url; it is called once, and again after a failure. */
export function signingKey(loadKey: () => Promise<string>): SigningKey {
  let loading: Promise<Buffer> | undefined
  let key: Buffer | undefined
  const get = () => {
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
  const mac = async (text: string) =>
    createHmac('sha256', await get())
      .update(text)
      .digest()
  return {
    get,
    macLoaded(text) {
      if (!key) throw new Error('signing key: await get() first')
      return createHmac('sha256', key).update(text).digest()
    },
    mac,
    async verifyExpiring(expiresText, signature, textOf, now = Date.now()) {
      if (!/^\d{1,12}$/.test(expiresText)) return false
      const expires = Number(expiresText)
      if (expires * 1000 <= now) return false
      return sameBytes(Buffer.from(signature, 'base64url'), await mac(textOf(expires)))
    },
  }
}

/** Constant-time equality that is false (not an error) for different lengths or empty input. */
export function sameBytes(given: Uint8Array, expected: Uint8Array): boolean {
  return given.length > 0 && given.length === expected.length && timingSafeEqual(given, expected)
}
