// One work tile: thumbnail at rest, yellow brand overlay on hover (over the video's preview loop
// where it has one), fullscreen playback of its stream on click. Sources the page named that no
// longer answer are replaced once by the work's current ones; after that the tile says the
// video cannot play (player/recover.ts).
import { useEffect, useRef, useState } from 'react'
import { type AttachedStream, attachStream } from '../player/attach.ts'
import { hlsIfLoaded, prefetchHls } from '../player/load-hls.ts'
import { freshSources } from '../player/recover.ts'
import { needsHlsJs } from '../player/streams.ts'
import { isMobileViewport } from '../ui/breakpoint.ts'
import { CannotPlay } from './cannot-play.tsx'
import { currentOf } from './current-work.ts'
import { claimEarlyStream } from './early-streams.ts'
import { CloseIcon, LinkIcon, PlayIcon, Spinner } from './icons.tsx'
import { canPreviewOnHover, isInterruptedPlay, logPlayFailure } from './media.ts'
import type { PublicVideo } from './public-videos.ts'
import { savesData, startAttribute } from './start-ahead.ts'

type TileState = 'idle' | 'loading' | 'playing'

type Props = {
  video: PublicVideo
  /** Off the first screen: laid out only near the viewport (content-visibility), same size. */
  deferred?: boolean
  /** Below 768 px the grid opens its modal player instead. */
  onOpenModal: (video: PublicVideo, opener: HTMLElement) => void
  /**
   * Below 768 px, a press (≈100 ms before its click, more on a busy phone): the grid makes the
   * modal's player, not shown yet, so its stream is loading when the click shows it.
   */
  onPressModal?: (video: PublicVideo) => void
  /** The press ended without its click (became a scroll, let go elsewhere). */
  onAbandonModal?: (video: PublicVideo) => void
}

/** How long after a press is let go its click may still come before the modal made for it goes. */
const CLICK_AFTER_RELEASE_MS = 1000

/** A pointer that only passes over a tile on its way elsewhere starts no preview download. */
const HOVER_INTENT_MS = 120

export function WorkTile({
  video,
  deferred = false,
  onOpenModal,
  onPressModal,
  onAbandonModal,
}: Props) {
  const [state, setState] = useState<TileState>('idle')
  const [previewing, setPreviewing] = useState(false)
  // What the tile plays: the work as the grid has it, or its current sources once those failed
  // (until the grid brings a newer answer of its own).
  const [recovered, setRecovered] = useState<{ from: PublicVideo; sources: PublicVideo } | null>(
    null,
  )
  const sources = recovered?.from === video ? recovered.sources : video
  const playing = useRef(sources)
  playing.current = sources
  const [unplayable, setUnplayable] = useState(false)
  // Each click may ask once for the current sources.
  const retried = useRef(false)
  const frameRef = useRef<HTMLDivElement>(null)
  const videoRef = useRef<HTMLVideoElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const wentFullscreen = useRef(false)
  const failed = useRef(false)
  const restoreFocus = useRef(false)
  const stream = useRef<AttachedStream | null>(null)
  // Each click is one playback attempt; answers from an earlier one (a play() rejected because
  // its stream was released) are not failures of the current one.
  const attempt = useRef(0)
  const resumeAt = useRef(0)
  const active = useRef(false)
  const hoverTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  /** Releases the hls.js instance (one per playback); a stream resumes where it was paused. */
  const releaseStream = (ended: boolean) => {
    attempt.current++
    const player = videoRef.current
    if (stream.current?.engine() === 'hls.js') {
      resumeAt.current = ended || !player ? 0 : player.currentTime
      stream.current.destroy()
      stream.current = null
    }
  }

  const backToIdle = (ended = false) => {
    active.current = false
    videoRef.current?.pause()
    releaseStream(ended)
    setState('idle')
    if (document.fullscreenElement === frameRef.current) {
      document.exitFullscreen().catch(() => {})
    }
  }

  /** Nothing left to try: logged, back to the thumbnail, and said on the tile. */
  const giveUp = (error: unknown) => {
    logPlayFailure(video.title, error)
    backToIdle()
    // The element starts afresh at the next click instead of keeping the source that failed.
    stream.current?.destroy()
    stream.current = null
    videoRef.current?.removeAttribute('src')
    videoRef.current?.load()
    setUnplayable(true)
  }

  // play() rejecting and the element's error event can both report one failure: it counts once.
  // The first of a click asks for the work's current sources and plays those if they differ.
  const fail = (error: unknown) => {
    if (failed.current) return
    failed.current = true
    const player = videoRef.current
    if (retried.current || !player) {
      giveUp(error)
      return
    }
    retried.current = true
    const current = attempt.current
    void freshSources(playing.current, currentOf(video)).then((fresh) => {
      // Closed meanwhile (Escape, left fullscreen): nothing to say.
      if (current !== attempt.current || !active.current) return
      if (!fresh) {
        giveUp(error)
        return
      }
      playing.current = fresh
      setRecovered({ from: video, sources: fresh })
      stream.current?.destroy()
      resumeAt.current = 0
      failed.current = false
      stream.current = attachStream(player, fresh)
      startPlaying(player, stream.current, current)
    })
  }

  /** play() once the stream is attached, unless attempt `current` is over by then. */
  const startPlaying = (player: HTMLVideoElement, attached: AttachedStream, current: number) => {
    const start = () => {
      if (current !== attempt.current) return
      player.play().catch((error: unknown) => {
        if (current === attempt.current && !isInterruptedPlay(error)) fail(error)
      })
    }
    if (attached.ready) void attached.ready.then(start)
    else start()
  }

  useEffect(() => {
    if (state !== 'idle' || !restoreFocus.current) return
    restoreFocus.current = false
    buttonRef.current?.focus({ preventScroll: true })
  }, [state])

  // docs/public-site.md: leaving fullscreen pauses the video.
  // biome-ignore lint/correctness/useExhaustiveDependencies: releaseStream reads refs only
  useEffect(() => {
    const onFullscreenChange = () => {
      if (document.fullscreenElement === frameRef.current) {
        wentFullscreen.current = true
      } else if (wentFullscreen.current) {
        wentFullscreen.current = false
        active.current = false
        videoRef.current?.pause()
        releaseStream(false)
        restoreFocus.current = true
        setState('idle')
      }
    }
    document.addEventListener('fullscreenchange', onFullscreenChange)
    return () => document.removeEventListener('fullscreenchange', onFullscreenChange)
  }, [])

  // An unmounted tile keeps no player alive.
  useEffect(
    () => () => {
      stream.current?.destroy()
      clearTimeout(hoverTimer.current)
      clearTimeout(abandonTimer.current)
    },
    [],
  )

  // A pointer on the tile or keyboard focus on it is the last moment to fetch hls.js before a
  // click (the grid's approach usually fetched it already). A visitor saving data gets nothing
  // before the click, here as in the page's first script.
  const intendsToPlay = () => {
    if (needsHlsJs(playing.current) && !savesData()) prefetchHls()
  }

  /** The element's stream: the one a press gave it before React was live, or a new one. */
  const streamFor = (player: HTMLVideoElement) =>
    claimEarlyStream(player, video.loudness?.integrated ?? null) ??
    attachStream(player, playing.current, { startAt: resumeAt.current })

  // Desktop: a press comes ~100 ms before its click; the tile's own element gets its stream then,
  // so the click finds it opened and its first segments appended
  // (docs/decisions/076-a-streams-start-fetched-ahead-and-on-the-press.md). A press that never
  // becomes a click (dragged away, cancelled) releases it again. Before React is live the page's
  // first script does the same (early-player.ts).
  const prepare = (event: React.PointerEvent) => {
    const player = videoRef.current
    if (event.button !== 0 || !player || state !== 'idle') return
    if (isMobileViewport()) {
      prepareModal()
      return
    }
    if (!needsHlsJs(playing.current) || !hlsIfLoaded() || savesData()) return
    stopPreview()
    player.preload = 'auto'
    stream.current ??= streamFor(player)
  }
  const unprepare = () => {
    if (!active.current) releaseStream(false)
  }

  // Phone: the modal's player is made at the press and shown by the click (Work.tsx). A press that
  // becomes a scroll (pointercancel) or is let go without a click lets it go again.
  const modalPressed = useRef(false)
  const abandonTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const prepareModal = () => {
    if (!onPressModal || !playing.current.hlsUrl || savesData()) return
    clearTimeout(abandonTimer.current)
    modalPressed.current = true
    onPressModal(playing.current)
  }
  const abandonModal = () => {
    clearTimeout(abandonTimer.current)
    if (!modalPressed.current) return
    modalPressed.current = false
    onAbandonModal?.(playing.current)
  }
  const releasedModalPress = () => {
    if (!modalPressed.current) return
    clearTimeout(abandonTimer.current)
    abandonTimer.current = setTimeout(abandonModal, CLICK_AFTER_RELEASE_MS)
  }

  const startPreview = () => {
    if (!video.previewUrl || state !== 'idle' || !canPreviewOnHover()) return
    clearTimeout(hoverTimer.current)
    hoverTimer.current = setTimeout(() => setPreviewing(true), HOVER_INTENT_MS)
  }
  const stopPreview = () => {
    clearTimeout(hoverTimer.current)
    setPreviewing(false)
  }

  const play = () => {
    const frame = frameRef.current
    const player = videoRef.current
    if (!frame || !player) return
    setUnplayable(false)
    // docs/public-site.md: below 768 px a video opens in a modal instead of going fullscreen.
    if (isMobileViewport()) {
      clearTimeout(abandonTimer.current)
      modalPressed.current = false
      onOpenModal(playing.current, buttonRef.current ?? frame)
      return
    }
    stopPreview()
    // Fullscreen, unmuted play() and the stream's source all start inside the click: fullscreen
    // and sound need the user's gesture, and Safari wants play() within it too.
    failed.current = false
    retried.current = false
    active.current = true
    player.muted = false
    setState('loading')
    if (frame.requestFullscreen) {
      // Refused fullscreen (a browser setting, an iframe) still plays in the tile.
      frame.requestFullscreen().catch((error) => console.warn('Fullscreen was refused', error))
    }
    player.preload = 'auto'
    stream.current ??= streamFor(player)
    startPlaying(player, stream.current, ++attempt.current)
  }

  const idle = state === 'idle'

  return (
    <li
      className={
        deferred ? '[contain-intrinsic-size:auto_280px] [content-visibility:auto]' : undefined
      }
    >
      <div
        ref={frameRef}
        className="group relative h-[280px] overflow-hidden rounded-sm bg-ink-800 [&:fullscreen]:h-full [&:fullscreen]:rounded-none [&:fullscreen]:bg-black"
      >
        {/* biome-ignore lint/a11y/useMediaCaption: the work's caption tracks come from its stream or are added as <track>s when it plays (player/captions.ts) */}
        <video
          ref={videoRef}
          // TILE_PLAYER_ATTRIBUTE: a press before React is live finds this element by it.
          data-tile-player=""
          preload="none"
          playsInline
          controls={state === 'playing'}
          controlsList="nodownload nofullscreen noremoteplayback"
          disablePictureInPicture
          onPlaying={() => setState('playing')}
          onWaiting={() => setState((current) => (current === 'idle' ? current : 'loading'))}
          onEnded={() => backToIdle(true)}
          onError={() => {
            // A released stream empties the element; only a playback in progress can fail.
            if (active.current) fail(videoRef.current?.error ?? new Error('Video failed to load'))
          }}
          className={`absolute inset-0 size-full bg-black object-cover [:fullscreen_&]:object-contain ${idle ? 'hidden' : ''}`}
        />
        <img
          src={video.thumbnailUrl}
          alt=""
          width={640}
          height={280}
          loading="lazy"
          decoding="async"
          className={`absolute inset-0 size-full object-cover transition-transform duration-700 ease-out-expo group-hover:scale-[1.03] motion-reduce:transition-none [:fullscreen_&]:object-contain ${
            state === 'playing' ? 'invisible' : ''
          }`}
        />

        {idle && previewing && video.previewUrl && (
          <PreviewLoop src={video.previewUrl} onFail={() => setPreviewing(false)} />
        )}

        {idle && (
          <button
            ref={buttonRef}
            type="button"
            onClick={play}
            // start-ahead.ts fetches this stream's start before the click.
            data-stream={sources.hlsUrl ?? undefined}
            data-stream-start={startAttribute(sources)}
            onPointerEnter={(event) => {
              intendsToPlay()
              if (event.pointerType === 'mouse') startPreview()
            }}
            onPointerDown={prepare}
            onPointerUp={releasedModalPress}
            onPointerCancel={() => {
              unprepare()
              abandonModal()
            }}
            onPointerLeave={() => {
              stopPreview()
              unprepare()
              // A lifted finger leaves too, just before its click: the modal waits for it.
              releasedModalPress()
            }}
            onFocus={intendsToPlay}
            aria-label={`Play ${video.title}`}
            className="absolute inset-0 cursor-pointer overflow-hidden text-left outline-none focus-visible:ring-4 focus-visible:ring-accent focus-visible:ring-inset"
          >
            <span className="absolute inset-x-0 bottom-0 flex items-end justify-between gap-4 bg-linear-to-t from-black/75 to-transparent p-5 pt-16 transition-opacity duration-300 group-hover:opacity-0 group-focus-visible:opacity-0">
              <span className="line-clamp-2 text-sm font-medium text-paper">{video.title}</span>
              <span className="grid size-9 shrink-0 place-items-center rounded-full border border-white/30 text-paper">
                <PlayIcon width={14} height={14} />
              </span>
            </span>
            {/* The yellow overlay slides up from below on hover or keyboard focus; over a playing
                preview loop it lets the picture through. */}
            <span
              data-overlay=""
              className={`absolute inset-0 flex translate-y-full flex-col items-center justify-center gap-5 p-6 ${previewing ? 'bg-accent/70' : 'bg-accent'} text-ink-950 transition-transform duration-500 ease-out-expo group-hover:translate-y-0 group-focus-visible:translate-y-0 motion-reduce:transition-none`}
            >
              {video.brandLogoUrl && (
                <img
                  src={video.brandLogoUrl}
                  alt={`${video.title} brand logo`}
                  width={176}
                  height={80}
                  loading="lazy"
                  decoding="async"
                  className="h-20 w-44 object-contain"
                />
              )}
              <span className="flex items-center gap-2 text-xs font-semibold tracking-[0.24em] uppercase">
                <PlayIcon width={14} height={14} /> Play
              </span>
            </span>
          </button>
        )}

        {idle && video.slug ? <ShareLink video={video} /> : null}

        {idle && unplayable ? <CannotPlay /> : null}

        {state === 'loading' && (
          <div
            role="status"
            className="pointer-events-none absolute inset-0 grid place-items-center bg-black/40 text-accent"
          >
            <Spinner />
            <span className="sr-only">Loading video</span>
          </div>
        )}

        {!idle && (
          <button
            type="button"
            onClick={() => backToIdle()}
            aria-label="Close video"
            className="absolute top-5 right-5 hidden size-11 place-items-center rounded-full bg-black/60 text-paper hover:text-accent focus-visible:outline-2 focus-visible:outline-accent [:fullscreen_&]:grid"
          >
            <CloseIcon />
          </button>
        )}
      </div>
    </li>
  )
}

/**
 * Copies the work's own page (/work/<slug>) to the clipboard: a button of its own above the play
 * button, so a click on the tile still plays it (docs/public-site.md). Says what happened for
 * screen readers.
 */
function ShareLink({ video }: { video: PublicVideo }) {
  const [said, setSaid] = useState('')
  const copy = async () => {
    // Read in the click, not the render: the server renders this tile too.
    const url = `${location.origin}/work/${video.slug}`
    try {
      await navigator.clipboard.writeText(url)
      setSaid('Link copied')
    } catch {
      setSaid(`Copy this link: ${url}`)
    }
    setTimeout(() => setSaid(''), 4000)
  }
  return (
    <>
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={`Copy link to ${video.title}`}
        title="Copy link"
        className="absolute top-3 right-3 z-10 grid size-11 place-items-center rounded-full bg-ink-950/70 text-paper transition-opacity hover:text-accent focus-visible:outline-2 focus-visible:outline-accent md:opacity-0 md:group-hover:opacity-100 md:focus-visible:opacity-100"
      >
        <LinkIcon />
      </button>
      <span role="status" className="sr-only">
        {said}
      </span>
      {said ? (
        <span className="pointer-events-none absolute top-16 right-3 z-10 max-w-[calc(100%-1.5rem)] break-all rounded-sm bg-ink-950/85 px-3 py-1.5 text-paper text-xs">
          {said}
        </span>
      ) : null}
    </>
  )
}

/**
 * The hover preview: a short muted loop under the overlay. Mounted only while the pointer rests
 * on the tile, so leaving stops it and releases its download.
 */
function PreviewLoop({ src, onFail }: { src: string; onFail: () => void }) {
  const ref = useRef<HTMLVideoElement>(null)
  useEffect(() => {
    const player = ref.current
    if (!player) return
    // The property, not only the attribute React may skip: autoplay policies read it.
    player.muted = true
    player.play().catch(() => {
      // A preview that cannot play changes nothing: the thumbnail stays.
    })
    return () => {
      player.pause()
      player.removeAttribute('src')
      player.load()
    }
  }, [])
  return (
    <video
      ref={ref}
      src={src}
      muted
      loop
      playsInline
      preload="auto"
      aria-hidden="true"
      tabIndex={-1}
      disablePictureInPicture
      data-preview=""
      onError={onFail}
      className="pointer-events-none absolute inset-0 size-full object-cover"
    />
  )
}
