// The files a player asks for first, named from what a processing run writes: the ladder's
// lowest rung (the one hls.js starts on, and the first a native player is offered) and the audio
// rendition, each by its playlist, init segment and first media segment. Derived, not stored: the
// names follow from the source's displayed size and whether it has sound, and a change to the
// ladder comes with `media:reprocess`. A wrong guess only costs the requests it made: the player
// still follows the master.
import { RENDITION_FILES, segmentName } from '../media/outputs.ts'
import type { StreamStart } from '../schemas/stream-start.ts'
import { AUDIO, planLadder } from './ladder.ts'

/** Segments are numbered from 0. */
const FIRST_SEGMENT = segmentName(RENDITION_FILES.segments, 0)

const startIn = (dir: string) => ({
  playlist: `${dir}/${RENDITION_FILES.playlist}`,
  init: `${dir}/${RENDITION_FILES.init}`,
  segment: `${dir}/${FIRST_SEGMENT}`,
})

/** Null when the size is not known (the streams could not have been made from it). */
export function streamStartFor(source: {
  width: number | null
  height: number | null
  hasAudio: boolean
}): StreamStart | null {
  const { width, height } = source
  if (!width || !height) return null
  const lowest = planLadder({ width, height, videoBitrate: null }).at(-1)
  if (!lowest) return null
  return [startIn(lowest.name), ...(source.hasAudio ? [startIn(AUDIO.dir)] : [])]
}
