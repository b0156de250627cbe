// Writes the page's three faces into web/src/fonts/ from Fontsource's latin files (devDependencies),
// each as two files (web/src/fonts/subsets.ts): a core that draws English text, preloaded on every
// page, and the rest of the latin set, fetched when a page has one of those characters. Both are
// cut to what the site draws: the OpenType features a browser applies by itself plus `tnum` (the
// dashboard's `tabular-nums`), Inter's weight axis narrowed to 400–700 (the page uses 400, 500
// and 600; `<strong>` asks for 700), and no hinting instructions, which browsers ignore outside
// Windows' smallest sizes. It also writes faces.css, the @font-face rules that name each file
// with the characters it draws. The results are committed; run `bun scripts/fonts.ts` again
// after changing any rule here or in subsets.ts.
/// <reference path="./font-tools.d.ts" />
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fontverter from 'fontverter'
import * as hb from 'harfbuzzjs'
import subsetFont from 'subset-font'
import { CORE_CHARACTERS } from '../web/src/fonts/subsets.ts'

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

/** Inter's weights from lightest to heaviest the page may ask for (faces.css says the same). */
export const INTER_WEIGHTS = { min: 400, max: 700 } as const

type Face = {
  /** The files' names: `<name>-core.woff2` and `<name>-ext.woff2`. */
  name: string
  family: string
  style: 'normal' | 'italic'
  weight: string
  source: string
  axes?: Record<string, { min: number; max: number }>
}

export const FACES: readonly Face[] = [
  {
    name: 'inter-wght-normal',
    family: 'Inter Variable',
    style: 'normal',
    weight: `${INTER_WEIGHTS.min} ${INTER_WEIGHTS.max}`,
    source: '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
    axes: { wght: INTER_WEIGHTS },
  },
  {
    name: 'instrument-serif-400-normal',
    family: 'Instrument Serif',
    style: 'normal',
    weight: '400',
    source: '@fontsource/instrument-serif/files/instrument-serif-latin-400-normal.woff2',
  },
  {
    name: 'instrument-serif-400-italic',
    family: 'Instrument Serif',
    style: 'italic',
    weight: '400',
    source: '@fontsource/instrument-serif/files/instrument-serif-latin-400-italic.woff2',
  },
]

export const PARTS = ['core', 'ext'] as const
export type Part = (typeof PARTS)[number]

export const fileOf = (face: Face, part: Part) => `${face.name}-${part}.woff2`
export const FACES_CSS = 'faces.css'

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

export const sourceOf = (face: Face) => Bun.file(Bun.resolveSync(face.source, ROOT)).bytes()

type Cut = { source: Uint8Array } & Record<Part, string>
const cuts = new Map<Face, Promise<Cut>>()

/** `face`'s source and its characters split between the parts: read and decoded once per face. */
function cutOf(face: Face): Promise<Cut> {
  let cut = cuts.get(face)
  if (!cut) {
    cut = (async () => {
      const source = await sourceOf(face)
      const core = new Set(CORE_CHARACTERS)
      const all = [...(await charactersOf(source))]
      return {
        source,
        core: all.filter((char) => core.has(char)).join(''),
        ext: all.filter((char) => !core.has(char)).join(''),
      }
    })()
    cuts.set(face, cut)
  }
  return cut
}

/** One file as the page serves it. */
export async function makeFile(face: Face, part: Part): Promise<Uint8Array> {
  const cut = await cutOf(face)
  const out = await subsetFont(Buffer.from(cut.source), cut[part], {
    targetFormat: 'woff2',
    keepFeatures: KEPT_FEATURES,
    noHinting: true,
    ...(face.axes ? { variationAxes: face.axes } : {}),
  })
  return new Uint8Array(out)
}

/** `unicode-range`'s value for exactly these characters. */
export function unicodeRange(characters: string): string {
  const codes = [...new Set([...characters].map((c) => c.codePointAt(0)!))].sort((a, b) => a - b)
  const hex = (code: number) => code.toString(16).toUpperCase().padStart(4, '0')
  const ranges: string[] = []
  for (let i = 0; i < codes.length; ) {
    let j = i
    while (j + 1 < codes.length && codes[j + 1] === codes[j]! + 1) j++
    ranges.push(i === j ? `U+${hex(codes[i]!)}` : `U+${hex(codes[i]!)}-${hex(codes[j]!)}`)
    i = j + 1
  }
  return ranges.join(', ')
}

/** The @font-face rules for the six files (web/src/base.css imports them). */
export async function makeFacesCss(): Promise<string> {
  const rules: string[] = []
  for (const face of FACES) {
    for (const part of PARTS) {
      rules.push(`@font-face {
  font-family: "${face.family}";
  font-style: ${face.style};
  font-weight: ${face.weight};
  font-display: optional;
  src: url("./${fileOf(face, part)}") format("woff2");
  unicode-range: ${unicodeRange((await cutOf(face))[part])};
}`)
    }
  }
  return `/* Made by scripts/fonts.ts: do not edit. Each face's core file draws English text and is
   preloaded; its ext file draws the rest of the latin set, fetched only for a page that has one
   of those characters (web/src/fonts/subsets.ts). */
${rules.join('\n')}
`
}

if (import.meta.main) {
  for (const face of FACES) {
    for (const part of PARTS) {
      const bytes = await makeFile(face, part)
      writeFileSync(join(FONTS_DIR, fileOf(face, part)), bytes)
      console.log(`${fileOf(face, part)}: ${(bytes.length / 1024).toFixed(1)} KiB`)
    }
  }
  writeFileSync(join(FONTS_DIR, FACES_CSS), await makeFacesCss())
}
