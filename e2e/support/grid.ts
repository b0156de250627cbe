// The public page's grid of works, as browser tests wait for it.
import type { Page } from 'playwright-core'

/** Waits until the grid has its works (or knows it has none): `aria-busy` is false. */
export async function gridSettled(page: Page): Promise<void> {
  await page.locator('[data-testid="work-grid"][aria-busy="false"]').waitFor({ state: 'attached' })
}
