// Gives a <video> element its source: an hls.js instance, the stream natively, or a plain file. One
// hls.js instance per player, destroyed with it
// (docs/decisions/043-players-hls-js-full-build-lazy-one-config.md). Captions come from one place
// at a time
// (docs/decisions/075-captions-in-players-from-the-stream-or-track-elements-never-both.md): the
// stream's SUBTITLES group (hls.js makes the text tracks, Safari reads the group itself), or else
// <track> elements made here from the work's `captions`.
import type Hls from 'hls.js'
import type { SourceBufferTrackSet } from 'hls.js'
import { addCaptionTracks, hasTextTracks, removeCaptionTracks } from './captions.ts'
import { appendFirstSegments } from './first-segments.ts'
import { GROWING_CONFIG, HLS_CONFIG } from './hls-config.ts'
import { type HlsClass, hlsIfLoaded, loadHls } from './load-hls.ts'
import { levelLoudness } from './loudness.ts'
import { prefetchingLoader } from './prefetch-loader.ts'
import {
  type Engine,
  fileUrl,
  needsHlsJs,
  playsHlsNatively,
  type StreamSources,
} from './streams.ts'

export type AttachedStream = {
  /**
   * null when the element already has its source, so the caller can call play() inside the
   * click that asked for it (fullscreen and unmuted playback need that gesture); otherwise a
   * promise that settles once the element can play: its first segments appended before hls.js
   * arrived (first-segments.ts), or the hls.js chunk arrived and attached.
   */
  ready: Promise<void> | null
  /** Which path was taken (or is being taken); 'file' after a fallback. */
  engine(): Engine
  /** Stops loading and releases the hls.js instance; the element keeps a plain file source. */
  destroy(): void
}

export type AttachOptions = {
  /** Where to start, in seconds (a paused tile resumes where it left off). */
  startAt?: number
  /** The loudness reference in LUFS, null for off; the site's for this page load unless given. */
  loudnessReference?: number | null
  /**
   * `hlsUrl` is a stream still being made (EVENT playlists without an end): played from `startAt`
   * or the beginning rather than the live edge, and what it lacks yet is waited for, never a
   * fallback (hls-config.ts GROWING_CONFIG).
   */
  growing?: boolean
}

/** How long a growing stream's player waits before asking again after hls.js gave up. */
const GROWING_RETRY_MS = 2000

/**
 * hls.js's fatal errors after its own retries: one media-error recovery, then the MP4. A file of
 * the stream that answers 404 or 410 is gone (a reprocess removed its folder, the work was hidden
 * or deleted: URLs never change their bytes), so the MP4 comes at once instead of after hls.js's
 * retries, some 10 s of spinner (the player then asks for the current sources, recover.ts).
 */
function watchFatalErrors(
  hls: Hls,
  Hls: HlsClass,
  fallBack: (reason: string) => void,
  growing: boolean,
) {
  let recoveredMedia = false
  let retry: ReturnType<typeof setTimeout> | undefined
  hls.on(Hls.Events.DESTROYING, () => clearTimeout(retry))
  hls.on(Hls.Events.ERROR, (_event, data) => {
    const code = data.response?.code
    // A caption file is not the picture or the sound: hls.js carries on without it.
    const captions =
      data.details === Hls.ErrorDetails.SUBTITLE_LOAD_ERROR || data.frag?.type === 'subtitle'
    // A growing stream's rung may not be written yet, and its folder goes once the final streams
    // exist (the player then gets the new sources with the video's next answer): a 404 there is
    // news that has not arrived, not a stream that is gone.
    const gone = !growing && (code === 404 || code === 410)
    if (data.type === Hls.ErrorTypes.NETWORK_ERROR && gone && !captions) {
      fallBack(`${data.details}: ${code}`)
      return
    }
    if (!data.fatal) return
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recoveredMedia) {
      recoveredMedia = true
      hls.recoverMediaError()
      return
    }
    if (growing && data.type === Hls.ErrorTypes.NETWORK_ERROR) {
      // hls.js stops loading after its retries; the encoder will have written more by then.
      clearTimeout(retry)
      retry = setTimeout(() => hls.startLoad(hls.media?.currentTime ?? -1), GROWING_RETRY_MS)
      return
    }
    fallBack(`${data.type}: ${data.details}`)
  })
}

export function attachStream(
  video: HTMLVideoElement,
  sources: StreamSources,
  options: AttachOptions = {},
): AttachedStream {
  let engine: Engine = 'file'
  let hls: Hls | null = null
  let destroyed = false

  const captions = sources.captions ?? []
  const setFile = () => {
    engine = 'file'
    const url = new URL(fileUrl(sources), location.href).href
    if (video.src !== url) video.src = url
    addCaptionTracks(video, captions)
  }

  // The stream cannot play (a fatal hls.js error): the MP4 carries on from the same moment, and
  // keeps playing if the stream was.
  const fallBack = (reason: string) => {
    // Several files may fail at once (the video's and the audio's): one fallback.
    if (destroyed || !hls) return
    console.warn(`The stream stopped (${reason}); playing the MP4 instead`)
    const at = video.currentTime
    const wasPlaying = !video.paused
    hls?.destroy()
    hls = null
    setFile()
    if (at > 0) video.currentTime = at
    if (wasPlaying) video.play().catch(() => {})
  }

  // Opened while the hls.js chunk is still arriving (see below), handed to it once it has.
  let opened: { source: MediaSource; url: string } | null = null
  const closeOpened = () => {
    if (!opened) return
    URL.revokeObjectURL(opened.url)
    opened = null
  }

  const attachWith = (Hls: HlsClass, tracks: SourceBufferTrackSet | null = null) => {
    if (destroyed) return
    if (!Hls.isSupported() || !sources.hlsUrl) {
      closeOpened()
      setFile()
      return
    }
    engine = 'hls.js'
    const startAt = options.startAt ?? 0
    hls = new Hls({
      ...HLS_CONFIG,
      ...(options.growing ? GROWING_CONFIG : {}),
      // What was fetched before the click (prefetch.ts) is taken from memory, not asked again.
      loader: prefetchingLoader(Hls.DefaultConfig.loader),
      // A growing stream is "live" to hls.js, which would start it at its edge: 0 is asked for.
      ...(startAt > 0 || options.growing ? { startPosition: startAt } : {}),
    })
    watchFatalErrors(hls, Hls, fallBack, options.growing === true)
    // hls.js makes a text track of each subtitle rendition; a stream made before its work had
    // captions has none, and then the files play as <track>s beside it.
    removeCaptionTracks(video)
    hls.on(Hls.Events.MANIFEST_PARSED, (_event, data) => {
      if (!destroyed && data.subtitleTracks.length === 0) addCaptionTracks(video, captions)
    })
    hls.loadSource(sources.hlsUrl)
    const handed = opened
    opened = null
    // hls.js takes over the element's MediaSource (and its object URL), open or still opening:
    // it waits for `sourceopen` itself; with the SourceBuffers the first segments went into
    // (first-segments.ts), when they did. One the element failed on is not handed over, nor one
    // left with SourceBuffers hls.js would not know of.
    const usable =
      handed &&
      video.src === handed.url &&
      video.error === null &&
      (tracks !== null || handed.source.sourceBuffers.length === 0)
    if (handed && usable) {
      hls.attachMedia({ media: video, mediaSource: handed.source, ...(tracks ? { tracks } : {}) })
    } else {
      if (handed) URL.revokeObjectURL(handed.url)
      hls.attachMedia(video)
    }
  }

  const integrated = sources.loudness?.integrated ?? null
  if (options.loudnessReference === undefined) levelLoudness(video, integrated)
  else levelLoudness(video, integrated, options.loudnessReference)

  let ready: Promise<void> | null = null
  const stopped = new AbortController()
  if (sources.hlsUrl && playsHlsNatively()) {
    engine = 'native-hls'
    removeCaptionTracks(video)
    video.src = sources.hlsUrl
    if (options.startAt) video.currentTime = options.startAt
    // Safari, too, starts a playlist without an end at its live edge: taken back once it has read
    // the stream's start.
    if (options.growing) {
      const startAt = options.startAt ?? 0
      video.addEventListener(
        'loadedmetadata',
        () => {
          if (!destroyed && engine === 'native-hls') video.currentTime = startAt
        },
        { once: true },
      )
    }
    // Safari lists the stream's subtitle renditions as text tracks by the time it has metadata.
    if (captions.length) {
      video.addEventListener(
        'loadedmetadata',
        () => {
          if (!destroyed && engine === 'native-hls' && !hasTextTracks(video)) {
            addCaptionTracks(video, captions)
          }
        },
        { once: true },
      )
    }
  } else if (needsHlsJs(sources)) {
    engine = 'hls.js'
    const loaded = hlsIfLoaded()
    if (loaded) {
      attachWith(loaded)
    } else {
      // The element opens its MediaSource while hls.js is still on its way: the `sourceopen`
      // a new one waits for (≈90 ms on a phone-class CPU) is then over by the time it arrives.
      if ('MediaSource' in window && !video.src) {
        const source = new MediaSource()
        opened = { source, url: URL.createObjectURL(source) }
        video.src = opened.url
      }
      // Its first segments, when the press fetched them, are appended meanwhile: the element
      // can play its first second before hls.js is there (first-segments.ts). Not for a resumed
      // play, which starts elsewhere, nor a growing stream, whose playlists hls.js must follow.
      const early =
        opened && sources.hlsUrl && !options.startAt && !options.growing
          ? appendFirstSegments(opened.source, sources.hlsUrl, sources.streamStart, stopped.signal)
          : Promise.resolve(null)
      // hls.js is not needed before the first second has played: it follows the first segments
      // rather than sharing a slow line with them.
      const attached = early.then(loadHls).then(
        (Hls) => early.then((tracks) => attachWith(Hls, tracks)),
        (error: unknown) => {
          // Without the player chunk (a dropped connection), the MP4 still plays.
          console.warn('Could not load the stream player; playing the MP4 instead', error)
          closeOpened()
          if (!destroyed) setFile()
        },
      )
      ready = Promise.race([early.then((tracks) => (tracks ? undefined : attached)), attached])
    }
  } else {
    setFile()
    // Before its metadata, the element keeps this as where to start.
    if (options.startAt) video.currentTime = options.startAt
  }

  return {
    ready,
    engine: () => engine,
    destroy() {
      destroyed = true
      stopped.abort()
      if (opened) {
        // As hls.js detaches: the element lets go of the MediaSource only on a load without src.
        video.removeAttribute('src')
        video.load()
        closeOpened()
      }
      hls?.destroy()
      hls = null
      removeCaptionTracks(video)
    },
  }
}
