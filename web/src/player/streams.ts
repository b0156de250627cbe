// What a video offers to play and how this browser should play it. Order (hls.js's own recommended
// one, docs/decisions/043-players-hls-js-full-build-lazy-one-config.md): Safari-like browsers play HLS themselves; everything with Media
// Source Extensions plays it through hls.js (with our fast-start settings); the rest gets the MP4.
import type { CaptionTrack } from '@contract/captions.ts'
import type { StreamStart } from '@contract/stream-start.ts'

/** The media a video answer names: `hlsUrl`/`mp4Url` once ready, `videoUrl` always. */
export type StreamSources = {
  /** The master until the streams are ready; the MP4 after that (public answers). */
  videoUrl: string
  hlsUrl?: string | null
  mp4Url?: string | null
  /** The work's measured loudness; null without audio or until measured (then not levelled). */
  loudness?: { integrated: number } | null
  /** The work's caption tracks; the stream carries them too once it has a SUBTITLES group. */
  captions?: readonly CaptionTrack[]
  /** The stream's first files, as the public answers name them (docs/decisions/079-a-streams-first-files-named-in-the-page.md). */
  streamStart?: StreamStart | null
}

export type Engine = 'hls.js' | 'native-hls' | 'file'

const HLS_TYPE = 'application/vnd.apple.mpegurl'

function mediaSourceAvailable(): boolean {
  return 'MediaSource' in window || 'ManagedMediaSource' in window
}

/**
 * Safari (macOS and iOS) plays HLS in the element. Chromium also answers "maybe" to the HLS type
 * but has Media Source Extensions and no ManagedMediaSource: there hls.js must run, or our
 * start-low settings would be bypassed.
 */
export function playsHlsNatively(): boolean {
  nativeHls ??=
    Boolean(document.createElement('video').canPlayType(HLS_TYPE)) &&
    ('ManagedMediaSource' in window || !('MediaSource' in window))
  return nativeHls
}
let nativeHls: boolean | undefined

/** Whether playing these sources here will need the hls.js chunk (so it is worth prefetching). */
export function needsHlsJs(sources: StreamSources): boolean {
  // On the server (the public pages' render) nothing plays: nothing to prefetch either.
  if (typeof window === 'undefined') return false
  return Boolean(sources.hlsUrl) && !playsHlsNatively() && mediaSourceAvailable()
}

/** The file to play when there is no stream, or when the stream cannot play here. */
export function fileUrl(sources: StreamSources): string {
  return sources.mp4Url || sources.videoUrl
}
