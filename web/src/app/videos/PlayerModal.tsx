// Full-screen player: the title, autoplay, controls without download, the thumbnail as poster.
// Processed videos play their stream (hls.js with the public tiles' settings), others the master.
import { useRef } from 'react'
import type { Video } from '../../api.ts'
import { useAttachedStream } from '../../player/use-stream.ts'
import { Dialog } from '../components/Dialog.tsx'
import { Icons } from '../components/ui.tsx'

export function PlayerModal({ video, onClose }: { video: Video; onClose: () => void }) {
  const videoRef = useRef<HTMLVideoElement>(null)
  // Streams exist once a video has been processed (and stay while it is processed again); until
  // then hlsUrl is null and the master plays, as it was uploaded.
  useAttachedStream(videoRef, video)
  return (
    <Dialog
      title={video.title}
      onClose={onClose}
      size="full"
      hideTitle
      className="bg-black text-white dark:bg-black dark:text-white"
    >
      <div className="flex h-full flex-col">
        <div className="flex items-center gap-3 px-4 py-3">
          <p className="min-w-0 flex-1 truncate font-semibold text-lg" aria-hidden="true">
            {video.title}
          </p>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close player"
            className="inline-flex size-10 items-center justify-center rounded-full bg-white/10 hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-accent"
          >
            <Icons.close />
          </button>
        </div>
        <div className="flex min-h-0 flex-1 items-center justify-center p-2 sm:p-6">
          {/* biome-ignore lint/a11y/useMediaCaption: portfolio reels have no caption tracks */}
          <video
            ref={videoRef}
            poster={video.thumbnailUrl}
            autoPlay
            controls
            controlsList="nodownload"
            disablePictureInPicture
            playsInline
            onContextMenu={(event) => event.preventDefault()}
            className="size-full bg-black object-contain"
            aria-label={video.title}
          />
        </div>
      </div>
    </Dialog>
  )
}
