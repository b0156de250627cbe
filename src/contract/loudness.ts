// Loudness at playback (docs/decisions/071-loudness-levelled-at-playback-by-element-volume.md): a
// work louder than the site's reference plays turned down to it, a quieter one as it is. Shared
// with web/ and kept free of zod, so the players' chunk carries only these few lines; the Site
// page's rule is in site.ts.

/** A work's loudness by EBU R128, as the admins' answers carry it. */
export type LoudnessFigures = {
  /** Integrated loudness, LUFS. */
  integrated: number
  /** Loudness range, LU. */
  range: number
  /** True peak, dBTP; null for digital silence. */
  truePeak: number | null
}

/** The reference a new site starts with: what the common streaming services play at. */
export const DEFAULT_LOUDNESS_REFERENCE = -14

/** What the Site page accepts: whole or half dB in this span, or off (null). */
export const LOUDNESS_REFERENCE = { min: -23, max: -9, step: 0.5 } as const

/**
 * The gain a player applies, in dB: never above 0 (a quiet work is not turned up, which would
 * raise its noise and could clip), 0 when normalisation is off or the work has no measured
 * audio. Rounded to a tenth, as shown.
 */
export function playbackGainDb(integrated: number | null, reference: number | null): number {
  if (integrated === null || reference === null) return 0
  if (!Number.isFinite(integrated) || !Number.isFinite(reference)) return 0
  const gain = Math.round(Math.min(0, reference - integrated) * 10) / 10
  return gain === 0 ? 0 : gain // no "-0"
}

/** The element volume (0–1) for `gainDb`. */
export function gainToVolume(gainDb: number): number {
  return Math.min(1, Math.max(0, 10 ** (gainDb / 20)))
}
