// Levels a work at playback
// (docs/decisions/071-loudness-levelled-at-playback-by-element-volume.md): louder than the site's
// reference, it starts turned down to it through the element's volume; the file is untouched and
// the visitor's own volume control moves on from there. Where the volume cannot be set (iOS Safari
// keeps it at 1) nothing is applied, and the element says so.
import { DEFAULT_LOUDNESS_REFERENCE, gainToVolume, playbackGainDb } from '@contract/loudness.ts'

/** The attribute that tells tests and the curious what gain a player applied, in dB. */
export const GAIN_ATTRIBUTE = 'data-loudness-gain-db'

let siteReference: number | null = DEFAULT_LOUDNESS_REFERENCE

/** The site's reference for this page load (null: off); set once from the page's data. */
export function setLoudnessReference(reference: number | null): void {
  siteReference = reference
}

/** Sets `video`'s volume for a work of `integrated` LUFS; returns the gain applied, in dB. */
export function levelLoudness(
  video: HTMLVideoElement,
  integrated: number | null,
  reference: number | null = siteReference,
): number {
  const gain = playbackGainDb(integrated, reference)
  const volume = gainToVolume(gain)
  try {
    video.volume = volume
  } catch {
    // A browser that refuses the value keeps its own; the check below reports 0.
  }
  const applied = Math.abs(video.volume - volume) < 0.001 ? gain : 0
  video.setAttribute(GAIN_ATTRIBUTE, String(applied))
  return applied
}
