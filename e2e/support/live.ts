// Holding back the public page's React, so a test sees what the page's first script does before
// the page is live.
import type { Page } from 'playwright-core'

/** React's chunk answers `ms` late; `arrived` is told when it goes on its way. */
export async function holdBackReact(page: Page, ms: number, arrived?: () => void): Promise<void> {
  await page.route(/\/assets\/mount-[^/]+\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms))
    arrived?.()
    await route.continue()
  })
}
