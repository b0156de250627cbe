import { describe, expect, test } from 'bun:test'
import { abbreviateCount, formatDate, formatMB } from './format.ts'

describe('abbreviateCount', () => {
  test('plain below 1,000', () => {
    expect(abbreviateCount(0)).toBe('0')
    expect(abbreviateCount(7)).toBe('7')
    expect(abbreviateCount(999)).toBe('999')
  })
  test('K from 1,000 with one decimal', () => {
    expect(abbreviateCount(1000)).toBe('1.0K')
    expect(abbreviateCount(1500)).toBe('1.5K')
    expect(abbreviateCount(12_345)).toBe('12.3K')
    expect(abbreviateCount(999_949)).toBe('999.9K')
  })
  test('M from 1,000,000 with one decimal, never "1000.0K"', () => {
    expect(abbreviateCount(999_950)).toBe('1.0M')
    expect(abbreviateCount(1_000_000)).toBe('1.0M')
    expect(abbreviateCount(2_345_678)).toBe('2.3M')
  })
  test('non-finite reads 0', () => {
    expect(abbreviateCount(Number.NaN)).toBe('0')
  })
})

describe('formatDate', () => {
  test('en-US, short month, 2-digit hour and minute', () => {
    expect(formatDate('2024-03-05T14:07:00Z', 'UTC')).toBe('Mar 5, 2024, 02:07 PM')
    expect(formatDate(new Date(Date.UTC(2023, 11, 31, 0, 5)), 'UTC')).toBe('Dec 31, 2023, 12:05 AM')
  })
  test("'N/A' when missing or invalid", () => {
    expect(formatDate(undefined)).toBe('N/A')
    expect(formatDate(null)).toBe('N/A')
    expect(formatDate('')).toBe('N/A')
    expect(formatDate('not a date')).toBe('N/A')
  })
})

test('formatMB', () => {
  expect(formatMB(1024 * 1024 * 1.5)).toBe('1.50 MB')
})
