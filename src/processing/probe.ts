// What a source file holds, from ffprobe, and whether its first frame decodes — both cheap, both
// before the long transcode, so a file that sniffed as video but is not one fails in a second
// with a reason instead of after minutes (or as a broken tile).
import { z } from 'zod'
import type { MediaProbe } from '../videos/job.ts'
import { checkClaims, spanIsJudged } from './claims.ts'
import { FfmpegError, runFfmpeg, runFfprobe } from './ffmpeg.ts'
import { ProcessingError } from './processing-error.ts'

/** What the caller stores on the row. Sizes are as displayed: rotation and pixel aspect applied. */

/** The probe plus what the ladder needs to build its command. */
export type SourceInfo = MediaProbe & {
  /** Absolute stream indexes for `-map 0:N`. */
  videoStream: number
  audioStream: number | null
  /** The video stream's own bit/s, when known (caps the rungs). */
  videoBitrate: number | null
}

const PROBE_TIMEOUT_MS = 2 * 60_000
const FIRST_FRAME_TIMEOUT_MS = 2 * 60_000

const numberLike = z.union([z.number(), z.string()]).optional()
const ffprobeSchema = z.object({
  format: z.object({ duration: numberLike, bit_rate: numberLike }).optional(),
  streams: z
    .array(
      z.object({
        index: z.number(),
        codec_type: z.string().optional(),
        codec_name: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
        sample_aspect_ratio: z.string().optional(),
        avg_frame_rate: z.string().optional(),
        r_frame_rate: z.string().optional(),
        duration: numberLike,
        bit_rate: numberLike,
        nb_frames: numberLike,
        disposition: z.object({ attached_pic: z.number().optional() }).optional(),
        tags: z.record(z.string(), z.string()).optional(),
        side_data_list: z
          .array(z.object({ side_data_type: z.string().optional(), rotation: numberLike }))
          .optional(),
      }),
    )
    .default([]),
})
type FfprobeStream = z.infer<typeof ffprobeSchema>['streams'][number]

function positive(value: unknown): number | null {
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(n) && n > 0 ? n : null
}

/** "30000/1001" → 29.97; "0/0" → null. */
function ratio(value: string | undefined, separator: string): number | null {
  const [a, b] = (value ?? '').split(separator).map(Number)
  return a !== undefined && b !== undefined && a > 0 && b > 0 ? a / b : null
}

function rotationOf(stream: FfprobeStream): number {
  const matrix = stream.side_data_list?.find((d) => d.side_data_type === 'Display Matrix')
  const degrees = Number(matrix?.rotation ?? stream.tags?.rotate ?? 0)
  return Number.isFinite(degrees) ? degrees : 0
}

/** The size a player shows: non-square pixels stretched, a quarter turn swaps the sides. */
function displayedSize(stream: FfprobeStream): { width: number; height: number } | null {
  if (!stream.width || !stream.height) return null
  const sar = ratio(stream.sample_aspect_ratio, ':') ?? 1
  const width = Math.max(1, Math.round(stream.width * sar))
  const height = stream.height
  return Math.abs(rotationOf(stream)) % 180 === 90
    ? { width: height, height: width }
    : { width, height }
}

/** mkvmerge writes a stream's bit rate only as a `BPS` tag. */
function streamBitrate(stream: FfprobeStream | undefined): number | null {
  return positive(stream?.bit_rate) ?? positive(stream?.tags?.BPS)
}

/**
 * Whether ffprobe/ffmpeg gave up on the input (exit code 1). An interrupted or killed program
 * (a shutdown, the OOM killer) says nothing about the file and must stay retryable.
 */
function refusedInput(error: unknown): error is FfmpegError {
  return error instanceof FfmpegError && error.kind === 'exit' && error.exitCode === 1
}

function parse(json: string): z.infer<typeof ffprobeSchema> | null {
  try {
    const parsed = ffprobeSchema.safeParse(JSON.parse(json))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

async function ffprobe(path: string, signal?: AbortSignal): Promise<z.infer<typeof ffprobeSchema>> {
  let json: string
  try {
    json = await runFfprobe(['-print_format', 'json', '-show_format', '-show_streams', path], {
      path,
      timeoutMs: PROBE_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    })
  } catch (error) {
    if (refusedInput(error)) {
      throw new ProcessingError('unreadable', error.detail || error.message)
    }
    throw error
  }
  const data = parse(json)
  if (!data) throw new ProcessingError('unreadable')
  return data
}

const packetsSchema = z.object({
  streams: z.array(z.object({ nb_read_packets: numberLike })).default([]),
})

/**
 * The frames a stream holds. MP4 and MOV state it; Matroska, WebM and Ogg do not, and then the
 * stream's packets are counted (the file is read, nothing is decoded: seconds for 2 GB).
 */
async function frameCount(
  path: string,
  stream: FfprobeStream,
  signal?: AbortSignal,
): Promise<number | null> {
  const stated = positive(stream.nb_frames)
  if (stated !== null) return stated
  let json: string
  try {
    json = await runFfprobe(
      [
        ...['-select_streams', String(stream.index), '-count_packets'],
        ...['-show_entries', 'stream=nb_read_packets', '-print_format', 'json', path],
      ],
      { path, timeoutMs: PROBE_TIMEOUT_MS, ...(signal ? { signal } : {}) },
    )
  } catch (error) {
    if (refusedInput(error)) throw new ProcessingError('unreadable', error.detail || error.message)
    throw error
  }
  try {
    const parsed = packetsSchema.safeParse(JSON.parse(json))
    return parsed.success ? positive(parsed.data.streams[0]?.nb_read_packets) : null
  } catch {
    return null
  }
}

/** Decodes the first video frame: seconds of work that catch a stream no decoder can read. */
async function checkFirstFrame(path: string, stream: number, signal?: AbortSignal): Promise<void> {
  let frames: number
  try {
    const last = await runFfmpeg(
      {
        inputs: [{ path }],
        outputs: [{ path: '-', options: ['-map', `0:${stream}`, '-frames:v', '1', '-f', 'null'] }],
      },
      { timeoutMs: FIRST_FRAME_TIMEOUT_MS, ...(signal ? { signal } : {}) },
    )
    frames = Number(last.frame)
  } catch (error) {
    if (refusedInput(error)) {
      throw new ProcessingError('undecodable', error.detail || error.message)
    }
    throw error
  }
  if (!(frames >= 1)) throw new ProcessingError('undecodable')
}

/**
 * Probes `path` and decodes its first frame. Throws ProcessingError when the file is not a
 * video we can read; FfmpegError (timeout, ffmpeg missing) or the signal's reason otherwise.
 */
export async function probeSource(path: string, signal?: AbortSignal): Promise<SourceInfo> {
  const data = await ffprobe(path, signal)
  // A cover picture in an audio file is a "video" stream of one still image: not a video.
  const streams = data.streams.filter((s) => s.disposition?.attached_pic !== 1)
  const video = streams.find((s) => s.codec_type === 'video')
  const audio = streams.find((s) => s.codec_type === 'audio')
  if (!video) throw new ProcessingError('no-video')
  const duration = positive(data.format?.duration) ?? positive(video.duration)
  // The video stream's own span: a single cover frame beside an hour of sound spans nothing.
  const span = positive(video.duration) ?? duration
  checkClaims({
    duration,
    span,
    frames: spanIsJudged(span) ? await frameCount(path, video, signal) : null,
  })
  await checkFirstFrame(path, video.index, signal)
  const size = displayedSize(video)
  if (!size) throw new ProcessingError('undecodable')

  const bitrate = positive(data.format?.bit_rate)
  const audioBitrate = streamBitrate(audio)
  const videoBitrate =
    streamBitrate(video) ?? (bitrate && audioBitrate ? bitrate - audioBitrate : bitrate)
  return {
    duration,
    width: size.width,
    height: size.height,
    frameRate: ratio(video.avg_frame_rate, '/') ?? ratio(video.r_frame_rate, '/'),
    videoCodec: video.codec_name ?? 'unknown',
    audioCodec: audio ? (audio.codec_name ?? 'unknown') : null,
    bitrate: bitrate === null ? null : Math.round(bitrate),
    hasAudio: audio !== undefined,
    videoStream: video.index,
    audioStream: audio?.index ?? null,
    videoBitrate: videoBitrate === null ? null : Math.round(videoBitrate),
  }
}

/** The contract's probe: the stored fields only. */
export function mediaProbe(info: SourceInfo): MediaProbe {
  const { duration, width, height, frameRate, videoCodec, audioCodec, bitrate, hasAudio } = info
  return { duration, width, height, frameRate, videoCodec, audioCodec, bitrate, hasAudio }
}
