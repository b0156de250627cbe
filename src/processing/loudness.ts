// How loud a master is, by EBU R128 / ITU-R BS.1770 (ffmpeg's ebur128 filter): integrated
// loudness, loudness range and true peak. The players turn a work louder than the site's
// reference down to it (src/contract/loudness.ts). A pass of its own over the source's audio
// only (docs/media.md, "Loudness"): the ladder's run logs errors only, and this one needs the
// filter's summary from the log.

import type { Loudness } from '../videos/job.ts'
import { FfmpegError, runFfmpegForLog } from './ffmpeg.ts'
import { AUDIO } from './ladder.ts'

/** Audio decodes far faster than real time; one thread keeps the ladder's two cores its own. */
const THREADS = 1

/** The arguments after the input: the audio stream as the players hear it (stereo), measured. */
export function loudnessCommand(source: string, audioStream: number) {
  return {
    inputs: [{ path: source }],
    outputs: [
      {
        path: '-',
        options: [
          ...['-map', `0:${audioStream}`, '-vn', '-sn', '-dn'],
          // The same downmix the audio rendition gets; per-frame lines only at `verbose`, so the
          // log stays a few dozen lines whatever the length.
          ...['-ac', String(AUDIO.channels), '-af', 'ebur128=peak=true:framelog=verbose'],
          ...['-f', 'null'],
        ],
      },
    ],
  }
}

const numberAfter = (line: string, label: string): number | null | undefined => {
  const match = new RegExp(`^\\s*${label}:\\s*(-?inf|-?\\d+(?:\\.\\d+)?)\\s`, 'i').exec(`${line} `)
  if (!match) return undefined
  const value = Number(match[1]!.replace(/inf$/i, 'Infinity'))
  return Number.isFinite(value) ? value : null
}

/**
 * The figures from ebur128's log (its last "Summary:"), or null when there is none or it lacks
 * the integrated loudness. Lines may carry the `[Parsed_ebur128_0 @ 0x…]` prefix.
 */
export function parseEbur128Summary(lines: readonly string[]): Loudness | null {
  let start = -1
  for (let i = lines.length - 1; i >= 0; i--) {
    if (/\bSummary:\s*$/.test(lines[i]!)) {
      start = i
      break
    }
  }
  if (start < 0) return null
  let integrated: number | null | undefined
  let range: number | null | undefined
  let truePeak: number | null | undefined
  let section = ''
  for (const line of lines.slice(start + 1)) {
    const heading = /^\s*(Integrated loudness|Loudness range|True peak|Sample peak):\s*$/i.exec(
      line,
    )
    if (heading) {
      section = heading[1]!.toLowerCase()
      continue
    }
    if (section === 'integrated loudness' && integrated === undefined)
      integrated = numberAfter(line, 'I')
    else if (section === 'loudness range' && range === undefined) range = numberAfter(line, 'LRA')
    else if (section === 'true peak' && truePeak === undefined) truePeak = numberAfter(line, 'Peak')
  }
  if (typeof integrated !== 'number') return null
  return { integrated, range: typeof range === 'number' ? range : 0, truePeak: truePeak ?? null }
}

/**
 * Measures `audioStream` of `source`; null when the source has no audio stream. A run that
 * fails or prints no summary is an FfmpegError: the caller decides whether that stops the job.
 */
export async function measureLoudness(
  source: string,
  audioStream: number | null,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<Loudness | null> {
  if (audioStream === null) return null
  const lines = await runFfmpegForLog(loudnessCommand(source, audioStream), {
    ...options,
    threads: THREADS,
  })
  const measured = parseEbur128Summary(lines)
  if (!measured) {
    throw new FfmpegError('exit', 'ffmpeg measured no loudness: its log had no ebur128 summary.')
  }
  return measured
}
