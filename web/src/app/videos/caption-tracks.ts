// A work's caption tracks as the edit dialog changes them, before the server's next answer: one
// track per language, an added one replacing its language's track in place.
import type { CaptionTrack } from '@shared/captions.ts'

const sameLanguage = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

export function withTrack(tracks: readonly CaptionTrack[], added: CaptionTrack): CaptionTrack[] {
  const at = tracks.findIndex((t) => sameLanguage(t.language, added.language))
  if (at < 0) return [...tracks, added]
  return tracks.map((t, i) => (i === at ? added : t))
}

export function withoutTrack(tracks: readonly CaptionTrack[], language: string): CaptionTrack[] {
  return tracks.filter((t) => !sameLanguage(t.language, language))
}

/** The track a new one in `language` would replace, if any. */
export function trackIn(
  tracks: readonly CaptionTrack[],
  language: string,
): CaptionTrack | undefined {
  return tracks.find((t) => sameLanguage(t.language, language))
}
