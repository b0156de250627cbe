// The shapes in which a video leaves the server: the admins' answer and the public one (no edit
// time, no progress, and `videoUrl` the MP4: visitors never get the master).
import { sql } from 'drizzle-orm'
import { videoCaptions, videos, videoVersions } from '../../db/schema.ts'
import type { CaptionTrack } from '../contract/captions.ts'
import type { GrowingStream } from '../contract/growing-stream.ts'
import type { LoudnessFigures } from '../contract/loudness.ts'
import type { StreamStart } from '../contract/stream-start.ts'
import type { VideoStatus } from '../contract/video.ts'
import { mediaUrl, streamStartFor, streamsUrls } from '../storage/layout.ts'

export type VideoView = {
  _id: string
  title: string
  description: string
  /** The master as uploaded (admins only; the public view names the MP4 here). */
  videoUrl: string
  thumbnailUrl: string
  brandLogoUrl: string
  createdAt: string
  updatedAt: string
  status: VideoStatus
  /** 0–100 while processing; 100 once ready. */
  progress: number
  /** Seconds; null until probed. */
  duration: number | null
  /** Displayed size; null until probed. */
  width: number | null
  height: number | null
  /** Null until the video's streams exist. */
  hlsUrl: string | null
  mp4Url: string | null
  previewUrl: string | null
  /** Why processing failed, when it did. */
  error: string | null
  /** Whether visitors see it (the Manage page's 'Published' switch). */
  published: boolean
  /** Its page is /work/<slug>. */
  slug: string
  /** The master's audio by EBU R128; null without an audio stream, and until measured. */
  loudness: LoudnessFigures | null
  /** Whether the master has an audio stream; null until probed. */
  hasAudio: boolean | null
  /** Caption tracks, by label then language; also while processing (for the MP4 fallback). */
  captions: CaptionTrack[]
  /** The number of the version it plays (docs/review.md#versions). */
  version: number
  /**
   * While processing, once the start of its stream exists: the stream as the encoder makes it
   * (docs/media.md#growing-streams). Admins only; null otherwise.
   */
  growing: GrowingStream | null
}

/** A view's files: what a signed prefix or a review link's path moves. */
type MediaUrls = Pick<
  VideoView,
  'thumbnailUrl' | 'brandLogoUrl' | 'hlsUrl' | 'mp4Url' | 'previewUrl' | 'captions'
>

/**
 * The view with every file's address but `videoUrl` (which each caller settles its own way)
 * passed through `move`: signed for admins, under a review link's path for its page.
 */
export function moveMediaUrls<V extends MediaUrls>(
  view: V,
  move: (url: string) => string,
): V & MediaUrls {
  const moveOrNull = (url: string | null) => (url === null ? null : move(url))
  return {
    ...view,
    thumbnailUrl: move(view.thumbnailUrl),
    brandLogoUrl: move(view.brandLogoUrl),
    hlsUrl: moveOrNull(view.hlsUrl),
    mp4Url: moveOrNull(view.mp4Url),
    previewUrl: moveOrNull(view.previewUrl),
    captions: view.captions.map((track) => ({ ...track, url: move(track.url) })),
  }
}

/** What the public page needs: no edit time, no progress, and `videoUrl` the MP4. */
export type PublicVideoView = Pick<
  VideoView,
  | '_id'
  | 'title'
  | 'description'
  | 'videoUrl'
  | 'thumbnailUrl'
  | 'brandLogoUrl'
  | 'createdAt'
  | 'status'
  | 'duration'
  | 'width'
  | 'height'
  | 'hlsUrl'
  | 'mp4Url'
  | 'previewUrl'
  | 'slug'
  | 'captions'
> & {
  /**
   * What the players level by
   * (docs/decisions/071-loudness-levelled-at-playback-by-element-volume.md).
   */
  loudness: { integrated: number } | null
  /**
   * The files a player asks for first, relative to `hlsUrl`; null without streams
   * (docs/decisions/079-a-streams-first-files-named-in-the-page.md).
   */
  streamStart: StreamStart | null
}

/** A caption track as its row keeps it: `key` is the stored file's name. */
export type StoredCaption = { language: string; label: string; key: string }

/** The order caption tracks are listed in, everywhere: by label, then language. */
const captionsOrder = sql.raw('c.label, c.language')

/**
 * A video's caption tracks as one JSON array beside its other columns: every read and every
 * `returning` of a row carries them, at no extra round trip.
 */
const captionsColumn = sql<StoredCaption[]>`coalesce((
  select json_agg(json_build_object('language', c.language, 'label', c.label, 'key', c.key)
                  order by ${captionsOrder})
    from ${videoCaptions} c where c.video_id = ${videos.id}), '[]'::json)`.mapWith(
  (value: unknown): StoredCaption[] =>
    typeof value === 'string' ? JSON.parse(value) : ((value as StoredCaption[] | null) ?? []),
)

/** The current version's number, beside the row's columns (1 for a row without versions). */
const versionColumn = sql<number>`coalesce((
  select v.number from ${videoVersions} v where v.id = ${videos.currentVersionId}), 1)`.mapWith(
  Number,
)

export const viewColumns = {
  id: videos.id,
  title: videos.title,
  description: videos.description,
  videoKey: videos.videoKey,
  thumbnailKey: videos.thumbnailKey,
  brandLogoKey: videos.brandLogoKey,
  createdAt: videos.createdAt,
  updatedAt: videos.updatedAt,
  status: videos.status,
  progress: videos.progress,
  duration: videos.duration,
  width: videos.width,
  height: videos.height,
  streamsKey: videos.streamsKey,
  hasPreview: videos.hasPreview,
  processingError: videos.processingError,
  published: videos.published,
  slug: videos.slug,
  loudnessIntegrated: videos.loudnessIntegrated,
  loudnessRange: videos.loudnessRange,
  loudnessTruePeak: videos.loudnessTruePeak,
  videoCodec: videos.videoCodec,
  audioCodec: videos.audioCodec,
  growing: videos.growing,
  captions: captionsColumn,
  version: versionColumn,
}
type VideoColumn = Exclude<keyof typeof viewColumns, 'captions' | 'version'>
export type ViewRow = { [K in VideoColumn]: (typeof videos.$inferSelect)[K] } & {
  captions: StoredCaption[]
  version: number
}

/** A stored caption as the answers list it. */
export const captionTrack = (caption: StoredCaption): CaptionTrack => ({
  language: caption.language,
  label: caption.label,
  url: mediaUrl(caption.key),
})

export function toView(row: ViewRow): VideoView {
  // A folder is named only once every output in it is complete; a reprocess keeps serving the
  // previous folder until the new one replaces it.
  const streams = row.streamsKey ? streamsUrls(row.streamsKey) : undefined
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    videoUrl: mediaUrl(row.videoKey),
    thumbnailUrl: mediaUrl(row.thumbnailKey),
    brandLogoUrl: mediaUrl(row.brandLogoKey),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    status: row.status,
    progress: row.progress,
    duration: row.duration,
    width: row.width,
    height: row.height,
    hlsUrl: streams?.hls ?? null,
    mp4Url: streams?.mp4 ?? null,
    // A loop over its size cap was not kept: the tile shows the poster.
    previewUrl: row.hasPreview ? (streams?.preview ?? null) : null,
    error: row.status === 'failed' ? row.processingError : null,
    published: row.published,
    slug: row.slug,
    loudness:
      row.loudnessIntegrated === null
        ? null
        : {
            integrated: row.loudnessIntegrated,
            range: row.loudnessRange ?? 0,
            truePeak: row.loudnessTruePeak,
          },
    // The probe names the video codec of every file it read; the audio codec only if it had one.
    hasAudio: row.videoCodec === null ? null : row.audioCodec !== null,
    captions: row.captions.map(captionTrack),
    version: row.version,
    growing:
      row.status === 'processing' && row.growing && row.growing.rungs.length > 0
        ? {
            hlsUrl: streamsUrls(row.growing.folder).hls,
            rungs: row.growing.rungs,
            planned: row.growing.planned,
            seconds: row.growing.seconds,
            duration: row.growing.duration ?? null,
          }
        : null,
  }
}

/** The master is kept, never sent to visitors once streams exist: then `videoUrl` is the MP4. */
export function toPublicView(view: VideoView): PublicVideoView {
  return {
    _id: view._id,
    title: view.title,
    description: view.description,
    videoUrl: view.mp4Url ?? view.videoUrl,
    thumbnailUrl: view.thumbnailUrl,
    brandLogoUrl: view.brandLogoUrl,
    createdAt: view.createdAt,
    status: view.status,
    duration: view.duration,
    width: view.width,
    height: view.height,
    hlsUrl: view.hlsUrl,
    mp4Url: view.mp4Url,
    previewUrl: view.previewUrl,
    slug: view.slug,
    captions: view.captions,
    loudness: view.loudness && { integrated: view.loudness.integrated },
    streamStart: view.hlsUrl
      ? streamStartFor({ width: view.width, height: view.height, hasAudio: view.hasAudio === true })
      : null,
  }
}
