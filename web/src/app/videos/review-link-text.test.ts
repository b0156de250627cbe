import { describe, expect, test } from 'bun:test'
import { reviewLinkLimits } from '@contract/review-link.ts'
import {
  dayRange,
  dayValue,
  endOfDay,
  expiryText,
  lastOpenedText,
  openCountText,
} from './review-link-text.ts'
import { shareFormSchema, toCreateInput } from './share-form-schema.ts'

const UTC = 'UTC'

describe('expiryText', () => {
  test('an active link names its end, or that it has none', () => {
    expect(expiryText({ state: 'active', expiresAt: '2026-12-24T22:59:59.999Z' }, UTC)).toBe(
      'Expires Dec 24, 2026, 10:59 PM',
    )
    expect(expiryText({ state: 'active', expiresAt: null }, UTC)).toBe('Never expires')
  })
  test('a link that no longer opens says why, whatever its date', () => {
    expect(expiryText({ state: 'expired', expiresAt: '2026-01-01T00:00:00Z' })).toBe('Expired')
    expect(expiryText({ state: 'revoked', expiresAt: null })).toBe('Revoked')
    expect(expiryText({ state: 'revoked', expiresAt: '2020-01-01T00:00:00Z' })).toBe('Revoked')
  })
})

describe('lastOpenedText', () => {
  const now = new Date('2026-11-27T12:00:00Z')
  test('never, recent in words, older as a date', () => {
    expect(lastOpenedText(null, now)).toBe('Never opened')
    expect(lastOpenedText('2026-11-27T11:59:30Z', now)).toBe('Last opened just now')
    // A server clock a little ahead of the browser's.
    expect(lastOpenedText('2026-11-27T12:00:05Z', now)).toBe('Last opened just now')
    expect(lastOpenedText('2026-11-27T11:55:00Z', now)).toBe('Last opened 5 min ago')
    expect(lastOpenedText('2026-11-27T09:10:00Z', now)).toBe('Last opened 2 h ago')
    expect(lastOpenedText('2026-11-25T08:30:00Z', now, UTC)).toBe(
      'Last opened Nov 25, 2026, 08:30 AM',
    )
  })
})

test('openCountText counts in words', () => {
  expect(openCountText(1)).toBe('Opened 1 time')
  expect(openCountText(0)).toBe('Opened 0 times')
  expect(openCountText(12)).toBe('Opened 12 times')
})

describe('days', () => {
  test('endOfDay is the last moment of that local day; no day for anything else', () => {
    const end = endOfDay('2026-12-24')
    expect(end?.getFullYear()).toBe(2026)
    expect(end?.getMonth()).toBe(11)
    expect(end?.getDate()).toBe(24)
    expect([end?.getHours(), end?.getMinutes(), end?.getSeconds()]).toEqual([23, 59, 59])
    expect(endOfDay('2026-02-31')).toBeNull()
    expect(endOfDay('')).toBeNull()
    expect(endOfDay('24/12/2026')).toBeNull()
  })
  test('dayRange offers today through the last day in reach', () => {
    const now = new Date(2026, 10, 27, 15, 0)
    expect(dayRange(now, 366)).toEqual({ min: '2026-11-27', max: '2027-11-27' })
    expect(dayValue(new Date(2027, 0, 5))).toBe('2027-01-05')
  })
})

describe('the share form', () => {
  const now = new Date(2026, 10, 27, 15, 0)
  const schema = shareFormSchema(() => now)
  const form = { expiry: '7d', day: '', password: '', note: '' } as const

  test('defaults make a link for 7 days with no password and no note', () => {
    const parsed = schema.parse(form)
    expect(toCreateInput('v1', parsed, now)).toEqual({
      videoId: 'v1',
      expiresAt: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
      password: null,
      note: null,
    })
  })
  test('never, a password and a trimmed note', () => {
    const parsed = schema.parse({ ...form, expiry: 'never', password: 'open sesame', note: ' v3 ' })
    expect(toCreateInput('v1', parsed, now)).toEqual({
      videoId: 'v1',
      expiresAt: null,
      password: 'open sesame',
      note: 'v3',
    })
  })
  test('a chosen day lasts until it ends', () => {
    const parsed = schema.parse({ ...form, expiry: 'date', day: '2026-12-24' })
    expect(toCreateInput('v1', parsed, now).expiresAt).toBe(
      new Date(2026, 11, 24, 23, 59, 59, 999).toISOString(),
    )
  })
  const errorOf = (input: object) => {
    const result = schema.safeParse({ ...form, ...input })
    return result.success ? null : result.error.issues.map((i) => [i.path.join('.'), i.message])
  }
  test('the day is asked for, and held to today … the furthest day', () => {
    expect(errorOf({ expiry: 'date' })).toEqual([['day', 'Choose the last day the link works']])
    expect(errorOf({ expiry: 'date', day: '2026-11-26' })).toEqual([
      ['day', 'Choose today or a later day'],
    ])
    expect(errorOf({ expiry: 'date', day: '2026-11-27' })).toBeNull()
    expect(errorOf({ expiry: 'date', day: dayRange(now, reviewLinkLimits.maxDays).max })).toBeNull()
    expect(errorOf({ expiry: 'date', day: '2028-01-01' })).toEqual([
      ['day', `Choose a day at most ${reviewLinkLimits.maxDays} days ahead`],
    ])
    // A day typed earlier does not matter once another choice is made.
    expect(errorOf({ expiry: '30d', day: '2020-01-01' })).toBeNull()
  })
  test('password and note follow the shared limits', () => {
    expect(errorOf({ password: 'abc' })).toEqual([
      ['password', `Password must be at least ${reviewLinkLimits.passwordMin} characters`],
    ])
    expect(errorOf({ note: 'x'.repeat(reviewLinkLimits.noteMax + 1) })).toEqual([
      ['note', `Note must be at most ${reviewLinkLimits.noteMax} characters`],
    ])
  })
})
