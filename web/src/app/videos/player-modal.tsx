// Full-screen player: the title, autoplay, controls without download, the thumbnail as poster.
// Processed videos play their stream (hls.js with the public tiles' settings); one still processing
// plays its growing stream from the beginning once the encoder has published some (growing.ts),
// and the final stream from the same moment once it exists; others the master through a
// short-lived signed link: /media gives a failed video's master to no plain <video>, and a browser
// cannot send the bearer token
// (docs/decisions/059-a-master-for-admins-once-streams-exist-signed-links.md).
import { useRef } from 'react'
import type { Video } from '../../api.ts'
import type { StreamSources } from '../../player/streams.ts'
import { useAttachedStream } from '../../player/use-stream.ts'
import { Dialog } from '../components/dialog.tsx'
import { GrowingPanel } from '../components/growing-panel.tsx'
import { Icons } from '../components/ui.tsx'
import { dashboardSources, growingOf } from '../lib/growing.ts'
import { trpc } from '../trpc.ts'

// A link lasts 15 minutes; one asked for when the player opens, never reused after it closes.
const LINK_FRESH_MS = 10 * 60_000

/**
 * `video` as the Manage list holds it now: the list is asked again every PROCESSING_POLL_MS while
 * it processes, so new rungs and the final streams reach an open player.
 */
export function PlayerModal({ video, onClose }: { video: Video; onClose: () => void }) {
  // Streams exist once a video has been processed (and stay while it is processed again); until
  // then hlsUrl is null and the growing stream or the master plays.
  const link = trpc.videos.masterLink.useQuery(
    { id: video._id },
    { enabled: !video.hlsUrl, staleTime: LINK_FRESH_MS, gcTime: 0 },
  )
  const sources = dashboardSources(video, link.data?.url ?? null)
  // Levelled as visitors hear it
  // (docs/decisions/071-loudness-levelled-at-playback-by-element-volume.md): the player waits for
  // the site's reference.
  const site = trpc.site.get.useQuery(undefined, { staleTime: 60_000 })
  const reference = site.data
    ? site.data.content.playback.loudnessReference
    : site.isError
      ? null
      : undefined
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
          {sources && reference !== undefined ? (
            <Player video={video} sources={sources} loudnessReference={reference} />
          ) : (
            <div className="size-full bg-black" aria-hidden="true" />
          )}
        </div>
      </div>
    </Dialog>
  )
}

function Player({
  video,
  sources,
  loudnessReference,
}: {
  video: Video
  sources: StreamSources
  loudnessReference: number | null
}) {
  const videoRef = useRef<HTMLVideoElement>(null)
  const growing = Boolean(growingOf(video))
  useAttachedStream(videoRef, sources, undefined, {
    loudnessReference,
    growing,
    keepPosition: true,
  })
  return (
    <div className="flex size-full flex-col gap-3">
      {/* biome-ignore lint/a11y/useMediaCaption: the work's caption tracks come from its stream or are added as <track>s when it plays (player/captions.ts) */}
      <video
        ref={videoRef}
        poster={video.thumbnailUrl}
        autoPlay
        controls
        controlsList="nodownload"
        disablePictureInPicture
        playsInline
        onContextMenu={(event) => event.preventDefault()}
        className="min-h-0 w-full flex-1 bg-black object-contain"
        aria-label={video.title}
      />
      <GrowingPanel video={video} videoRef={videoRef} dark />
    </div>
  )
}
