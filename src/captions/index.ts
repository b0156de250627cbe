// A caption file as the site keeps it: WebVTT, whatever the admin gave (SRT is converted), checked
// line by line, without STYLE blocks. Decided by the content, never the file's name.
import { looksLikeSrt, srtToWebVtt } from './srt.ts'
import { captionLines } from './text.ts'
import { checkWebVtt, withoutStyles } from './webvtt.ts'

export { CaptionsError, CaptionsTooLarge } from './text.ts'

const HEADER = /^WEBVTT(?:[ \t]|$)/

/**
 * The WebVTT text to store for a caption file's bytes (line feeds, no byte order mark, a final
 * line feed, no STYLE block: its CSS could load other addresses, and the site styles captions). Throws CaptionsTooLarge over the size limit, CaptionsError naming the wrong line.
 */
export function toWebVtt(bytes: Uint8Array): { text: string; converted: boolean; cues: number } {
  const lines = captionLines(bytes)
  if (!HEADER.test(lines[0] ?? '') && looksLikeSrt(lines)) {
    const srt = srtToWebVtt(lines)
    const cues = checkWebVtt(srt.lines, srt.source)
    return { text: finish(srt.lines), converted: true, cues }
  }
  const cues = checkWebVtt(lines)
  return { text: finish(lines), converted: false, cues }
}

const finish = (lines: readonly string[]) => `${withoutStyles(lines).join('\n').trimEnd()}\n`
