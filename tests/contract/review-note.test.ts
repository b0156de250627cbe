// How a note's time reads and is typed (src/contract/review-note.ts): the same on the review page,
// the dashboard and in the e-mail digest; and which notes a page lists beside the version it plays.
import { describe, expect, test } from 'bun:test'
import {
  notesForVersion,
  noteTime,
  parseTimecode,
  timecode,
  versionLabel,
} from '../../src/contract/review-note.ts'

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

describe('notes by version', () => {
  const on = (id: string | null, versionNumber: number, text: string) => ({
    versionId: id,
    versionNumber,
    text,
  })
  const notes = [
    on(null, 1, 'first, deleted'),
    on('v2', 2, 'second'),
    on(null, 3, 'third, deleted'),
    on('v4', 4, 'fourth'),
    on(null, 1, 'first again'),
  ]

  test('the shown version’s notes beside its player, deleted versions’ grouped by number', () => {
    const grouped = notesForVersion(notes, 4)
    expect(grouped.shown.map((n) => n.text)).toEqual(['fourth'])
    expect(grouped.deleted.map((g) => [g.number, g.notes.map((n) => n.text)])).toEqual([
      [1, ['first, deleted', 'first again']],
      [3, ['third, deleted']],
    ])
    // Another version that still exists is reached by showing it, not listed here.
    expect(notesForVersion(notes, 2).shown.map((n) => n.text)).toEqual(['second'])
  })

  test('a note’s version reads with “(deleted)” once it is gone', () => {
    expect(versionLabel(on('v2', 2, ''))).toBe('Version 2')
    expect(versionLabel(on(null, 1, ''))).toBe('Version 1 (deleted)')
  })
})
