// A built server seeded with sample works, processed (testkit/ready.ts: visitors see a work once
// its streams exist), and a Chromium to visit it: the setup of the browser tests that look at the
// public page as a visitor finds it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launchBrowser } from '../../testkit/browser.ts'
import { readyServerWorks } from '../../testkit/ready.ts'
import { makeSampleMedia, seedVideos } from '../../testkit/sample-videos.ts'
import { type E2EServer, startServer } from '../../testkit/server.ts'

export type Seeded = {
  server: E2EServer
  browser: Awaited<ReturnType<typeof launchBrowser>>
  token: string
  stop: () => Promise<void>
}

export async function startSeeded(works: number, env?: Record<string, string>): Promise<Seeded> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'seeded-e2e-'))
  const [server, samples] = await Promise.all([startServer(env), makeSampleMedia(mediaDir, works)])
  const { token } = await server.apiLogin()
  await seedVideos(server.url, token, samples)
  await readyServerWorks(server)
  const browser = await launchBrowser()
  return {
    server,
    browser,
    token,
    stop: async () => {
      await browser.close()
      await server.stop()
      rmSync(mediaDir, { recursive: true, force: true })
    },
  }
}
