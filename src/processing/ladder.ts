// The encoding profiles, in one place: how each rendition is encoded and cut into segments, the
// shared audio rendition, the MP4 and the preview loop. Which renditions a source gets, and their
// names, are the media layout's (src/storage/layout.ts). Change a number here and `media:reprocess`
// re-runs every video with it. Measurements behind the choices:
// docs/decisions/036-adaptive-streams-one-ffmpeg-run-at-superfast.md and bench/README.md
// (processing).
import {
  AUDIO_DIR,
  RENDITION_FILES,
  type RenditionSize,
  RUNG_SHORT_SIDES,
  renditionSizes,
} from '../storage/layout.ts'

/**
 * x264 preset for the ladder. `veryfast` costs 125–131 CPU-s for a 40 s 1080p master on this
 * 2-core machine (≥ 1.6× its duration even on idle cores); `superfast` 77–82 CPU-s (≈ 1.0×) for
 * 0.46 dB less SSIM. Only the preset moved the total.
 */
export const PRESET = 'superfast'

type RungProfile = {
  /** Target, peak and VBV buffer in bit/s. */
  bitrate: number
  maxrate: number
  bufsize: number
}

/** Each standard rung's rates, by its short side (its height for landscape, width for portrait). */
export const RUNGS: Record<(typeof RUNG_SHORT_SIDES)[number], RungProfile> = {
  1080: { bitrate: 5_000_000, maxrate: 5_350_000, bufsize: 10_000_000 },
  720: { bitrate: 3_000_000, maxrate: 3_210_000, bufsize: 6_000_000 },
  480: { bitrate: 1_200_000, maxrate: 1_284_000, bufsize: 2_400_000 },
  360: { bitrate: 600_000, maxrate: 642_000, bufsize: 1_200_000 },
}
const MAXRATE_FACTOR = 1.07
const BUFSIZE_FACTOR = 2
/** A floor under the source cap: a container's bogus bit rate must not starve a rung. */
const MIN_BITRATE = 100_000
/** Above this the extra frames cost bits a portfolio reel does not need. */
export const MAX_FRAME_RATE = 60

/**
 * Segments: a 1 s first segment so the first picture arrives fast on a phone, then 3 s, then 4 s
 * each. Cut by forced key frames at 0, 1, 4, 8, … with `-hls_time` at the first length (the hls
 * muxer cuts at the first key frame after each target): `-hls_init_time` made every segment 1 s
 * in ffmpeg 5.1's VOD mode. Every rung gets the same key frames, so they stay aligned.
 */
export const SEGMENTS = { firstSeconds: 1, seconds: 4 } as const

/** Which segment of that plan a moment (in seconds from the start) falls in: 0, 1, 2… */
export function segmentIndexAt(seconds: number): number {
  return seconds < SEGMENTS.firstSeconds ? 0 : 1 + Math.floor(seconds / SEGMENTS.seconds)
}

/** The one audio rendition every video variant shares (EXT-X-MEDIA group): the studio's mix. */
export const AUDIO = {
  bitrate: 192_000,
  sampleRate: 48_000,
  channels: 2,
  /**
   * Every audio frame is a key frame, so ffmpeg cuts audio at one fixed length only: it writes
   * pieces of this length, regrouped into the video's plan (1 s, 3 s, then 4 s) by regroup.ts.
   * A 4 s first audio segment (96 KB) was a third of what a phone waited for before its picture.
   */
  pieceSeconds: SEGMENTS.firstSeconds,
  /** ffmpeg's template for the pieces; none is left once regrouped. */
  pieces: 'piece_%03d.m4s',
  /** RFC 6381 codec string of AAC-LC, which `-profile:a aac_low` makes. */
  codecs: 'mp4a.40.2',
  groupId: 'aud',
  name: 'Stereo',
  dir: AUDIO_DIR,
} as const

export const PREVIEW = {
  /** Length of the loop (shorter only when the video is). */
  seconds: 4,
  /** Where it starts, as a fraction of the duration: past any black opening, still early. */
  startAt: 0.3,
  /** Fits in this box (≤ 480 px wide). */
  maxSide: 480,
  maxBytes: 500_000,
  /** Made from the rung with this short side (or the largest below it): no decode of the master. */
  fromShort: 480,
  maxFrameRate: 30,
  crf: 26,
  /** Tried in turn until the file fits maxBytes. */
  maxrates: [800_000, 500_000, 250_000],
} as const

export type PlannedRung = RenditionSize & RungProfile

export type LadderSource = { width: number; height: number; videoBitrate: number | null }

const floorEven = (n: number) => Math.max(2, Math.floor(n / 2) * 2)

function capped(profile: RungProfile, sourceBitrate: number | null) {
  if (sourceBitrate === null || sourceBitrate >= profile.bitrate) return profile
  const bitrate = Math.max(MIN_BITRATE, Math.round(sourceBitrate))
  return {
    bitrate,
    maxrate: Math.round(bitrate * MAXRATE_FACTOR),
    bufsize: bitrate * BUFSIZE_FACTOR,
  }
}

/**
 * The renditions of a source of this displayed size (the layout's `renditionSizes`), each with
 * its rates capped at the source's. A source below the lowest rung gets one rendition at its own
 * size, at the 360p rung's rate scaled by its area.
 */
export function planLadder(source: LadderSource): PlannedRung[] {
  return renditionSizes(source).map((size) => {
    const standard = RUNG_SHORT_SIDES.find((side) => `${side}p` === size.name)
    if (standard) return { ...size, ...capped(RUNGS[standard], source.videoBitrate) }
    const area = (size.width * size.height) / (640 * 360)
    const bitrate = Math.max(MIN_BITRATE, Math.round(RUNGS[360].bitrate * area))
    const profile = {
      bitrate,
      maxrate: Math.round(bitrate * MAXRATE_FACTOR),
      bufsize: bitrate * BUFSIZE_FACTOR,
    }
    return { ...size, ...capped(profile, source.videoBitrate) }
  })
}

/** Frame rate the renditions keep: the source's, capped. */
export function outputFrameRate(source: number | null): number | null {
  return source === null ? null : Math.min(source, MAX_FRAME_RATE)
}

/** `-force_key_frames` expression for the segment plan: key frames at 0, first, then every `seconds`. */
export function keyFrameExpression(): string {
  const { firstSeconds: first, seconds } = SEGMENTS
  return `expr:eq(n_forced,0)+eq(n_forced,1)*gte(t,${first})+gte(n_forced,2)*gte(t,(n_forced-1)*${seconds})`
}

/** Filter graph: one decode, optional frame-rate cap, one scale per rung → [v0], [v1], … */
export function scaleGraph(
  videoStream: number,
  rungs: readonly PlannedRung[],
  frameRate: number | null,
): string {
  const head = frameRate !== null && frameRate > MAX_FRAME_RATE ? `fps=${MAX_FRAME_RATE},` : ''
  const labels = rungs.map((_, i) => `[s${i}]`).join('')
  const scales = rungs.map(
    (r, i) => `[s${i}]scale=${r.width}:${r.height}:flags=bicubic,setsar=1,format=yuv420p[v${i}]`,
  )
  return [`[0:${videoStream}]${head}split=${rungs.length}${labels}`, ...scales].join(';')
}

/** Without this, a phone's GPS position and the editor's metadata would travel to every visitor. */
export const STRIP_METADATA = ['-map_metadata', '-1', '-map_chapters', '-1'] as const

/** Encoder options of one video rung. */
export function videoEncoderOptions(rung: PlannedRung, frameRate: number | null): string[] {
  // GOP longer than two segments: only the forced key frames start segments.
  const gop = Math.ceil((outputFrameRate(frameRate) ?? 30) * SEGMENTS.seconds * 2)
  return [
    ...['-c:v', 'libx264', '-preset', PRESET, '-profile:v', 'high', '-pix_fmt', 'yuv420p'],
    ...['-b:v', String(rung.bitrate), '-maxrate', String(rung.maxrate)],
    ...['-bufsize', String(rung.bufsize)],
    ...['-force_key_frames', keyFrameExpression(), '-g', String(gop), '-sc_threshold', '0'],
    ...STRIP_METADATA,
  ]
}

/** Encoder options of the audio rendition: any layout and rate → stereo 48 kHz AAC-LC (soxr). */
export function audioEncoderOptions(): string[] {
  return [
    ...['-c:a', 'aac', '-profile:a', 'aac_low', '-b:a', String(AUDIO.bitrate)],
    // soxr resamples 44.1 → 48 kHz better than swr's default; aresample also does the downmix.
    ...['-af', 'aresample=resampler=soxr', '-ar', String(AUDIO.sampleRate)],
    ...['-ac', String(AUDIO.channels)],
    ...STRIP_METADATA,
  ]
}

/** hls muxer options for one rendition written into `dir` (fMP4 segments, VOD playlist). */
export function hlsOptions(
  dir: string,
  segmentSeconds: number,
  segments: string = RENDITION_FILES.segments,
): string[] {
  return [
    // EVENT while the run lasts: ffmpeg then rewrites each playlist after every segment (a VOD
    // one only at the end), which the growing stream follows (growing.ts); `temp_file` makes
    // every segment and playlist appear whole. The finished playlists are marked VOD afterwards
    // (finishedPlaylist), as the final streams always were.
    ...['-f', 'hls', '-hls_time', String(segmentSeconds), '-hls_playlist_type', 'event'],
    ...['-hls_segment_type', 'fmp4', '-hls_flags', 'independent_segments+temp_file'],
    // Composition offsets may be negative (trun version 1), so the first frame's time in the
    // fragments is 0, where the audio starts. Without it, B-frames put the first frame two frames
    // late for a player that reads the fragments as they are (hls.js): a hole at the start that
    // hls.js waited out and then jumped with a seek (≈300 ms before a phone's first frame), and
    // the picture two frames behind its sound.
    ...['-hls_segment_options', 'movflags=+negative_cts_offsets'],
    ...['-hls_fmp4_init_filename', RENDITION_FILES.init],
    ...['-hls_segment_filename', `${dir}/${segments}`],
  ]
}

/** The preview's size: the rung's aspect, inside PREVIEW.maxSide × PREVIEW.maxSide, even sides. */
export function previewSize(rung: { width: number; height: number }): {
  width: number
  height: number
} {
  const long = Math.max(rung.width, rung.height)
  const side = Math.min(PREVIEW.maxSide, long)
  const fit = (n: number) => floorEven(n === long ? side : (n * side) / long)
  return { width: fit(rung.width), height: fit(rung.height) }
}

/** Encoder options of the muted preview loop (H.264 Main, faststart: plays anywhere on hover). */
export function previewEncoderOptions(
  size: { width: number; height: number },
  frameRate: number | null,
  maxrate: number,
): string[] {
  const fps =
    frameRate !== null && frameRate > PREVIEW.maxFrameRate ? `,fps=${PREVIEW.maxFrameRate}` : ''
  return [
    ...['-an', '-sn', '-dn', '-vf', `scale=${size.width}:${size.height},setsar=1${fps}`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(PREVIEW.crf)],
    ...['-maxrate', String(maxrate), '-bufsize', String(maxrate)],
    ...['-profile:v', 'main', '-pix_fmt', 'yuv420p'],
    ...STRIP_METADATA,
    ...['-movflags', '+faststart', '-f', 'mp4'],
  ]
}

/**
 * Pixels a second the ladder's ffmpeg is granted at the least: 8× below the slowest run measured
 * (a 40 s 1080p30 master in 137 s at load 12, bench/README.md), so only a hang reaches it.
 */
const SLOWEST_PIXELS_PER_SECOND = 4_000_000
const SIX_HOURS_MS = 6 * 3600_000

/**
 * The ladder's ffmpeg gets time for the work it has: every output frame of every rung (output is
 * constant-rate, so a sparse source still costs each frame), plus 10 minutes for start-up and a
 * busy machine; at most 6 hours, below pg-boss's expiry. A tiny picture gets minutes, not hours.
 */
export function ladderTimeoutMs(
  duration: number | null,
  rungs: readonly { width: number; height: number }[],
  frameRate: number | null,
): number {
  if (duration === null) return SIX_HOURS_MS
  const fps = Math.max(outputFrameRate(frameRate) ?? 30, 30)
  const pixels = rungs.reduce((sum, rung) => sum + rung.width * rung.height, 0)
  const seconds = (duration * fps * pixels) / SLOWEST_PIXELS_PER_SECOND
  return Math.min(SIX_HOURS_MS, Math.round(10 * 60_000 + seconds * 1000))
}

/** Remux and preview: copying and a few seconds of encode, bounded by the file's length. */
export function finishingTimeoutMs(duration: number): number {
  return Math.min(SIX_HOURS_MS, 5 * 60_000 + duration * 1_000)
}
