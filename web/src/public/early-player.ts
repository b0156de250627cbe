// A tile pressed before the page's React is live gets its stream at the press, as a live tile's
// own press handler does (WorkTile's `prepare`). A visitor who taps at once would otherwise wait
// for React to load and hydrate before the click held until then attaches anything; now the
// stream opens, hls.js attaches on arrival and the first segments are appended while React is
// still hydrating, and the click only has to play. The tile claims the stream when its click (or a
// later press) comes (early-streams.ts); a press that does not become a click lets it go again.
// Its own chunk, fetched by the press (start-ahead.ts) beside hls.js, so the page's first script
// stays small.
import { attachStream } from '../player/attach.ts'
import { hasEarlyStream, keepEarlyStream, releaseEarlyStream } from './early-streams.ts'
import { readPageData } from './page-data.ts'

/** Marks a tile's own player element, the one a press next to it may start. */
export const TILE_PLAYER_ATTRIBUTE = 'data-tile-player'

/** The work the server put in the landing page whose master is `hlsUrl`. */
function pageVideo(hlsUrl: string) {
  const data = readPageData()
  return data?.kind === 'landing'
    ? (data.page.videos.find((video) => video.hlsUrl === hlsUrl) ?? null)
    : null
}

/**
 * A press on a tile's play button (`button`, its stream `hlsUrl`); `abandoned` is aborted when the
 * press ends without a click (cancelled, or let go outside the button).
 */
export function pressBeforeLive(button: Element, hlsUrl: string, abandoned: AbortSignal): void {
  if (abandoned.aborted) return
  const player = button.parentElement?.querySelector(`video[${TILE_PLAYER_ATTRIBUTE}]`)
  if (!(player instanceof HTMLVideoElement) || player.src || hasEarlyStream(player)) return
  const video = pageVideo(hlsUrl)
  if (!video) return
  player.preload = 'auto'
  // Levelled when the tile claims it: the site's reference comes with React's copy of the data.
  keepEarlyStream(player, attachStream(player, video, { loudnessReference: null }))
  abandoned.addEventListener('abort', () => releaseEarlyStream(player), { once: true })
}
