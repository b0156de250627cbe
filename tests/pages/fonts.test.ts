// The page's faces (docs/decisions/016-fonts-preloaded-hashed-font-display-optional.md's fonts, cut
// down by docs/decisions/054-fonts-cut-to-what-the-page-draws.md): what is committed is what
// scripts/fonts.ts makes, and the cut loses nothing the page draws. Each face is a core file
// (English text, preloaded everywhere) and an ext file (the rest of Fontsource's latin set);
// between them they draw every character of the latin file, the weights the page asks for stay on
// the axis, and the features a browser applies by itself, plus tabular numbers, remain.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  FACES,
  FACES_CSS,
  FONTS_DIR,
  fileOf,
  INTER_WEIGHTS,
  makeFacesCss,
  makeFile,
  openFace,
  PARTS,
  sourceOf,
} from '../../scripts/fonts.ts'
import { CORE_CHARACTERS, drawsExtended } from '../../web/src/fonts/subsets.ts'

const ROOT = join(import.meta.dir, '..', '..')

const committed = (file: string) => new Uint8Array(readFileSync(join(FONTS_DIR, file)))
const codes = async (bytes: Uint8Array) => [...(await openFace(bytes)).face.collectUnicodes()]

describe.each(FACES.map((face) => [face.name, face] as const))('%s', (_name, face) => {
  test('its core and ext files are exactly what scripts/fonts.ts makes', async () => {
    for (const part of PARTS) {
      const file = fileOf(face, part)
      expect({
        file,
        same: Buffer.from(committed(file)).equals(await makeFile(face, part)),
      }).toEqual({ file, same: true })
    }
  })

  test('the two draw every character of the full latin file; the core only English text', async () => {
    const core = await codes(committed(fileOf(face, 'core')))
    const ext = await codes(committed(fileOf(face, 'ext')))
    const full = await codes(await sourceOf(face))
    expect([...core, ...ext].sort((a, b) => a - b)).toEqual([...full].sort((a, b) => a - b))
    const english = new Set([...CORE_CHARACTERS].map((c) => c.codePointAt(0)))
    expect(core.filter((code) => !english.has(code))).toEqual([])
    // What the server looks for before preloading the ext files is what they draw.
    expect(core.filter((code) => drawsExtended(String.fromCodePoint(code)))).toEqual([])
    expect(
      ext.filter((code) => code >= 0x20 && !drawsExtended(String.fromCodePoint(code))),
    ).toEqual([])
  })

  test('keeps kerning, contextual forms and tabular numbers where the full file has them', async () => {
    const full = await openFace(await sourceOf(face))
    const had = (table: 'GSUB' | 'GPOS') => new Set(full.face.getTableFeatureTags(table))
    const hadTags = { GSUB: had('GSUB'), GPOS: had('GPOS') }
    const core = await openFace(committed(fileOf(face, 'core')))
    for (const table of ['GSUB', 'GPOS'] as const) {
      const kept = new Set(core.face.getTableFeatureTags(table))
      for (const feature of ['kern', 'calt', 'liga', 'locl', 'tnum'])
        if (hadTags[table].has(feature))
          expect({ feature, kept: kept.has(feature) }).toEqual({ feature, kept: true })
    }
    // Accented letters kern against each other too.
    const ext = await openFace(committed(fileOf(face, 'ext')))
    if (hadTags.GPOS.has('kern')) expect(ext.face.getTableFeatureTags('GPOS')).toContain('kern')
  })
})

test('the three cores draw the first screen in under half the bytes of the full files', async () => {
  const cores = FACES.reduce((sum, face) => sum + committed(fileOf(face, 'core')).length, 0)
  const sources = await Promise.all(FACES.map(sourceOf))
  const full = sources.reduce((sum, bytes) => sum + bytes.length, 0)
  expect(cores).toBeLessThan(full * 0.5)
})

test('faces.css is what scripts/fonts.ts makes: each file with exactly the characters it draws', async () => {
  const css = readFileSync(join(FONTS_DIR, FACES_CSS), 'utf8')
  expect(css).toBe(await makeFacesCss())
  expect(css.match(/@font-face/g)?.length).toBe(FACES.length * PARTS.length)
  expect(readFileSync(join(ROOT, 'web', 'src', 'base.css'), 'utf8')).toContain(
    `@import "./fonts/${FACES_CSS}";`,
  )
})

test("Inter's weight axis spans what faces.css declares, in both files", async () => {
  const inter = FACES.find((face) => face.axes?.wght)!
  for (const part of PARTS) {
    const axes = (await openFace(committed(fileOf(inter, part)))).face.getAxisInfos()
    expect({ min: axes.wght?.min, max: axes.wght?.max }).toEqual(INTER_WEIGHTS)
  }
  const css = readFileSync(join(FONTS_DIR, FACES_CSS), 'utf8')
  const weights = [...css.matchAll(/font-family: "Inter Variable";[^}]*font-weight: (\d+) (\d+);/g)]
  expect(weights.map((m) => m.slice(1).map(Number))).toEqual(
    PARTS.map(() => [INTER_WEIGHTS.min, INTER_WEIGHTS.max]),
  )
})
