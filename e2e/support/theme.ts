// The dashboard's stored theme choice ('theme-storage'), set before any page script runs, so a
// page opens in that theme as it would for a visitor who chose it earlier.
import type { BrowserContext } from 'playwright-core'
import type { Theme } from './screenshots.ts'

export async function storeTheme(context: BrowserContext, theme: Theme): Promise<void> {
  await context.addInitScript(
    (value) => {
      // A new tab starts on about:blank, which has no storage (reading it throws there).
      if (location.protocol.startsWith('http')) localStorage.setItem('theme-storage', value)
    },
    JSON.stringify({ state: { isDarkMode: theme === 'dark' }, version: 0 }),
  )
}
