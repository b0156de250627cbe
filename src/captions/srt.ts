// SubRip (SRT) to WebVTT: a header, the timing's decimal commas as points, and the cue numbers
// kept as cue identifiers. Each converted line remembers the line of the SRT file it came from,
// so the WebVTT checks that follow name the admin's own line numbers.
import type { LineSource } from './webvtt.ts'

// 00:00:01,000 (a point is seen too); SubRip's hours may be one digit.
const SRT_TIME = /^(\d{1,}):(\d{2}):(\d{2})[,.](\d{3})$/
const SRT_TIMING = /^(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t]+.*)?$/

/** Whether the text reads as SRT: its first cue is a number and a timing line, or a timing line. */
export function looksLikeSrt(lines: readonly string[]): boolean {
  const start = lines.findIndex((line) => line.trim() !== '')
  if (start < 0) return false
  const first = lines[start]!.trim()
  const timing = /^\d+$/.test(first) ? (lines[start + 1] ?? '') : first
  const match = SRT_TIMING.exec(timing.trim())
  return !!match && SRT_TIME.test(match[1]!) && /,\d{3}$/.test(match[1]!)
}

const vttTime = (time: string) => {
  const match = SRT_TIME.exec(time)
  if (!match) return time
  const [, hours = '', minutes, seconds, millis] = match
  return `${hours.padStart(2, '0')}:${minutes}:${seconds}.${millis}`
}

/**
 * The WebVTT lines of an SRT file's lines, and for each the 1-based line of the SRT it came from
 * (the header's lines name line 1). Cue settings SRT players know (X1… Y2) are dropped; a line
 * that is not what SRT puts there is left as it is, for the WebVTT checks to name.
 */
export function srtToWebVtt(lines: readonly string[]): {
  lines: string[]
  source: LineSource
} {
  const out = ['WEBVTT', '']
  const sources = [1, 1]
  const push = (line: string, source: number) => {
    out.push(line)
    sources.push(source)
  }
  let i = 0
  while (i < lines.length) {
    if (lines[i]!.trim() === '') {
      i++
      continue
    }
    let end = i
    while (end < lines.length && lines[end]!.trim() !== '') end++
    for (let k = i; k < end; k++) {
      const line = lines[k]!
      const timing = SRT_TIMING.exec(line.trim())
      const isTiming = k <= i + 1 && timing
      push(isTiming ? `${vttTime(timing[1]!)} --> ${vttTime(timing[2]!)}` : line.trimEnd(), k + 1)
    }
    push('', end + 1)
    i = end
  }
  return {
    lines: out,
    source: {
      lineOf: (index) => sources[index] ?? 1,
      textOf: (index) => lines[(sources[index] ?? 1) - 1] ?? '',
    },
  }
}
