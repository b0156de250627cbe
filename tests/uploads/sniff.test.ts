import { describe, expect, test } from 'bun:test'
import { kindAccepts } from '../../src/contract/file-rules.ts'
import { sniff, sniffFile } from '../../src/uploads/sniff.ts'
import { fixtures } from '../../testkit/media.ts'

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)),
  )

/** An ftyp box: size, 'ftyp', major brand, minor version, compatible brands. */
const ftyp = (major: string, ...compatible: string[]) => {
  const size = 16 + 4 * compatible.length
  return bytes([0, 0, 0, size], 'ftyp', major, [0, 0, 2, 0], ...compatible)
}

describe('sniff', () => {
  test('real media made by ffmpeg', async () => {
    const f = await fixtures()
    expect(await sniffFile(f.mp4)).toBe('video/mp4')
    expect(await sniffFile(f.webm)).toBe('video/webm')
    expect(await sniffFile(f.ogv)).toBe('video/ogg')
    expect(await sniffFile(f.jpg)).toBe('image/jpeg')
    expect(await sniffFile(f.png)).toBe('image/png')
    expect(await sniffFile(f.webp)).toBe('image/webp')
  })

  test('renamed text and HTML are nothing we accept', async () => {
    const f = await fixtures()
    expect(await sniffFile(f.fakeMp4)).toBeUndefined()
    expect(await sniffFile(f.fakePng)).toBeUndefined()
  })

  test('MP4 brands: video yes; HEIF, AVIF, M4A and QuickTime no', () => {
    expect(sniff(ftyp('isom', 'isom', 'avc1'))).toBe('video/mp4')
    expect(sniff(ftyp('XAVC', 'mp42'))).toBe('video/mp4')
    expect(sniff(ftyp('heic', 'mif1', 'heic'))).toBeUndefined()
    expect(sniff(ftyp('avif', 'avif', 'mif1', 'miaf'))).toBeUndefined()
    expect(sniff(ftyp('M4A ', 'M4A ', 'mp42', 'isom'))).toBeUndefined()
    expect(sniff(ftyp('qt  ', 'qt  '))).toBeUndefined()
    expect(sniff(ftyp('abcd', 'efgh'))).toBeUndefined()
  })

  test('a broken ftyp size or truncated header is refused', () => {
    const box = ftyp('isom')
    box[3] = 7
    expect(sniff(box)).toBeUndefined()
    expect(sniff(bytes([0, 0, 0, 24], 'ftyp'))).toBeUndefined()
    expect(sniff(new Uint8Array())).toBeUndefined()
  })

  test('other signatures', () => {
    expect(sniff(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]))).toBe('video/webm')
    expect(sniff(bytes('OggS', [0, 2]))).toBe('video/ogg')
    expect(sniff(bytes('OggS', [1]))).toBeUndefined()
    expect(sniff(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg')
    expect(sniff(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('image/webp')
    expect(sniff(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toBeUndefined()
    expect(sniff(bytes('GIF89a'))).toBeUndefined()
  })

  test('kinds accept only their family', () => {
    expect(kindAccepts('video', 'video/webm')).toBe(true)
    expect(kindAccepts('video', 'image/png')).toBe(false)
    expect(kindAccepts('thumbnail', 'image/webp')).toBe(true)
    expect(kindAccepts('brandLogo', 'video/mp4')).toBe(false)
    expect(kindAccepts('thumbnail', undefined)).toBe(false)
  })
})
