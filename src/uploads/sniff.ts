// Decides a file's media type from its first bytes, never from its name or a client's claim.
// Whether that type suits a file kind is the shared rule `kindAccepts` (src/contract/file-rules.ts).
import type { MediaType } from '../contract/file-rules.ts'

/** How many leading bytes `sniff` wants; enough for an ftyp box with a dozen compatible brands. */
export const SNIFF_BYTES = 128

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, end))

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b)

// ISO base media files share the ftyp box with still images (HEIF, AVIF), audio-only M4A and
// QuickTime; only brands that mean "MP4 video a browser plays" are accepted.
// biome-ignore format: several brands per line read better than one per line
const MP4_BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9',
  'mp41', 'mp42', 'mp71', 'avc1', 'M4V ', 'M4VH', 'M4VP', 'dash', 'mmp4', 'MSNV', 'f4v ',
])
// biome-ignore format: as above
const NOT_VIDEO_BRANDS = new Set([
  'heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis',
  'M4A ', 'M4B ', 'M4P ', 'qt  ', 'crx ',
])

function sniffMp4(bytes: Uint8Array): boolean {
  if (bytes.length < 12 || ascii(bytes, 4, 8) !== 'ftyp') return false
  const boxSize = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0)
  if (boxSize < 16 || boxSize % 4 !== 0) return false
  const major = ascii(bytes, 8, 12)
  if (NOT_VIDEO_BRANDS.has(major)) return false
  if (MP4_BRANDS.has(major)) return true
  // Compatible brands follow the 4-byte minor version; only those we actually read count.
  for (let at = 16; at + 4 <= Math.min(boxSize, bytes.length); at += 4) {
    if (MP4_BRANDS.has(ascii(bytes, at, at + 4))) return true
  }
  return false
}

/** The media type whose signature `bytes` (a file's first bytes) carry, if it is one we accept. */
export function sniff(bytes: Uint8Array): MediaType | undefined {
  if (sniffMp4(bytes)) return 'video/mp4'
  // EBML header: WebM and Matroska both start with it; browsers play the codecs WebM allows.
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm'
  // "OggS" capture pattern followed by stream structure version 0.
  if (startsWith(bytes, [0x4f, 0x67, 0x67, 0x53, 0x00])) return 'video/ogg'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp'
  return undefined
}

/** Reads a file's first bytes and sniffs them. */
export async function sniffFile(path: string): Promise<MediaType | undefined> {
  const head = await Bun.file(path).slice(0, SNIFF_BYTES).bytes()
  return sniff(head)
}
