// The WebVTT checks a caption file passes before it is kept: the header, every cue's timing line
// (hours optional, then mm:ss.ttt, ending after it starts; cue settings after it are left to the
// players), and no "-->" where it does not belong. The first problem is refused with its line.
// STYLE blocks are dropped from what is kept (withoutStyles): their CSS may load other addresses
// (@import, url()), and the site styles captions itself.
import { CaptionsError } from './text.ts'

const HEADER = /^WEBVTT(?:[ \t].*)?$/
const ARROW = '-->'
const TIMING = /^(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t]+.*)?$/
const TIME = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/
const COMMENT = /^NOTE(?:[ \t]|$)/
const BLOCK = /^(STYLE|REGION)[ \t]*$/
const STYLE = /^STYLE[ \t]*$/

/** Seconds of a WebVTT timestamp, or null when it is not one. */
export function parseTimestamp(text: string): number | null {
  const match = TIME.exec(text)
  if (!match) return null
  const [, hours = '0', minutes = '0', seconds = '0', millis = '0'] = match
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds) + Number(millis) / 1000
}

/** A line as a message quotes it: controls gone, long ones cut. */
export function quote(line: string): string {
  const plain = line.replace(/\s+/g, ' ').trim()
  return `"${plain.length > 60 ? `${plain.slice(0, 57)}...` : plain}"`
}

/**
 * Checks one cue timing line; `line` is the number messages name, `shown` the line as the
 * admin's file has it.
 */
export function checkTiming(text: string, line: number, shown = text): void {
  const match = TIMING.exec(text.trim())
  if (!match) {
    throw new CaptionsError(
      line,
      `the cue timing ${quote(shown)} is not valid: write it as "00:00:01.000 --> 00:00:04.000"`,
    )
  }
  const [, from = '', to = ''] = match
  const start = parseTimestamp(from)
  const end = parseTimestamp(to)
  for (const [time, value] of [
    [from, start],
    [to, end],
  ] as const) {
    if (value === null) {
      throw new CaptionsError(
        line,
        `the time ${quote(time)} is not valid: write it as mm:ss.ttt or hh:mm:ss.ttt`,
      )
    }
  }
  if (end! < start!) {
    throw new CaptionsError(line, `the cue timing ${quote(shown)} ends before it starts`)
  }
  if (end === start)
    throw new CaptionsError(line, `the cue timing ${quote(shown)} ends as it starts`)
}

/** Where a checked line came from: its number and text in the admin's file. */
export type LineSource = { lineOf(index: number): number; textOf(index: number): string }

/**
 * Checks WebVTT `lines` (line feeds already split). `source` maps an index to the admin's file
 * (an SRT file's converted lines name the original's numbers and text). Returns the number of
 * cues.
 */
export function checkWebVtt(
  lines: readonly string[],
  source: LineSource = { lineOf: (i) => i + 1, textOf: (i) => lines[i] ?? '' },
): number {
  const { lineOf } = source
  if (!HEADER.test(lines[0] ?? '')) {
    throw new CaptionsError(
      lineOf(0),
      'the file is neither WebVTT (its first line would be "WEBVTT") nor SRT (a cue number, then a timing line)',
    )
  }
  let i = 1
  // The header's own lines run to the first blank line.
  for (; i < lines.length && lines[i] !== ''; i++) {
    if (lines[i]!.includes(ARROW)) {
      throw new CaptionsError(lineOf(i), 'a blank line must separate the header from the first cue')
    }
  }
  let cues = 0
  while (i < lines.length) {
    if (lines[i] === '') {
      i++
      continue
    }
    const first = i
    let end = i
    while (end < lines.length && lines[end] !== '') end++
    const block = lines.slice(first, end)
    i = end
    const head = block[0]!
    if (COMMENT.test(head)) {
      const arrow = block.findIndex((line) => line.includes(ARROW))
      if (arrow >= 0) throw new CaptionsError(lineOf(first + arrow), 'a NOTE cannot contain "-->"')
      continue
    }
    if (BLOCK.test(head) && !block.some((line) => line.includes(ARROW))) continue
    // A cue: an optional identifier, then its timing line, then its text.
    const timingAt = head.includes(ARROW) ? 0 : 1
    const timing = block[timingAt]
    if (timing === undefined || !timing.includes(ARROW)) {
      throw new CaptionsError(
        lineOf(timing === undefined ? first : first + timingAt),
        timing === undefined
          ? `the cue ${quote(head)} has no timing line such as "00:00:01.000 --> 00:00:04.000"`
          : `expected a cue timing such as "00:00:01.000 --> 00:00:04.000", found ${quote(timing)}`,
      )
    }
    checkTiming(timing, lineOf(first + timingAt), source.textOf(first + timingAt))
    for (let k = timingAt + 1; k < block.length; k++) {
      if (block[k]!.includes(ARROW)) {
        throw new CaptionsError(
          lineOf(first + k),
          'cue text cannot contain "-->": is a blank line missing before this cue?',
        )
      }
    }
    cues++
  }
  if (cues === 0) throw new CaptionsError(null, 'The file holds no cues')
  return cues
}

/**
 * `lines` (already checked) without their STYLE blocks: each block whose first line is `STYLE`
 * and that holds no cue timing, with the blank line after it; every other line as it was.
 */
export function withoutStyles(lines: readonly string[]): string[] {
  const out: string[] = []
  let i = 0
  while (i < lines.length) {
    let end = i
    while (end < lines.length && lines[end] !== '') end++
    const block = lines.slice(i, end)
    // The header block is the file's first, whatever its lines say.
    const style = i > 0 && STYLE.test(block[0] ?? '') && !block.some((l) => l.includes(ARROW))
    if (style) {
      i = end + 1
      continue
    }
    out.push(...block)
    if (end < lines.length) out.push('')
    i = end + 1
  }
  return out
}
