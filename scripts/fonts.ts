// Writes the page's three faces into web/src/fonts/ from Fontsource's latin files (devDependencies),
// cut to what the site draws: every character those files draw (any text an admin types in a
// Western European language keeps its face), the OpenType features a browser applies by
// itself plus `tnum` (the dashboard's `tabular-nums`), Inter's weight axis narrowed to 400–700
// (the page uses 400, 500 and 600; `<strong>` asks for 700), and no hinting instructions, which
// browsers ignore outside Windows' smallest sizes. About 40% fewer bytes before the first paint.
// The results are committed; run `bun scripts/fonts.ts` again after changing any rule here.
/// <reference path="./font-tools.d.ts" />
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fontverter from 'fontverter'
import * as hb from 'harfbuzzjs'
import subsetFont from 'subset-font'

const ROOT = join(import.meta.dir, '..')
export const FONTS_DIR = join(ROOT, 'web', 'src', 'fonts')

/** Features browsers turn on by themselves, and `tnum` for `font-variant-numeric: tabular-nums`. */
export const KEPT_FEATURES = [
  'ccmp',
  'locl',
  'rlig',
  'liga',
  'clig',
  'calt',
  'rvrn',
  'kern',
  'mark',
  'mkmk',
  'tnum',
]

/** Inter's weights from lightest to heaviest the page may ask for (styles.css says the same). */
export const INTER_WEIGHTS = { min: 400, max: 700 } as const

type Face = { file: string; source: string; axes?: Record<string, { min: number; max: number }> }

export const FACES: readonly Face[] = [
  {
    file: 'inter-latin-wght-normal.woff2',
    source: '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
    axes: { wght: INTER_WEIGHTS },
  },
  {
    file: 'instrument-serif-latin-400-normal.woff2',
    source: '@fontsource/instrument-serif/files/instrument-serif-latin-400-normal.woff2',
  },
  {
    file: 'instrument-serif-latin-400-italic.woff2',
    source: '@fontsource/instrument-serif/files/instrument-serif-latin-400-italic.woff2',
  },
]

/**
 * A woff2 file's face, for reading its tables (harfbuzz reads SFNT only). One at a time: the
 * decoder answers a view of its own memory, which the next decode overwrites.
 */
export async function openFace(bytes: Uint8Array) {
  const sfnt = await fontverter.convert(Buffer.from(bytes), 'sfnt')
  const blob = new hb.Blob(new Uint8Array(sfnt))
  // The face reads from the blob's memory: keep the blob reachable as long as the face.
  return { face: new hb.Face(blob), blob }
}

/** Every character the face draws, as text. */
export async function charactersOf(bytes: Uint8Array): Promise<string> {
  const { face } = await openFace(bytes)
  return String.fromCodePoint(...face.collectUnicodes())
}

/** One face as the page serves it. */
export async function makeFace(face: Face): Promise<Uint8Array> {
  const source = await Bun.file(Bun.resolveSync(face.source, ROOT)).bytes()
  const out = await subsetFont(Buffer.from(source), await charactersOf(source), {
    targetFormat: 'woff2',
    keepFeatures: KEPT_FEATURES,
    noHinting: true,
    ...(face.axes ? { variationAxes: face.axes } : {}),
  })
  return new Uint8Array(out)
}

if (import.meta.main) {
  for (const face of FACES) {
    const bytes = await makeFace(face)
    writeFileSync(join(FONTS_DIR, face.file), bytes)
    console.log(`${face.file}: ${(bytes.length / 1024).toFixed(1)} KiB`)
  }
}
