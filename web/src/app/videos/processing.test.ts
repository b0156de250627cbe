import { describe, expect, test } from 'bun:test'
import type { Video } from '../../api.ts'
import { anyInProgress, formatDuration } from './processing.ts'

const video = (status: Video['status']) => ({ status })

describe('anyInProgress', () => {
  test('is true while a video is queued or processing, false once all are done', () => {
    expect(anyInProgress([video('ready'), video('queued')])).toBe(true)
    expect(anyInProgress([video('processing')])).toBe(true)
    expect(anyInProgress([video('ready'), video('failed')])).toBe(false)
    expect(anyInProgress([])).toBe(false)
  })
})

describe('formatDuration', () => {
  test('minutes and seconds, hours when there are any', () => {
    expect(formatDuration(0)).toBe('0:00')
    expect(formatDuration(41.6)).toBe('0:42')
    expect(formatDuration(725)).toBe('12:05')
    expect(formatDuration(3723)).toBe('1:02:03')
  })
})
