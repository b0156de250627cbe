// A work's caption tracks as the edit dialog reads them: one per language, whatever its case.
import type { CaptionTrack } from '@contract/captions.ts'

/** The track a new one in `language` would replace, if any. */
export function trackIn(
  tracks: readonly CaptionTrack[],
  language: string,
): CaptionTrack | undefined {
  const wanted = language.toLowerCase()
  return tracks.find((t) => t.language.toLowerCase() === wanted)
}
