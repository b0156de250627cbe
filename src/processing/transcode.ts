// processVideo: one source file → adaptive streams, a faststart MP4 and a preview loop, all in
// one folder the caller publishes to the store. The long part is ONE ffmpeg run (one decode, every
// rung and the audio rendition encoded side by side); the MP4 is a remux of a rung and the preview
// is cut from a rung, so neither decodes the master again. Progress: 0–95 through that run (it is
// nearly all of the CPU), 96–99 for the rest; 100 is the caller's, when the row says ready.
import { mkdir, rm, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { mp4RungIndex, OUTPUT_FILES, RENDITION_FILES, shortSide } from '../storage/layout.ts'
import type { Loudness, MediaProbe } from '../videos/job.ts'
import { runFfmpeg } from './ffmpeg.ts'
import type { LadderPlan } from './growing.ts'
import {
  AUDIO,
  audioEncoderOptions,
  finishingTimeoutMs,
  hlsOptions,
  ladderTimeoutMs,
  outputFrameRate,
  type PlannedRung,
  PREVIEW,
  planLadder,
  previewEncoderOptions,
  previewSize,
  SEGMENTS,
  STRIP_METADATA,
  scaleGraph,
  videoEncoderOptions,
} from './ladder.ts'
import { measureLoudness } from './loudness.ts'
import {
  avcCodecString,
  finishedPlaylist,
  masterPlaylist,
  type Rendition,
  readRendition,
  streamInfo,
  type Variant,
} from './playlists.ts'
import { mediaProbe, probeSource, type SourceInfo } from './probe.ts'
import { regroupPieces } from './regroup.ts'

export type ProcessVideoOptions = {
  /** The master file, read only. */
  source: string
  /** Where every output goes (created if missing); nothing is written outside it. */
  outDir: string
  /** Aborting kills ffmpeg; the call then rejects with the signal's reason. */
  signal?: AbortSignal
  /** Whole percent, 0–99, called only when the number grows. */
  onProgress?: (percent: number) => void
  /** A preview loop larger than this is not kept (PREVIEW.maxBytes unless given). */
  previewMaxBytes?: number
  /**
   * Told the ladder's plan as its encoding starts (growing.ts follows it); what it returns is
   * stopped once the encoder has ended, before any file of the run is moved or rewritten.
   */
  onLadder?: (plan: LadderPlan) => { stop(): Promise<void> } | undefined
}

export type RenditionInfo = {
  name: string
  width: number
  height: number
  /** Peak bit/s with the audio (the master's BANDWIDTH). */
  bandwidth: number
  averageBandwidth: number
  codecs: string
}

export type ProcessedVideo = {
  /** Duration measured from the streams when the container did not state it. */
  probe: MediaProbe & { duration: number }
  /** In the master's order: lowest first. */
  renditions: RenditionInfo[]
  files: typeof OUTPUT_FILES
  /** False when no attempt fit PREVIEW.maxBytes: the folder has no preview, tiles show the poster. */
  preview: boolean
  /** The master's audio by EBU R128; null when it has no audio stream. */
  loudness: Loudness | null
}

const LADDER_SHARE = 95

/** Reports whole percents, only upwards. */
function progressReporter(onProgress: ((percent: number) => void) | undefined) {
  let last = 0
  return (percent: number) => {
    const whole = Math.min(99, Math.floor(percent))
    if (whole <= last) return
    last = whole
    onProgress?.(whole)
  }
}

async function encodeLadder(
  info: SourceInfo,
  rungs: readonly PlannedRung[],
  options: ProcessVideoOptions,
  report: (percent: number) => void,
): Promise<void> {
  const { outDir, signal } = options
  await Promise.all(
    [...rungs.map((r) => r.name), ...(info.hasAudio ? [AUDIO.dir] : [])].map((dir) =>
      mkdir(join(outDir, dir), { recursive: true }),
    ),
  )
  // Paths relative to outDir (ffmpeg's cwd): a `%` in DATA_DIR cannot reach the segment template.
  const outputs = rungs.map((rung, i) => ({
    path: `${rung.name}/${RENDITION_FILES.playlist}`,
    options: [
      '-map',
      `[v${i}]`,
      ...videoEncoderOptions(rung, info.frameRate),
      ...hlsOptions(rung.name, SEGMENTS.firstSeconds),
    ],
  }))
  if (info.audioStream !== null) {
    outputs.push({
      path: `${AUDIO.dir}/${RENDITION_FILES.playlist}`,
      options: [
        ...['-map', `0:${info.audioStream}`, '-vn'],
        ...audioEncoderOptions(),
        ...hlsOptions(AUDIO.dir, AUDIO.pieceSeconds, AUDIO.pieces),
      ],
    })
  }
  const duration = info.duration
  const follower = options.onLadder?.({
    rungs: [...rungs].reverse(),
    hasAudio: info.audioStream !== null,
    frameRate: info.frameRate,
    duration,
  })
  try {
    await runFfmpeg(
      {
        inputs: [{ path: options.source }],
        filterComplex: scaleGraph(info.videoStream, rungs, info.frameRate),
        outputs,
      },
      {
        cwd: outDir,
        timeoutMs: ladderTimeoutMs(duration, rungs, info.frameRate),
        ...(signal ? { signal } : {}),
        onProgress: (seconds) => {
          if (duration) report(Math.min(1, seconds / duration) * LADDER_SHARE)
        },
      },
    )
  } finally {
    await follower?.stop()
  }
  await Promise.all(
    rungs.map(async (rung) => {
      const path = join(outDir, rung.name, RENDITION_FILES.playlist)
      await Bun.write(path, finishedPlaylist(await Bun.file(path).text()))
    }),
  )
}

/** video.mp4: the rung's segments and the audio's, copied into one faststart file. */
async function remuxMp4(
  rung: Rendition,
  audio: Rendition | null,
  duration: number,
  options: ProcessVideoOptions,
): Promise<void> {
  const { outDir, signal } = options
  await runFfmpeg(
    {
      // The hls demuxer reads the playlists: no argument grows with the number of segments.
      inputs: [
        { path: `${rung.dir}/${RENDITION_FILES.playlist}` },
        ...(audio ? [{ path: `${audio.dir}/${RENDITION_FILES.playlist}` }] : []),
      ],
      outputs: [
        {
          path: OUTPUT_FILES.mp4,
          options: [
            ...['-map', '0:v:0', ...(audio ? ['-map', '1:a:0'] : []), '-c', 'copy'],
            ...STRIP_METADATA,
            ...['-movflags', '+faststart', '-f', 'mp4'],
          ],
        },
      ],
    },
    { cwd: outDir, timeoutMs: finishingTimeoutMs(duration), ...(signal ? { signal } : {}) },
  )
}

/**
 * preview.mp4: a few seconds from about a third in, cut from whole segments of a small rung
 * (each starts with a key frame, so nothing before them is decoded), re-encoded small. A loop
 * that stays over PREVIEW.maxBytes at the lowest rate is removed (false): a tile is hovered on a
 * phone line too, and its poster is better than a slow loop.
 */
async function makePreview(
  rung: Rendition,
  size: { width: number; height: number },
  frameRate: number | null,
  duration: number,
  options: ProcessVideoOptions,
): Promise<boolean> {
  const { outDir, signal } = options
  const maxBytes = options.previewMaxBytes ?? PREVIEW.maxBytes
  const seconds = Math.min(PREVIEW.seconds, duration)
  const target = duration * PREVIEW.startAt
  const segments = rung.segments
  let first = 0
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!
    if (s.start <= target && s.start + seconds <= duration + 0.05) first = i
  }
  const picked = [segments[first]!]
  let covered = picked[0]!.duration
  for (let i = first + 1; i < segments.length && covered < seconds; i++) {
    picked.push(segments[i]!)
    covered += segments[i]!.duration
  }
  // The concat protocol reads init + segments as one fragmented MP4 (relative to the rung's folder).
  const input = `concat:${[rung.init ?? RENDITION_FILES.init, ...picked.map((s) => s.uri)].join('|')}`
  for (const maxrate of PREVIEW.maxrates) {
    await runFfmpeg(
      {
        inputs: [{ path: input }],
        outputs: [
          {
            path: join(outDir, OUTPUT_FILES.preview),
            options: ['-t', seconds.toFixed(3), ...previewEncoderOptions(size, frameRate, maxrate)],
          },
        ],
      },
      {
        cwd: join(outDir, rung.dir),
        timeoutMs: finishingTimeoutMs(seconds),
        ...(signal ? { signal } : {}),
      },
    )
    if ((await stat(join(outDir, OUTPUT_FILES.preview))).size <= maxBytes) return true
  }
  await rm(join(outDir, OUTPUT_FILES.preview), { force: true })
  return false
}

/**
 * Turns `source` into HLS renditions + audio rendition + master playlist, `video.mp4` and
 * `preview.mp4` inside `outDir`. Throws ProcessingError (with a readable reason) when the source
 * is not a usable video; FfmpegError when ffmpeg fails, times out or is missing. On any failure
 * `outDir` may hold partial files: the caller removes it.
 */
export async function processVideo(given: ProcessVideoOptions): Promise<ProcessedVideo> {
  // ffmpeg runs inside outDir: relative paths would resolve against the wrong folder.
  const options = { ...given, source: resolve(given.source), outDir: resolve(given.outDir) }
  const { outDir, signal } = options
  const report = progressReporter(options.onProgress)
  await mkdir(outDir, { recursive: true })

  const info = await probeSource(options.source, signal)
  const rungs = planLadder(info)
  await encodeLadder(info, rungs, options, report)
  if (info.hasAudio) await regroupPieces(outDir, AUDIO.dir)
  report(LADDER_SHARE)
  signal?.throwIfAborted()

  const [audio, renditions] = await Promise.all([
    info.hasAudio ? readRendition(outDir, AUDIO.dir) : null,
    Promise.all(rungs.map((rung) => readRendition(outDir, rung.name))),
  ])
  const codecs = await Promise.all(
    renditions.map((r) => avcCodecString(join(outDir, r.dir, r.init ?? RENDITION_FILES.init))),
  )
  const top = renditions[0]!
  const duration = info.duration ?? top.segments.reduce((sum, s) => sum + s.duration, 0)
  report(96)

  const loudness = await measureLoudness(options.source, info.audioStream, {
    timeoutMs: finishingTimeoutMs(duration),
    ...(signal ? { signal } : {}),
  })

  const mp4From = mp4RungIndex(rungs)
  await remuxMp4(renditions[mp4From]!, audio, duration, options)
  report(97)

  const previewFrom = rungs.findIndex((r) => shortSide(r) <= PREVIEW.fromShort)
  const preview = await makePreview(
    renditions[previewFrom]!,
    previewSize(rungs[previewFrom]!),
    info.frameRate,
    duration,
    options,
  )
  report(98)

  const frameRate = outputFrameRate(info.frameRate)
  const variants: Variant[] = rungs.map((rung, i) => ({
    uri: `${rung.name}/${RENDITION_FILES.playlist}`,
    width: rung.width,
    height: rung.height,
    frameRate,
    videoCodecs: codecs[i]!,
    bandwidth: renditions[i]!.bandwidth,
  }))
  // Written last: a folder with a master is a finished one.
  await Bun.write(join(outDir, OUTPUT_FILES.master), masterPlaylist(variants, audio))
  report(99)

  return {
    probe: { ...mediaProbe(info), duration },
    renditions: variants
      .map((v, i) => ({
        name: rungs[i]!.name,
        width: v.width,
        height: v.height,
        ...streamInfo(v, audio),
      }))
      .sort((a, b) => a.bandwidth - b.bandwidth),
    files: OUTPUT_FILES,
    preview,
    loudness,
  }
}
