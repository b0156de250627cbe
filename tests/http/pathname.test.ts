import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { pathnameOf } from '../../src/http/pathname.ts'

describe('pathnameOf', () => {
  test('agrees with new URL(url).pathname', () => {
    for (const url of [
      'http://localhost/',
      'http://localhost',
      'http://127.0.0.1:3000/api/public/videos',
      'http://h/trpc/videos.list?input=%7B%7D',
      'http://h/assets/index-abc.js#x',
      'http://h/a/../b',
      'http://h/a/./b/',
      'http://h/.hidden',
      'http://h/%2e%2e/x',
      'http://h/a b',
      'http://h/a\\b',
      'http://h/ünï',
      'http://h/media/x.mp4?v=1#t',
      'http://h:80/a//b',
    ]) {
      expect(pathnameOf(url)).toBe(new URL(url).pathname)
    }
  })

  test('agrees on random paths, queries and fragments', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9._~%/\\?#:@!$&'()*+,;= -]{0,30}$/)
    fc.assert(
      fc.property(part, part, (path, rest) => {
        const url = `http://example.test:8080/${path}${rest}`
        expect(pathnameOf(url)).toBe(new URL(url).pathname)
      }),
      { numRuns: 5000 },
    )
  })
})
