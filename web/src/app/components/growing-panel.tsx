// Beside a dashboard player while its video processes and it plays the growing stream: which rungs
// exist, how much is made, and a jump that may go past that. A jump past the made end is a wait
// (the player pauses, says what it waits for, and plays from there once the encoder has made it,
// or once the final streams took over), never an error.

import { timecode } from '@contract/review-note.ts'
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react'
import type { Video } from '../../api.ts'
import { cn } from '../lib/cn.ts'
import { growingOf, readyLine, rungsLine, waitingLine } from '../lib/growing.ts'

/** How far short of the made end a jump must land: the element needs a segment there to play. */
const EDGE_MARGIN_S = 1

/** The element's length, the playlist's end as hls.js last read it; 0 before it is known. */
const lengthOf = (element: HTMLVideoElement) =>
  Number.isFinite(element.duration) ? element.duration : 0

type Props = {
  video: Pick<Video, 'hlsUrl' | 'growing' | 'duration'>
  videoRef: RefObject<HTMLVideoElement | null>
  /** Filled with this panel's seek while it is mounted, for jumps made elsewhere (a note). */
  seekRef?: RefObject<((at: number) => void) | null>
  dark?: boolean
}

/**
 * Mounted with its player for as long as the player is: a wait begun on the growing stream is
 * carried out on the final one when processing ends first.
 */
export function GrowingPanel({ video, videoRef, seekRef, dark = false }: Props) {
  const growing = growingOf(video)
  const [reach, setReach] = useState(0)
  const [at, setAt] = useState(0)
  const [waitingFor, setWaitingFor] = useState<number | null>(null)
  const waiting = useRef<{ at: number; resume: boolean } | null>(null)

  const stopWaiting = useCallback(() => {
    waiting.current = null
    setWaitingFor(null)
  }, [])

  useEffect(() => {
    const element = videoRef.current
    if (!element) return
    const measure = () => setReach(lengthOf(element))
    const move = () => setAt(element.currentTime)
    // Pressing play while a jump waits gives the jump up.
    const played = () => {
      if (waiting.current) stopWaiting()
    }
    measure()
    element.addEventListener('durationchange', measure)
    element.addEventListener('timeupdate', move)
    element.addEventListener('play', played)
    return () => {
      element.removeEventListener('durationchange', measure)
      element.removeEventListener('timeupdate', move)
      element.removeEventListener('play', played)
    }
  }, [videoRef, stopWaiting])

  const seek = useCallback(
    (target: number) => {
      const element = videoRef.current
      if (!element) return
      if (target <= lengthOf(element) - EDGE_MARGIN_S) {
        stopWaiting()
        element.currentTime = target
        return
      }
      waiting.current = { at: target, resume: waiting.current?.resume ?? !element.paused }
      setWaitingFor(target)
      element.pause()
    },
    [videoRef, stopWaiting],
  )

  useEffect(() => {
    if (!seekRef) return
    seekRef.current = seek
    return () => {
      seekRef.current = null
    }
  }, [seekRef, seek])

  // The encoder (or the final streams) reached the moment a jump waits for: it is carried out.
  useEffect(() => {
    const element = videoRef.current
    const wait = waiting.current
    if (!element || !wait || wait.at > reach - EDGE_MARGIN_S) return
    stopWaiting()
    element.currentTime = wait.at
    if (wait.resume) element.play().catch(() => {})
  }, [reach, videoRef, stopWaiting])

  if (!growing && waitingFor === null) return null
  const made = Math.max(growing?.seconds ?? 0, reach)
  // The length the probe found, in the growing stream's answer until the work's own says it.
  const total = video.duration || growing?.duration || null
  const length = Math.max(total ?? 0, made)
  const shown = waitingFor ?? at
  return (
    <div
      className={cn(
        'space-y-1.5 text-sm',
        dark ? 'text-zinc-200' : 'text-zinc-600 dark:text-zinc-300',
      )}
    >
      {growing ? (
        <>
          <p>{rungsLine(growing)}</p>
          <p className="tabular-nums">{readyLine(made, total)}</p>
          <label className="flex items-center gap-3">
            <span className="shrink-0">Jump to</span>
            <input
              type="range"
              min={0}
              max={Math.max(1, Math.floor(length))}
              step={1}
              value={Math.min(Math.round(shown), Math.floor(length))}
              onChange={(event) => seek(Number(event.target.value))}
              aria-valuetext={`${timecode(shown)} of ${timecode(length)}`}
              className="min-w-0 flex-1 accent-accent"
            />
          </label>
        </>
      ) : null}
      <p aria-live="polite" className="min-h-5">
        {waitingFor === null ? '' : waitingLine(waitingFor)}
      </p>
    </div>
  )
}
