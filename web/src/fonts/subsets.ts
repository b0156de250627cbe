// Each face is two files (scripts/fonts.ts cuts them): the core, which draws English text and is
// preloaded on every page, and the rest of Fontsource's latin set (accented letters, rarer
// punctuation), which a page preloads only when its text has one of them (public/server.tsx).
// The core is kept under the 14 KB a new connection delivers in its first round trip, where
// the face allows, so the first screen's fonts do not wait on one another for bandwidth.

/** What the core files draw besides printable ASCII: the punctuation of typeset English. */
const CORE_EXTRAS = '\u00a0©®·×–—‘’“”•…€™'

/** The characters of every core file (those the face has). */
export const CORE_CHARACTERS =
  String.fromCharCode(...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i)) + CORE_EXTRAS

/** Fontsource's latin range: what the three source files draw lies inside it. */
export const LATIN_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x00ff],
  [0x0102, 0x0102], // Ă: Instrument Serif's latin file draws it too
  [0x0131, 0x0131],
  [0x0152, 0x0153],
  [0x02bb, 0x02bc],
  [0x02c6, 0x02c6],
  [0x02da, 0x02da],
  [0x02dc, 0x02dc],
  // Fontsource names three combining marks; the files draw a few more of the block.
  [0x0300, 0x036f],
  [0x2000, 0x206f],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
  [0x2191, 0x2191],
  [0x2193, 0x2193],
  [0x2212, 0x2212],
  [0x2215, 0x2215],
  [0xfeff, 0xfeff],
  [0xfffd, 0xfffd],
]

const core = new Set([...CORE_CHARACTERS].map((c) => c.codePointAt(0)))

/** Whether `text` has a character only the second files draw (control characters are not drawn). */
export function drawsExtended(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (code < 0x20 || code === 0x7f || core.has(code)) continue
    if (LATIN_RANGES.some(([from, to]) => code >= from && code <= to)) return true
  }
  return false
}
