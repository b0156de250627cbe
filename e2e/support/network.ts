// Network and cache observation through the DevTools protocol: the throttled profiles the
// performance targets are stated for, and which responses really came over the network.
import type { CDPSession, Page } from 'playwright-core'

/** Lighthouse's desktop profile (docs/performance.md): 30 Mbps down, 15 up, 40 ms round trip. */
export const DESKTOP_PROFILE = { downloadMbps: 30, uploadMbps: 15, latencyMs: 40 }

export async function throttle(
  page: Page,
  profile: { downloadMbps: number; uploadMbps: number; latencyMs: number } = DESKTOP_PROFILE,
): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: (profile.downloadMbps * 1_000_000) / 8,
    uploadThroughput: (profile.uploadMbps * 1_000_000) / 8,
  })
  return cdp
}

export type ResponseSource = { url: string; fromCache: boolean; status: number; mimeType: string }

/**
 * Every response the page receives from now on, with whether it came from the browser's memory
 * or disk cache rather than the network (CDP's view; a 304 counts as the network).
 */
export function recordResponses(cdp: CDPSession): ResponseSource[] {
  const seen: ResponseSource[] = []
  const cached = new Set<string>()
  cdp.on('Network.requestServedFromCache', (event) => cached.add(event.requestId))
  cdp.on('Network.responseReceived', (event) => {
    const { response } = event
    seen.push({
      url: response.url,
      status: response.status,
      mimeType: response.mimeType,
      fromCache:
        cached.has(event.requestId) ||
        Boolean(response.fromDiskCache) ||
        Boolean(response.fromPrefetchCache) ||
        Boolean((response as { fromMemoryCache?: boolean }).fromMemoryCache),
    })
  })
  return seen
}
