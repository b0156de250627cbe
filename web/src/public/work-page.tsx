// A work's own page (/work/<slug>,
// docs/decisions/052-work-pages-as-the-built-shell-with-their-own-head.md): the studio's header and
// contact footer around the video, its title, description and brand. The server renders it with the
// tags link previews read and puts its data in the page (page-data.ts), so nothing is fetched
// before it draws.
import { type RefObject, useEffect, useRef, useState } from 'react'
import { type CurrentSources, useRecoveringSources } from '../player/recover.ts'
import { useAttachedStream } from '../player/use-stream.ts'
import { CannotPlay } from './cannot-play.tsx'
import { workAt } from './current-work.ts'
import { PlayIcon } from './icons.tsx'
import { logPlayFailure } from './media.ts'
import { SiteShell } from './page-shell.tsx'
import type { PublicVideo } from './public-videos.ts'
import type { PublicSite } from './site-content.ts'
import { startAttribute } from './start-ahead.ts'

/** `site`: the content the server rendered the page with; asked for when not given. */
export function WorkPage({ video, site }: { video: PublicVideo; site?: PublicSite | null }) {
  return (
    <SiteShell away site={site}>
      <article className="mx-auto max-w-5xl px-5 pt-28 pb-20 sm:px-8 md:pt-36">
        <a
          href="/#work"
          className="text-mist text-sm tracking-[0.22em] uppercase hover:text-accent focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent"
        >
          ← All work
        </a>
        <h1 className="mt-6 font-display text-5xl text-paper tracking-tight md:text-7xl">
          {video.title}
        </h1>
        <div className="mt-10">
          <WorkPlayer video={video} current={currentPage} />
        </div>
        <div className="mt-10 grid gap-8 md:grid-cols-[1fr_auto] md:items-start">
          {video.description ? (
            <p className="max-w-2xl whitespace-pre-line text-lg text-mist">{video.description}</p>
          ) : (
            <span />
          )}
          {video.brandLogoUrl ? (
            <img
              src={video.brandLogoUrl}
              alt={`${video.title} brand logo`}
              width={176}
              height={80}
              className="h-20 w-44 rounded-sm bg-accent object-contain p-3"
            />
          ) : null}
        </div>
      </article>
    </SiteShell>
  )
}

/** The work as this page shows it now: the page again, as the server renders it today. */
const currentPage = () => workAt(location.pathname)

/**
 * The poster and a play button; the stream is attached only on the click (hls.js is not part of
 * the page's first load), then plays with native controls. Sources that stopped answering are
 * replaced once by `current`'s (none: the player says at once that it cannot play).
 */
/**
 * A player page code can drive (the review page's notes pause it, read its time and seek it):
 * whether it started, the start, and its <video> once started.
 */
export type PlayerControl = {
  ref: RefObject<HTMLVideoElement | null>
  started: boolean
  start: () => void
}

export function usePlayerControl(): PlayerControl {
  const ref = useRef<HTMLVideoElement>(null)
  const [started, setStarted] = useState(false)
  return { ref, started, start: () => setStarted(true) }
}

export function WorkPlayer({
  video,
  current,
  control,
}: {
  video: PublicVideo
  current?: CurrentSources<PublicVideo>
  control?: PlayerControl
}) {
  const own = usePlayerControl()
  const { ref, started, start } = control ?? own
  const ratio = `${video.width ?? 16} / ${video.height ?? 9}`
  return (
    <div className="relative overflow-hidden rounded-sm bg-black" style={{ aspectRatio: ratio }}>
      {started ? (
        <Playing video={video} current={current} videoRef={ref} />
      ) : (
        <button
          type="button"
          onClick={start}
          // start-ahead.ts fetches this stream's start before the click.
          data-stream={video.hlsUrl ?? undefined}
          data-stream-start={startAttribute(video)}
          aria-label={`Play ${video.title}`}
          className="group absolute inset-0 size-full focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-accent focus-visible:ring-inset"
        >
          <img
            src={video.thumbnailUrl}
            alt=""
            fetchPriority="high"
            className="absolute inset-0 size-full object-cover"
          />
          <span className="absolute inset-0 grid place-items-center bg-black/20 transition group-hover:bg-black/40">
            <span className="grid size-20 place-items-center rounded-full bg-accent text-ink-950">
              <PlayIcon width={28} height={28} />
            </span>
          </span>
        </button>
      )}
    </div>
  )
}

function Playing({
  video,
  current,
  videoRef: ref,
}: {
  video: PublicVideo
  current: CurrentSources<PublicVideo> | undefined
  videoRef: RefObject<HTMLVideoElement | null>
}) {
  const { sources, unplayable, failed } = useRecoveringSources(video, current)
  useAttachedStream(ref, sources, (element) => {
    element.play().catch((error: unknown) => {
      // Refused autoplay or a newer source: the controls are there to press.
      if (error instanceof DOMException && error.name !== 'NotSupportedError') {
        console.warn('Playback did not start', error)
        return
      }
      failed()
    })
  })
  // biome-ignore lint/correctness/useExhaustiveDependencies: the element's error is read when it stops playing, not watched
  useEffect(() => {
    if (unplayable)
      logPlayFailure(video.title, ref.current?.error ?? new Error('No source could play'))
  }, [unplayable, video.title])
  return (
    <>
      {/* biome-ignore lint/a11y/useMediaCaption: the work's caption tracks come from its stream or are added as <track>s when it plays (player/captions.ts) */}
      <video
        ref={ref}
        poster={video.thumbnailUrl}
        controls={!unplayable}
        playsInline
        controlsList="nodownload"
        aria-label={video.title}
        onError={failed}
        className="absolute inset-0 size-full bg-black object-contain"
      />
      {unplayable ? <CannotPlay /> : null}
    </>
  )
}
