// What the Manage page and the edit dialog say about a work's loudness, in plain words: pure, so
// the wording is tested without a browser (docs/dashboard.md, "Loudness").
import { type LoudnessFigures, playbackGainDb } from '@contract/loudness.ts'

/**
 * A true peak above this may clip once the work is decoded from AAC or played through a
 * device's own processing: the level EBU R128 and the streaming services ask masters to stay
 * under (docs/decisions/071-loudness-levelled-at-playback-by-element-volume.md).
 */
export const TRUE_PEAK_WARN_ABOVE = -1

export type LoudnessText = {
  /** '−8.1 LUFS · plays 5.9 dB quieter on the site', 'No audio', … */
  level: string
  /** The true-peak warning, when there is one. */
  warning: string | null
}

/** One decimal with a real minus sign (and a plus when `signed`): '−8.1', '+0.4'. */
export function decibels(value: number, signed = false): string {
  const text = Math.abs(value).toFixed(1)
  if (text === '0.0') return text
  return value < 0 ? `−${text}` : signed ? `+${text}` : text
}

/**
 * `loudness` as measured, `hasAudio` as probed (null: not yet), `reference` the site's (null:
 * levelling off). Null while there is nothing to say yet (the file not probed).
 */
export function loudnessText(
  loudness: LoudnessFigures | null,
  hasAudio: boolean | null,
  reference: number | null,
): LoudnessText | null {
  if (hasAudio === false) return { level: 'No audio', warning: null }
  if (!loudness) {
    return hasAudio ? { level: 'Loudness not measured yet', warning: null } : null
  }
  const gain = playbackGainDb(loudness.integrated, reference)
  const how =
    gain < 0
      ? `plays ${decibels(-gain)} dB quieter on the site`
      : reference === null
        ? 'plays as mixed (levelling is off)'
        : 'plays as mixed'
  const peak = loudness.truePeak
  return {
    level: `${decibels(loudness.integrated)} LUFS · ${how}`,
    warning:
      peak !== null && peak > TRUE_PEAK_WARN_ABOVE
        ? `true peak ${decibels(peak, true)} dBTP: may clip on some devices`
        : null,
  }
}
