// The streams a press gave tiles' elements before React was live (early-player.ts), kept by
// element until the tile claims its own. Apart from the early player so that the tiles can import
// this statically while the early player stays a chunk the press fetches. No React here.
import type { AttachedStream } from '../player/attach.ts'
import { levelLoudness } from '../player/loudness.ts'

const started = new WeakMap<HTMLVideoElement, AttachedStream>()

export function hasEarlyStream(player: HTMLVideoElement): boolean {
  return started.has(player)
}

export function keepEarlyStream(player: HTMLVideoElement, stream: AttachedStream): void {
  started.set(player, stream)
}

/** A press that ended without its click: the element lets go of the stream. */
export function releaseEarlyStream(player: HTMLVideoElement): void {
  started.get(player)?.destroy()
  started.delete(player)
}

/**
 * The stream a press gave `player` before React was live, now the tile's own (levelled for a work
 * of `integrated` LUFS by the site's reference), or null when there is none.
 */
export function claimEarlyStream(
  player: HTMLVideoElement,
  integrated: number | null,
): AttachedStream | null {
  const stream = started.get(player) ?? null
  if (!stream) return null
  started.delete(player)
  levelLoudness(player, integrated)
  return stream
}
