// Debian's Chromium through playwright-core (no browser downloads here), for the browser tests and
// the benchmarks that play the public page (bench/playback). The browser tests open their pages
// through e2e/support/browser.ts, which checks the console.
import { type Browser, chromium } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** `env` is added to this process's environment for the browser (e.g. its FONTCONFIG_FILE). */
export async function launchBrowser(env: Record<string, string> = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: { ...process.env, ...env },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
      // Playback starts from a click in these tests; a busy machine must not turn that into a
      // refused autoplay.
      '--autoplay-policy=no-user-gesture-required',
    ],
  })
}
