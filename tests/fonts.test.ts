// The page's faces (issue 15's fonts, cut down for issue 16's first paint): what is committed is
// what scripts/fonts.ts makes, and the cut loses nothing the page draws. Every character of
// Fontsource's latin files keeps its glyph, the weights the page asks for stay on the axis, and
// the features a browser applies by itself, plus tabular numbers, remain.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FACES, FONTS_DIR, INTER_WEIGHTS, makeFace, openFace } from '../scripts/fonts.ts'

const ROOT = join(import.meta.dir, '..')

const committed = (file: string) => new Uint8Array(readFileSync(join(FONTS_DIR, file)))
const source = (face: (typeof FACES)[number]) =>
  new Uint8Array(readFileSync(Bun.resolveSync(face.source, ROOT)))

describe.each(FACES.map((face) => [face.file, face] as const))('%s', (_file, face) => {
  test('is exactly what scripts/fonts.ts makes', async () => {
    expect(Buffer.from(committed(face.file)).equals(Buffer.from(await makeFace(face)))).toBe(true)
  })

  test('draws every character the full latin file draws, in fewer bytes', async () => {
    const cut = await openFace(committed(face.file))
    const full = await openFace(source(face))
    const characters = (opened: typeof cut) => [...opened.face.collectUnicodes()]
    expect(characters(cut)).toEqual(characters(full))
    expect(committed(face.file).length).toBeLessThan(source(face).length * 0.8)
  })

  test('keeps kerning, contextual forms and tabular numbers where the full file has them', async () => {
    const cut = await openFace(committed(face.file))
    const full = await openFace(source(face))
    for (const table of ['GSUB', 'GPOS'] as const) {
      const had = new Set(full.face.getTableFeatureTags(table))
      const kept = new Set(cut.face.getTableFeatureTags(table))
      for (const feature of ['kern', 'calt', 'liga', 'locl', 'tnum'])
        if (had.has(feature)) expect(kept.has(feature)).toBe(true)
    }
  })
})

test("Inter's weight axis spans what the stylesheet declares", async () => {
  const inter = FACES.find((face) => face.axes?.wght)!
  const axes = (await openFace(committed(inter.file))).face.getAxisInfos()
  expect({ min: axes.wght?.min, max: axes.wght?.max }).toEqual(INTER_WEIGHTS)
  const css = readFileSync(join(ROOT, 'web', 'src', 'styles.css'), 'utf8')
  const rule = css.match(/font-family: "Inter Variable";[^}]*font-weight: (\d+) (\d+);/)
  expect(rule?.slice(1).map(Number)).toEqual([INTER_WEIGHTS.min, INTER_WEIGHTS.max])
})
