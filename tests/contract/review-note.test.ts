// How a note's time reads and is typed (src/contract/review-note.ts): the same on the review page,
// the dashboard and in the e-mail digest.
import { expect, test } from 'bun:test'
import { noteTime, parseTimecode, timecode } from '../../src/contract/review-note.ts'

test('times read as m:ss, or h:mm:ss past an hour, whole seconds down', () => {
  expect([0, 0.9, 42.5, 60, 599.99, 3600, 3725].map(timecode)).toEqual([
    '0:00',
    '0:00',
    '0:42',
    '1:00',
    '9:59',
    '1:00:00',
    '1:02:05',
  ])
  expect(noteTime({ at: 42, until: null })).toBe('0:42')
  expect(noteTime({ at: 42, until: 50.4 })).toBe('0:42–0:50')
})

test('typed times: m:ss, h:mm:ss or seconds; anything else is no time', () => {
  expect(['0:42', '1:02:05', '42.5', ' 3 ', '0:07.5', '12:00'].map(parseTimecode)).toEqual([
    42, 3725, 42.5, 3, 7.5, 720,
  ])
  for (const bad of ['', 'soon', '0:60', '1:60:00', '-3', '1:2:3:4', '0x10', '1e3']) {
    expect([bad, parseTimecode(bad)]).toEqual([bad, null])
  }
})
