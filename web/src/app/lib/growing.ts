// A video still processing can be watched as the encoder makes it: its growing stream (EVENT
// playlists of every rung and the audio, growing together; docs/media.md#growing-streams). What
// the dashboard's players play while that is so, and the plain words they say about it.

import { timecode } from '@contract/review-note.ts'
import type { GrowingStream, Video } from '../../api.ts'
import type { StreamSources } from '../../player/streams.ts'

/** How often an open player asks for the video while its stream grows (new rungs, its end). */
export const GROWING_POLL_MS = 2000

/** How often a player showing `video` asks for it again: while it is on its way, else never. */
export function playerPollMs(video: Pick<Video, 'status' | 'hlsUrl' | 'growing'>): number | false {
  const onItsWay = video.status === 'queued' || video.status === 'processing'
  return onItsWay || growingOf(video) ? GROWING_POLL_MS : false
}

/** The growing stream to play: only until the final streams exist. */
export function growingOf(video: Pick<Video, 'hlsUrl' | 'growing'>): GrowingStream | null {
  return video.hlsUrl ? null : (video.growing ?? null)
}

/**
 * What a dashboard player plays: the final streams once they exist, else the growing stream,
 * else the master through its signed link (`masterUrl`, null until asked for). The master's link
 * stays the file to fall back on while the stream grows.
 */
export function dashboardSources(video: Video, masterUrl: string | null): StreamSources | null {
  if (video.hlsUrl) return video
  if (!masterUrl) return null
  return {
    videoUrl: masterUrl,
    hlsUrl: growingOf(video)?.hlsUrl ?? null,
    mp4Url: null,
    loudness: video.loudness,
    captions: video.captions,
  }
}

/** "Playable now · 360p, 480p — 720p, 1080p on the way". */
export function rungsLine({ rungs, planned }: Pick<GrowingStream, 'rungs' | 'planned'>): string {
  const coming = planned.filter((rung) => !rungs.includes(rung))
  if (!rungs.length) return `On the way · ${coming.join(', ')}`
  const now = `Playable now · ${rungs.join(', ')}`
  return coming.length ? `${now} — ${coming.join(', ')} on the way` : now
}

/** "Still processing: 0:42 of 3:00 is ready to play." (the length the probe found, if any). */
export function readyLine(seconds: number, length: number | null | undefined): string {
  const of = length ? ` of ${timecode(length)}` : ''
  return `Still processing: ${timecode(seconds)}${of} is ready to play.`
}

/** "Waiting for the encoder to reach 1:30…". */
export function waitingLine(target: number): string {
  return `Waiting for the encoder to reach ${timecode(target)}…`
}
