// The one hls.js configuration, shared by the public tiles, the phone modal and the dashboard's
// player. Fast start was measured in bench/playback
// (docs/decisions/043-players-hls-js-full-build-lazy-one-config.md): starting on the lowest rung
// and letting ABR climb gave 0.87–0.93 s to first frame on a 9 Mbps / 170 ms phone line, against
// 1.48 s with hls.js's automatic start level.
import type { HlsConfig } from 'hls.js'

export const HLS_CONFIG: Partial<HlsConfig> = {
  // Start on the lowest rung (a 1 s first segment of ~75 KB) and climb once fragments have been
  // measured; an automatic start first guesses from a 500 kbit/s default or loads a test fragment.
  startLevel: 0,
  // Never fetch more pixels than the element shows: a 375 px tile needs 360p, fullscreen on a
  // 1080p screen gets 1080p. A phone's DPR of 3 would ask for 1080p in a 375 px box; 2 is plenty.
  capLevelToPlayerSize: true,
  maxDevicePixelRatio: 2,
  // Video on demand: no low-latency playlist reloads.
  lowLatencyMode: false,
  // fMP4 segments are only remuxed, which costs little on the main thread; the worker hls.js
  // would start is made from a blob: URL, which our Content-Security-Policy (script-src 'self',
  // no worker-src) refuses with a console error before hls.js falls back to this anyway.
  enableWorker: false,
  // Forward buffer as hls.js's default (30 s); keep 30 s behind the play head instead of
  // everything played, so a long reel does not grow the page's memory without bound.
  maxBufferLength: 30,
  backBufferLength: 30,
}

/**
 * Added for a stream the encoder is still making (the dashboard's player while a video processes):
 * its EVENT playlists grow and have no end yet, so hls.js takes it for a live broadcast. The
 * admin watches from the beginning, at normal speed, never pulled to the edge; a rung whose
 * playlist holds no segment yet is asked again for longer than hls.js's default two retries.
 */
export const GROWING_CONFIG: Partial<HlsConfig> = {
  // hls.js's defaults, said aloud: it refuses a maximum latency given without the sync count.
  liveSyncDurationCount: 3,
  liveMaxLatencyDurationCount: Number.POSITIVE_INFINITY,
  maxLiveSyncPlaybackRate: 1,
  playlistLoadPolicy: {
    default: {
      maxTimeToFirstByteMs: 10_000,
      maxLoadTimeMs: 20_000,
      timeoutRetry: { maxNumRetry: 2, retryDelayMs: 0, maxRetryDelayMs: 0 },
      errorRetry: {
        maxNumRetry: 10,
        retryDelayMs: 1000,
        maxRetryDelayMs: 4000,
        // hls.js never asks again after a 4xx; here a 404 is a playlist not written yet.
        shouldRetry: (config, count, _timeout, response, retry) =>
          retry || (!!config && count < config.maxNumRetry && response?.code === 404),
      },
    },
  },
}
