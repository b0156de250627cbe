// React side of the players: attach a video's stream for as long as a component shows it, and
// have hls.js in hand before a visitor's click.
import { type RefObject, useEffect, useRef } from 'react'
import { type AttachOptions, attachStream } from './attach.ts'
import { prefetchHls } from './load-hls.ts'
import type { StreamSources } from './streams.ts'

export type UseStreamOptions = Pick<AttachOptions, 'loudnessReference' | 'growing'> & {
  /**
   * When the sources change under the mounted player (a growing stream replaced by the final
   * one), the new ones carry on from the same moment, playing or paused as the admin left it.
   */
  keepPosition?: boolean
}

/**
 * Attaches `sources` to the element while the component is mounted (one hls.js instance,
 * destroyed on unmount) and calls `onAttached` once the element has its source.
 */
export function useAttachedStream(
  ref: RefObject<HTMLVideoElement | null>,
  sources: StreamSources,
  onAttached?: (video: HTMLVideoElement) => void,
  options: UseStreamOptions = {},
) {
  const onAttachedRef = useRef(onAttached)
  onAttachedRef.current = onAttached
  const { videoUrl, hlsUrl, mp4Url } = sources
  const integrated = sources.loudness?.integrated ?? null
  const { loudnessReference, growing = false, keepPosition = false } = options
  // Where the sources that were replaced had got to; read by the next attach only.
  const left = useRef<{ at: number; playing: boolean } | null>(null)
  // The tracks by value: an answer refetched with the same captions attaches nothing again.
  const captionsKey = JSON.stringify(sources.captions ?? [])
  const startKey = JSON.stringify(sources.streamStart ?? null)

  useEffect(() => {
    const video = ref.current
    if (!video) return
    const loudness = integrated === null ? null : { integrated }
    const captions = JSON.parse(captionsKey) as StreamSources['captions']
    const streamStart = JSON.parse(startKey) as StreamSources['streamStart']
    const resume = left.current
    left.current = null
    // An element's autoplay would start a paused admin's player again on the new sources.
    if (resume && !resume.playing) video.autoplay = false
    const stream = attachStream(
      video,
      { videoUrl, hlsUrl, mp4Url, loudness, captions, streamStart },
      {
        ...(loudnessReference === undefined ? {} : { loudnessReference }),
        ...(growing ? { growing } : {}),
        ...(resume ? { startAt: resume.at } : {}),
      },
    )
    let live = true
    const attached = () => {
      if (!live) return
      if (resume?.playing) video.play().catch(() => {})
      onAttachedRef.current?.(video)
    }
    if (stream.ready) void stream.ready.then(attached)
    else attached()
    return () => {
      live = false
      if (keepPosition && video.currentTime > 0) {
        left.current = { at: video.currentTime, playing: !video.paused }
      }
      stream.destroy()
    }
  }, [
    ref,
    videoUrl,
    hlsUrl,
    mp4Url,
    integrated,
    loudnessReference,
    captionsKey,
    startKey,
    growing,
    keepPosition,
  ])
}

/**
 * Fetches the hls.js chunk when `near` comes within half a viewport of the screen, so it is in hand
 * before a click: bench/playback measured 1.77 s to first frame on a phone line when the chunk was
 * fetched on click, 0.87 s when it was already there. Not at idle after load: the grid is always
 * below the fold (the hero is a full screen), so a visitor who never scrolls to the work pays no
 * 178 KB, and the first load's figures (Lighthouse's JavaScript, TBT) stay those of the page.
 */
export function usePrefetchHls(near: RefObject<Element | null>, wanted: boolean) {
  useEffect(() => {
    const target = near.current
    if (!wanted || !target) return
    if (!('IntersectionObserver' in window)) {
      prefetchHls()
      return
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return
        observer.disconnect()
        prefetchHls()
      },
      { rootMargin: '50% 0px' },
    )
    observer.observe(target)
    return () => observer.disconnect()
  }, [near, wanted])
}
