// Screenshots for a reviewer to look at side by side: every e2e test that captures a screen
// writes it here as `<screen>-<width>-<theme>.png` (git-ignored; README names the folder).
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'

export const SCREENSHOT_DIR = join(import.meta.dir, '..', 'screenshots')

export type Theme = 'light' | 'dark'

/** Writes the page's viewport (or the whole page) as `<screen>-<width>-<theme>.png`. */
export async function saveScreenshot(
  page: Page,
  screen: string,
  opts: { theme: Theme; fullPage?: boolean },
): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const width = page.viewportSize()?.width ?? 0
  const safe = screen.replace(/[^a-z0-9-]+/gi, '-').toLowerCase()
  const path = join(SCREENSHOT_DIR, `${safe}-${width}-${opts.theme}.png`)
  // Animations finished and the caret hidden, so two runs of the same screen look the same.
  await page.screenshot({
    path,
    fullPage: opts.fullPage ?? false,
    animations: 'disabled',
    caret: 'hide',
  })
  return path
}
