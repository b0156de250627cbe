// Below 768 px a chosen video plays in this modal: native controls, autoplay, a close button,
// Escape and outside tap to close, focus kept inside and given back to the tile afterwards.
// A press on a tile makes the modal before its click shows it (`shown` false): the dialog stays
// closed and the player paused while its stream loads, so the click finds it attached and its
// first segments appended, as a desktop tile's own player is at its click.
// Sources that stopped answering are replaced once by the work's current ones; after that the
// modal says the video cannot play (player/recover.ts).
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react'
import { useRecoveringSources } from '../player/recover.ts'
import { useAttachedStream } from '../player/use-stream.ts'
import { useModalDialog } from '../ui/use-modal-dialog.ts'
import { CannotPlay } from './cannot-play.tsx'
import { currentOf } from './current-work.ts'
import { CloseIcon, Spinner } from './icons.tsx'
import { isInterruptedPlay, logPlayFailure, playWithSoundIfAllowed } from './media.ts'
import type { PublicVideo } from './public-videos.ts'

type Props = { video: PublicVideo; onClose: () => void; shown?: boolean }

export function VideoModal({ video, onClose, shown = true }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const videoRef = useRef<HTMLVideoElement>(null)
  const closeRef = useRef<HTMLButtonElement>(null)
  const [loading, setLoading] = useState(true)
  const closed = useRef(false)
  const showing = useRef(shown)
  showing.current = shown
  const attached = useRef(false)

  const current = useMemo(() => currentOf(video), [video])
  const { sources, unplayable, failed } = useRecoveringSources(video, current)

  useEffect(() => {
    if (!unplayable) return
    setLoading(false)
    logPlayFailure(video.title, videoRef.current?.error ?? new Error('No source could play'))
  }, [unplayable, video.title])

  useEffect(() => {
    const player = videoRef.current
    if (!player) return
    closed.current = false
    return () => {
      closed.current = true
      player.pause()
    }
  }, [])

  const play = (player: HTMLVideoElement) => {
    playWithSoundIfAllowed(player).catch((error: unknown) => {
      if (closed.current || isInterruptedPlay(error)) return
      failed()
    })
  }

  // The stream (or file) is attached as the modal is made, played with sound (if allowed) once
  // it is both attached and shown.
  useAttachedStream(videoRef, sources, (player) => {
    attached.current = true
    if (showing.current) play(player)
  })
  // biome-ignore lint/correctness/useExhaustiveDependencies: play reads refs and the latest sources
  useEffect(() => {
    const player = videoRef.current
    if (!shown || !player) return
    closeRef.current?.focus()
    if (attached.current && player.paused) play(player)
  }, [shown])

  return (
    <>
      <dialog
        ref={dialogRef}
        aria-label={video.title}
        className="m-0 h-dvh max-h-none w-screen max-w-none bg-black p-0 text-paper backdrop:bg-black/80"
      >
        <div className="flex h-full flex-col">
          <div className="flex items-center justify-between gap-4 px-5 py-4">
            <h2 className="line-clamp-1 text-sm font-medium tracking-wide">{video.title}</h2>
            <button
              ref={closeRef}
              type="button"
              onClick={onClose}
              aria-label="Close video"
              className="grid size-11 shrink-0 place-items-center rounded-full border border-white/20 hover:text-accent focus-visible:outline-2 focus-visible:outline-accent"
            >
              <CloseIcon />
            </button>
          </div>
          <div className="relative grid flex-1 place-items-center">
            {/* biome-ignore lint/a11y/useMediaCaption: the work's caption tracks come from its stream or are added as <track>s when it plays (player/captions.ts) */}
            <video
              ref={videoRef}
              poster={video.thumbnailUrl}
              controls
              // Not before it is shown: a made modal waits for its click.
              autoPlay={shown}
              preload="auto"
              playsInline
              controlsList="nodownload noremoteplayback"
              disablePictureInPicture
              onPlaying={() => setLoading(false)}
              onWaiting={() => setLoading(true)}
              onError={failed}
              className={`max-h-full w-full bg-black ${unplayable ? 'invisible' : ''}`}
            />
            {unplayable ? <CannotPlay /> : null}
            {loading && (
              <div
                role="status"
                className="pointer-events-none absolute inset-0 grid place-items-center text-accent"
              >
                <Spinner />
                <span className="sr-only">Loading video</span>
              </div>
            )}
          </div>
        </div>
      </dialog>
      {/* After the dialog: its ref is set by the time this shows it. */}
      {shown ? <ShownAsModal dialogRef={dialogRef} onClose={onClose} /> : null}
    </>
  )
}

/**
 * The dialog shown as a modal (top layer, inert page, Escape) while this is mounted: from the
 * click on, not while the modal was only made at the press.
 */
function ShownAsModal({
  dialogRef,
  onClose,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>
  onClose: () => void
}) {
  useModalDialog(dialogRef, onClose)
  return null
}
