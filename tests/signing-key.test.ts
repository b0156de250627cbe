import { describe, expect, test } from 'bun:test'
import { sameBytes, signingKey } from '../src/media/signing-key.ts'

const KEY = Buffer.alloc(32, 7).toString('base64url')
const textOf = (expires: number) => `/media/x.mp4\n${expires}`

describe('the shared signing key', () => {
  test('a signature verifies until its second has passed, not after', async () => {
    const key = signingKey(async () => KEY)
    const now = Date.UTC(2026, 10, 27, 12)
    const expires = now / 1000 + 60
    const signature = (await key.mac(textOf(expires))).toString('base64url')
    expect(await key.verifyExpiring(String(expires), signature, textOf, now)).toBe(true)
    expect(await key.verifyExpiring(String(expires), signature, textOf, now + 59_999)).toBe(true)
    expect(await key.verifyExpiring(String(expires), signature, textOf, now + 60_000)).toBe(false)
  })

  test('a changed expiry, text or signature, or malformed input, is refused', async () => {
    const key = signingKey(async () => KEY)
    const now = Date.now()
    const expires = Math.floor(now / 1000) + 600
    const signature = (await key.mac(textOf(expires))).toString('base64url')
    expect(await key.verifyExpiring(String(expires + 1), signature, textOf, now)).toBe(false)
    expect(
      await key.verifyExpiring(String(expires), signature, (e) => `/media/y.mp4\n${e}`, now),
    ).toBe(false)
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
    for (const [e, s] of [
      [String(expires), flipped],
      [String(expires), ''],
      [String(expires), signature.slice(0, 20)],
      ['', signature],
      ['12a', signature],
      ['9999999999999', signature],
    ]) {
      expect(await key.verifyExpiring(e!, s!, textOf, now)).toBe(false)
    }
  })

  test('another key does not verify; a failed load is tried again', async () => {
    let calls = 0
    const flaky = signingKey(async () => {
      calls += 1
      if (calls === 1) throw new Error('database not ready')
      return Buffer.alloc(32, 9).toString('base64url')
    })
    await expect(flaky.get()).rejects.toThrow('database not ready')
    expect(() => flaky.macLoaded('x')).toThrow()
    const expires = Math.floor(Date.now() / 1000) + 600
    const signature = (await signingKey(async () => KEY).mac(textOf(expires))).toString('base64url')
    expect(await flaky.verifyExpiring(String(expires), signature, textOf)).toBe(false)
    expect(calls).toBe(2)
    expect(flaky.macLoaded('x')).toEqual(await flaky.mac('x'))
  })

  test('sameBytes is false for empty or different lengths, never a throw', () => {
    expect(sameBytes(Buffer.from('abc'), Buffer.from('abc'))).toBe(true)
    expect(sameBytes(Buffer.from(''), Buffer.from(''))).toBe(false)
    expect(sameBytes(Buffer.from('ab'), Buffer.from('abc'))).toBe(false)
  })
})
