// What a player does when its sources stop answering: a page may outlive them (a reprocess replaced
// the work's folder and removed the old one, the work was hidden or deleted, media answering 404 or
// 410). It asks once for the work's current sources and plays those; when the work is gone, or they
// fail too, it says it cannot play. Never silently nothing
// (docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md).
import { useCallback, useEffect, useRef, useState } from 'react'
import type { StreamSources } from './streams.ts'

/** The work's sources as the server names them now; null when it no longer shows the work. */
export type CurrentSources<T extends StreamSources> = () => Promise<T | null>

const same = (a: StreamSources, b: StreamSources) =>
  a.hlsUrl === b.hlsUrl && a.mp4Url === b.mp4Url && a.videoUrl === b.videoUrl

/**
 * The work's current sources when they differ from those that failed; null when there are none
 * to try (the work is gone, the answer could not be had, or it names the same files).
 */
export async function freshSources<T extends StreamSources>(
  failed: T,
  current: CurrentSources<T> | undefined,
): Promise<T | null> {
  if (!current) return null
  try {
    const now = await current()
    return now && !same(now, failed) ? now : null
  } catch (error) {
    console.warn('Could not ask for the current sources', error)
    return null
  }
}

/**
 * The sources an element player shows (`initial` first) and its failure handler: the first
 * failure swaps in the current sources when they differ (the player attaches them again), any
 * other makes `unplayable` true. `failed` may be called by several signals of one failure (the
 * element's error event, a rejected play()): one counts.
 */
export function useRecoveringSources<T extends StreamSources>(
  initial: T,
  current?: CurrentSources<T>,
) {
  const [sources, setSources] = useState(initial)
  const [unplayable, setUnplayable] = useState(false)
  const asked = useRef(false)
  const asking = useRef(false)
  const live = useRef(true)
  const shown = useRef(sources)
  shown.current = sources
  useEffect(() => {
    live.current = true
    return () => {
      live.current = false
    }
  }, [])

  const failed = useCallback(() => {
    if (asking.current) return
    if (asked.current) {
      setUnplayable(true)
      return
    }
    asked.current = true
    asking.current = true
    void freshSources(shown.current, current).then((fresh) => {
      asking.current = false
      if (!live.current) return
      if (fresh) setSources(fresh)
      else setUnplayable(true)
    })
  }, [current])

  return { sources, unplayable, failed }
}
