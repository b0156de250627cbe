import { describe, expect, test } from 'bun:test'
import { abbreviateCount, formatBytes, formatDate, formatDuration, formatRate } from './format.ts'

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

describe('formatBytes', () => {
  test('bytes below 1 KB', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1)).toBe('1 B')
    expect(formatBytes(1023)).toBe('1023 B')
  })
  test('KB: one decimal below 10 KB, whole from there; a 40 KB logo is "40 KB", not "0.04 MB"', () => {
    expect(formatBytes(1024)).toBe('1 KB')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(9.94 * 1024)).toBe('9.9 KB')
    expect(formatBytes(40 * 1024)).toBe('40 KB')
    expect(formatBytes(40_000)).toBe('39 KB')
    expect(formatBytes(1023 * 1024)).toBe('1023 KB')
  })
  test('never "1024 KB" or "1024.00 MB": the next unit instead', () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.00 MB')
    expect(formatBytes(1024 ** 3 - 1)).toBe('1.00 GB')
  })
  test('MB with two decimals, as the previews show (docs/dashboard.md)', () => {
    expect(formatBytes(1024 * 1024)).toBe('1.00 MB')
    expect(formatBytes(1024 * 1024 * 1.5)).toBe('1.50 MB')
    expect(formatBytes(24 * 1024 * 1024 + 5000)).toBe('24.00 MB')
    expect(formatBytes(10 * 1024 * 1024)).toBe('10.00 MB')
  })
  test('GB from 1 GiB; the 2 GB limit reads 2.00 GB', () => {
    expect(formatBytes(1024 ** 3)).toBe('1.00 GB')
    expect(formatBytes(2 * 1024 ** 3)).toBe('2.00 GB')
  })
  test('nonsense reads 0 B', () => {
    expect(formatBytes(Number.NaN)).toBe('0 B')
    expect(formatBytes(-5)).toBe('0 B')
  })
})

test('formatRate', () => {
  expect(formatRate(3.2 * 1024 * 1024)).toBe('3.20 MB/s')
  expect(formatRate(850 * 1024)).toBe('850 KB/s')
})

describe('formatDuration', () => {
  test('seconds, at least 1', () => {
    expect(formatDuration(0)).toBe('1 s')
    expect(formatDuration(8.4)).toBe('8 s')
    expect(formatDuration(59.4)).toBe('59 s')
  })
  test('minutes and seconds below 10 minutes, whole minutes from there', () => {
    expect(formatDuration(60)).toBe('1 min')
    expect(formatDuration(65)).toBe('1 min 5 s')
    expect(formatDuration(599)).toBe('9 min 59 s')
    expect(formatDuration(600)).toBe('10 min')
    expect(formatDuration(12 * 60 + 29)).toBe('12 min')
  })
  test('hours and minutes', () => {
    expect(formatDuration(3600)).toBe('1 h')
    expect(formatDuration(2 * 3600 + 5 * 60)).toBe('2 h 5 min')
    expect(formatDuration(59 * 60 + 40)).toBe('1 h')
  })
  test('unknown reads empty', () => {
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('')
    expect(formatDuration(-1)).toBe('')
  })
})
