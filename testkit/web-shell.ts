// A stand-in for the built web app (WEB_DIST) in server tests: the server renders a work's page,
// its embed and a review link's page into the app's index.html, and these tests need only that
// shell, not a build.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A shell as the web app's index.html has it: a title and the root the pages are drawn into. */
export const PLAIN_SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Studio</title>
  </head>
  <body><div id="root"></div></body>
</html>`

/** A folder holding `html` as index.html, for WEB_DIST; `remove()` when done. */
export function webShell(html: string = PLAIN_SHELL): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'web-shell-'))
  writeFileSync(join(dir, 'index.html'), html)
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
