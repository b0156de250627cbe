import { describe, expect, test } from 'bun:test'
import { codecOfInit } from './first-segments.ts'

/** A box: 4-byte size, 4-byte type, then its body. */
const box = (type: string, ...body: number[][]) => {
  const inner = body.flat()
  const size = 8 + inner.length
  return [
    size >>> 24,
    (size >>> 16) & 255,
    (size >>> 8) & 255,
    size & 255,
    ...[...type].map((c) => c.charCodeAt(0)),
    ...inner,
  ]
}
const buffer = (bytes: number[]) => new Uint8Array(bytes).buffer as ArrayBuffer

describe('the codec of an init segment', () => {
  test('H.264: profile, compatibility and level from its avcC record', () => {
    // High profile (0x64), no constraints, level 3.0 (0x1e): the 360p rung as libx264 writes it.
    const init = box(
      'moov',
      box('trak', box('avc1', [0, 0, 0, 0], box('avcC', [1, 0x64, 0x00, 0x1e, 0xff]))),
    )
    expect(codecOfInit(buffer(init))).toBe('avc1.64001e')
  })

  test('AAC: the audio object type from its decoder-specific info', () => {
    // esds: ES descriptor (3), decoder config (4), decoder-specific info (5) starting 0x11 0x90:
    // object type 2 (AAC-LC), 48 kHz, stereo.
    const esds = box(
      'esds',
      [0, 0, 0, 0],
      [3, 25, 0, 1, 0],
      [4, 17, 0x40, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      [5, 2, 0x11, 0x90],
    )
    expect(codecOfInit(buffer(box('moov', box('mp4a', [0, 0, 0, 0], esds))))).toBe('mp4a.40.2')
    // HE-AAC's object type 5.
    const he = box('esds', [0, 0, 0, 0], [5, 2, 0x2b, 0x10])
    expect(codecOfInit(buffer(box('moov', box('mp4a', [0, 0, 0, 0], he))))).toBe('mp4a.40.5')
  })

  test('anything else is no codec this path plays', () => {
    expect(codecOfInit(buffer(box('moov', box('hvc1', [0, 0, 0, 0]))))).toBeNull()
    expect(codecOfInit(buffer([]))).toBeNull()
    // An avcC that is not version 1.
    expect(codecOfInit(buffer(box('avcC', [2, 0x64, 0, 0x1e])))).toBeNull()
  })
})
