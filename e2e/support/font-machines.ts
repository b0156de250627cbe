// The local fonts a visitor's machine may have, for the test of the brand faces' fallbacks. The
// stylesheet names, for each brand face, fallbacks in order: first Times New Roman / Liberation
// Serif / Georgia (Arial / Liberation Sans / Helvetica), then DejaVu for a Linux machine without
// those. One machine has one of them, so Chromium is launched twice: with this machine's fonts as
// they are, and with a fontconfig that includes this machine's own but hides every family the
// first fallbacks name, as a machine with only DejaVu would be.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../../testkit/browser.ts'

const BASE_CSS = join(import.meta.dir, '..', '..', 'web', 'src', 'base.css')

/** One `@font-face` of the stylesheet whose files are the machine's own (`local()`). */
export type LocalFace = { family: string; locals: string[] }

/** The stylesheet's fallback faces, in its order. */
export function localFaces(css = readFileSync(BASE_CSS, 'utf8')): LocalFace[] {
  const faces: LocalFace[] = []
  for (const [, body] of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const family = /font-family:\s*"([^"]+)"/.exec(body!)?.[1]
    const locals = [...body!.matchAll(/local\("([^"]+)"\)/g)].map(([, name]) => name!)
    if (family && locals.length) faces.push({ family, locals })
  }
  return faces
}

/** The local names the faces of `family` list. */
export const localsOf = (faces: LocalFace[], family: string): string[] =>
  faces.filter((f) => f.family === family).flatMap((f) => f.locals)

/**
 * A face as the renderer names it (`DejaVuSerifCondensed-Italic`) and as `local()` does (`DejaVu
 * Serif Condensed Italic`) compare equal.
 */
export const sameFace = (a: string, b: string) =>
  a.replace(/[\s-]/g, '').toLowerCase() === b.replace(/[\s-]/g, '').toLowerCase()

/**
 * Chromium on this machine's fonts, minus the families of `hidden` (full names, as `local()`
 * gives them; a regular face's full name is its family's). The fontconfig file includes the one
 * this process would use, so the rest is as the machine has it.
 */
export async function launchWithout(hidden: string[]): Promise<Browser> {
  const dir = mkdtempSync(join(tmpdir(), 'fonts-without-'))
  const file = join(dir, 'fonts.conf')
  const xml = (text: string) =>
    text.replace(/[<>&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'))
  const patterns = hidden.map(
    (family) =>
      `      <pattern><patelt name="family"><string>${xml(family)}</string></patelt></pattern>`,
  )
  writeFileSync(
    file,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
      '<fontconfig>',
      `  <include ignore_missing="no">${xml(process.env.FONTCONFIG_FILE ?? '/etc/fonts/fonts.conf')}</include>`,
      '  <selectfont>',
      '    <rejectfont>',
      ...patterns,
      '    </rejectfont>',
      '  </selectfont>',
      '</fontconfig>',
      '',
    ].join('\n'),
  )
  const browser = await launchBrowser({ FONTCONFIG_FILE: file })
  browser.on('disconnected', () => rmSync(dir, { recursive: true, force: true }))
  return browser
}

/** Which of `names` the browser finds as local fonts, as a page's `local()` would. */
export async function presentLocally(browser: Browser, names: string[]): Promise<string[]> {
  const page = await browser.newPage()
  try {
    const found = await page.evaluate(
      (names) =>
        Promise.all(
          names.map((name) =>
            new FontFace('probe', `local(${JSON.stringify(name)})`).load().then(
              () => true,
              () => false,
            ),
          ),
        ),
      names,
    )
    return names.filter((_, i) => found[i])
  } finally {
    await page.close()
  }
}
