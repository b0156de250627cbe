import { describe, expect, test } from 'bun:test'
import { sameBytes, signingKey } from '../../src/signing/key.ts'

const KEY = Buffer.alloc(32, 7).toString('base64url')
const textOf = (expires: number) => `/media/x.mp4\n${expires}`

describe('the shared signing key', () => {
  test('a signature verifies until its second has passed, not after', () => {
    const key = signingKey(KEY)
    const now = Date.UTC(2026, 10, 27, 12)
    const expires = now / 1000 + 60
    const signature = key.mac(textOf(expires)).toString('base64url')
    expect(key.verifyExpiring(String(expires), signature, textOf, now)).toBe(true)
    expect(key.verifyExpiring(String(expires), signature, textOf, now + 59_999)).toBe(true)
    expect(key.verifyExpiring(String(expires), signature, textOf, now + 60_000)).toBe(false)
  })

  test('a changed expiry, text or signature, or malformed input, is refused', () => {
    const key = signingKey(KEY)
    const now = Date.now()
    const expires = Math.floor(now / 1000) + 600
    const signature = key.mac(textOf(expires)).toString('base64url')
    expect(key.verifyExpiring(String(expires + 1), signature, textOf, now)).toBe(false)
    expect(key.verifyExpiring(String(expires), signature, (e) => `/media/y.mp4\n${e}`, now)).toBe(
      false,
    )
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
    for (const [e, s] of [
      [String(expires), flipped],
      [String(expires), ''],
      [String(expires), signature.slice(0, 20)],
      ['', signature],
      ['12a', signature],
      ['9999999999999', signature],
    ]) {
      expect(key.verifyExpiring(e!, s!, textOf, now)).toBe(false)
    }
  })

  test('another key does not verify; an empty key is refused at once', () => {
    const other = signingKey(Buffer.alloc(32, 9).toString('base64url'))
    const expires = Math.floor(Date.now() / 1000) + 600
    const signature = signingKey(KEY).mac(textOf(expires)).toString('base64url')
    expect(other.verifyExpiring(String(expires), signature, textOf)).toBe(false)
    expect(signingKey(KEY).verifyExpiring(String(expires), signature, textOf)).toBe(true)
    expect(() => signingKey('')).toThrow()
  })

  test('sameBytes is false for empty or different lengths, never a throw', () => {
    expect(sameBytes(Buffer.from('abc'), Buffer.from('abc'))).toBe(true)
    expect(sameBytes(Buffer.from(''), Buffer.from(''))).toBe(false)
    expect(sameBytes(Buffer.from('ab'), Buffer.from('abc'))).toBe(false)
  })
})
