// A work's caption files as <track> elements of its player, for when the stream does not bring
// them (the MP4, the master before processing ends, a stream made before the captions were added).
// Only the tracks made here are touched: hls.js makes and removes its own.
import type { CaptionTrack } from '@contract/captions.ts'

/** Marks the <track>s made here. */
const MARK = 'data-caption'

export function addCaptionTracks(video: HTMLVideoElement, captions: readonly CaptionTrack[]) {
  const wanted = captions.map((c) => new URL(c.url, location.href).href)
  const have = [...video.querySelectorAll<HTMLTrackElement>(`track[${MARK}]`)].map((t) => t.src)
  if (wanted.length === have.length && wanted.every((url, i) => url === have[i])) return
  removeCaptionTracks(video)
  for (const caption of captions) {
    const track = document.createElement('track')
    track.kind = 'subtitles'
    track.srclang = caption.language
    track.label = caption.label
    track.src = caption.url
    track.setAttribute(MARK, '')
    video.append(track)
  }
}

export function removeCaptionTracks(video: HTMLVideoElement) {
  for (const track of video.querySelectorAll(`track[${MARK}]`)) track.remove()
}

/** Whether the element already offers subtitles or captions (e.g. from the stream itself). */
export function hasTextTracks(video: HTMLVideoElement): boolean {
  return [...video.textTracks].some((t) => t.kind === 'subtitles' || t.kind === 'captions')
}
