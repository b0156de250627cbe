// A work's stream while its processing runs (docs/media.md#growing-streams): the media worker
// publishes the start of every rung and the audio as the encoder makes them, so an admin plays a
// new upload within seconds; the final, immutable folder replaces it once the ladder is done.

/** What a row keeps of the run in progress. */
export type GrowingState = {
  /** The stream folder it is published to (never the final one). */
  folder: string
  /** Rungs with at least one segment published, lowest first ('360p', '720p'…). */
  rungs: string[]
  /** Every rung the final ladder will have, lowest first. */
  planned: string[]
  /** Seconds of picture published so far (the lowest rung's). */
  seconds: number
  /** The master's length as probed (null when it states none): what the stream grows to. */
  duration: number | null
  /**
   * Set once the final streams exist: the folder stays this long for players still on it, then
   * it is removed (MEDIA_GROWING_KEEP_SECONDS). ISO time.
   */
  endedAt?: string
}

/** The admins' view of it: the master to play, and how far it got. */
export type GrowingStream = Omit<GrowingState, 'folder' | 'endedAt'> & {
  /** The growing master: EVENT playlists below it, without an end until the final streams exist. */
  hlsUrl: string
}
