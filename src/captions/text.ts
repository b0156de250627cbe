// A caption file's bytes as text: bounded before anything is read, UTF-8 only, no binary, one
// line ending. Every refusal names the line it found the problem on (1-based).
import { CAPTIONS_MAX_BYTES, captionsMessages } from '../contract/captions.ts'

/** A caption file refused for what it holds: `line` is 1-based, or null for the file as a whole. */
export class CaptionsError extends Error {
  override name = 'CaptionsError'
  constructor(
    readonly line: number | null,
    readonly problem: string,
  ) {
    super(line === null ? problem : `Line ${line}: ${problem}`)
  }
}

/** A caption file larger than CAPTIONS_MAX_BYTES, refused before a byte of it is parsed. */
export class CaptionsTooLarge extends Error {
  override name = 'CaptionsTooLarge'
  constructor() {
    super(captionsMessages.tooLarge)
  }
}

const lineAt = (bytes: Uint8Array, offset: number) => {
  let line = 1
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++
  return line
}

/** Where the first byte that does not belong to well-formed UTF-8 is; -1 when there is none. */
export function invalidUtf8At(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]!
    if (b < 0x80) {
      i++
      continue
    }
    let need: number
    let min: number
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80]
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800]
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000]
    else return i
    // A sequence cut off by the end of the file.
    if (i + need >= bytes.length) return i
    let code = b & (0x3f >> need)
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k]!
      if ((c & 0xc0) !== 0x80) return i
      code = (code << 6) | (c & 0x3f)
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    if (code < min || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return i
    i += need + 1
  }
  return -1
}

/**
 * Whether a line holds a control character no caption text has, so the file is not text (tab
 * and form feed are allowed; line ends are gone by now).
 */
function hasControl(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i)
    if ((code < 0x20 && code !== 0x09 && code !== 0x0c) || code === 0x7f) return true
  }
  return false
}

/**
 * The file's lines: size checked first, a UTF-8 byte order mark dropped, CRLF and CR read as
 * line feeds. Throws CaptionsTooLarge or CaptionsError.
 */
export function captionLines(bytes: Uint8Array): string[] {
  if (bytes.length > CAPTIONS_MAX_BYTES) throw new CaptionsTooLarge()
  if (bytes.length === 0) throw new CaptionsError(null, 'The file is empty')
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new CaptionsError(null, 'The file is UTF-16 text: save it as UTF-8')
  }
  const bad = invalidUtf8At(bytes)
  if (bad >= 0) throw new CaptionsError(lineAt(bytes, bad), 'the text is not UTF-8')
  let text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  if (text.startsWith('\uFEFF')) text = text.slice(1)
  const lines = text.split(/\r\n|\r|\n/)
  const binary = lines.findIndex(hasControl)
  if (binary >= 0) throw new CaptionsError(binary + 1, 'the file holds binary data, not text')
  return lines
}
