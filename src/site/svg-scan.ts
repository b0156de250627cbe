// Cheap looks at an uploaded SVG's bytes, made on the server's main thread before any parser sees
// the file: whether it is an SVG at all, and whether it is within the budget of `svgLimits`. Both
// are single forward passes (no regular expression that can backtrack, no DOM), so a hostile file
// costs milliseconds here; what passes goes to the sanitiser on its worker
// (docs/decisions/056-svg-logos-within-a-budget-sanitised-on-a-worker.md).
import { MiB } from '../contract/limits.ts'
import { svgLimits } from '../contract/site.ts'

const LT = 0x3c
const GT = 0x3e
const SLASH = 0x2f
const BANG = 0x21
const QUESTION = 0x3f
const DASH = 0x2d
const EQUALS = 0x3d
const DQUOTE = 0x22
const SQUOTE = 0x27

const isSpace = (b: number | undefined) =>
  b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d
const isLetter = (b: number | undefined) => b !== undefined && ((b | 0x20) - 0x61) >>> 0 < 26

/** Whether the ASCII `text` is at `at` in `bytes`, ignoring case. */
function startsAt(bytes: Uint8Array, at: number, text: string): boolean {
  if (at + text.length > bytes.length) return false
  for (let k = 0; k < text.length; k++) {
    if ((bytes[at + k]! | 0x20) !== (text.charCodeAt(k) | 0x20)) return false
  }
  return true
}

/** Index just past the first `text` at or after `from`, or the end of the bytes. */
function after(bytes: Uint8Array, from: number, text: string): number {
  const first = text.charCodeAt(0)
  for (let at = bytes.indexOf(first, from); at >= 0; at = bytes.indexOf(first, at + 1)) {
    if (startsAt(bytes, at, text)) return at + text.length
  }
  return bytes.length
}

/**
 * Index just past a comment whose `<!--` ends before `from`, as an HTML parser (which DOMPurify
 * uses) ends it: at the first `-->` or `--!>`, or at once for `<!-->` and `<!--->`.
 */
function commentEnd(bytes: Uint8Array, from: number): number {
  if (bytes[from] === GT) return from + 1
  if (bytes[from] === DASH && bytes[from + 1] === GT) return from + 2
  for (let at = bytes.indexOf(DASH, from); at >= 0; at = bytes.indexOf(DASH, at + 1)) {
    if (bytes[at + 1] !== DASH) continue
    if (bytes[at + 2] === GT) return at + 3
    if (bytes[at + 2] === BANG && bytes[at + 3] === GT) return at + 4
  }
  return bytes.length
}

/** Start tags (`<` and a letter) between `from` and `to`, wherever they are. */
function openersIn(bytes: Uint8Array, from: number, to: number): number {
  let n = 0
  for (let at = bytes.indexOf(LT, from); at >= 0 && at < to; at = bytes.indexOf(LT, at + 1)) {
    if (isLetter(bytes[at + 1])) n++
  }
  return n
}

type Tag = { end: number; attributes: number; selfClosing: boolean; hidden: number }

/** Reads a tag's name and attributes from `from` (just past `<` or `</`) as an HTML parser does. */
function readTag(bytes: Uint8Array, from: number): Tag {
  const n = bytes.length
  let i = from
  while (i < n && !isSpace(bytes[i]) && bytes[i] !== SLASH && bytes[i] !== GT) i++
  let attributes = 0
  let hidden = 0
  for (;;) {
    while (isSpace(bytes[i])) i++
    if (i >= n) return { end: n, attributes, selfClosing: false, hidden }
    if (bytes[i] === GT) return { end: i + 1, attributes, selfClosing: false, hidden }
    if (bytes[i] === SLASH) {
      if (bytes[i + 1] === GT) return { end: i + 2, attributes, selfClosing: true, hidden }
      i++
      continue
    }
    // A name runs to a space, `/`, `>` or `=`; a leading `=` belongs to it.
    i++
    while (i < n && !isSpace(bytes[i]) && bytes[i] !== SLASH && bytes[i] !== GT) {
      if (bytes[i] === EQUALS) break
      i++
    }
    // Past the limit the file is refused: reading the rest of the tag would only cost time.
    if (++attributes > svgLimits.attributesPerElement) {
      return { end: i, attributes, selfClosing: false, hidden }
    }
    while (isSpace(bytes[i])) i++
    if (bytes[i] !== EQUALS) continue
    i++
    while (isSpace(bytes[i])) i++
    const quote = bytes[i]
    if (quote === DQUOTE || quote === SQUOTE) {
      const close = bytes.indexOf(quote, i + 1)
      const end = close < 0 ? n : close + 1
      hidden += openersIn(bytes, i, end)
      i = end
    } else {
      while (i < n && !isSpace(bytes[i]) && bytes[i] !== GT) i++
    }
  }
}

const count = (n: number) => n.toLocaleString('en-US')

/**
 * What in `bytes` is over the SVG budget, in words for the refusal ("more than 10,000 elements"),
 * or null when it is within. Markup the scan takes for a comment, character data or an attribute
 * value still counts as elements wherever `<` and a letter appear, so no parser can find more
 * elements than counted; depth follows the tags as an HTML parser reads them, and what a parser
 * reads differently is bounded by the sanitiser's time limit on its worker.
 */
export function svgOverBudget(bytes: Uint8Array): string | null {
  if (bytes.byteLength > svgLimits.bytes) return `larger than ${svgLimits.bytes / MiB} MB`
  const tooMany = {
    elements: `more than ${count(svgLimits.elements)} elements`,
    attributes: `more than ${count(svgLimits.attributes)} attributes`,
    onOne: `more than ${count(svgLimits.attributesPerElement)} attributes on one element`,
    depth: `elements nested more than ${count(svgLimits.depth)} deep`,
  }
  const n = bytes.length
  let elements = 0
  let attributes = 0
  let depth = 0
  let i = 0
  for (let lt = bytes.indexOf(LT); lt >= 0; lt = bytes.indexOf(LT, i)) {
    i = lt + 1
    const next = bytes[i]
    let skipTo = -1
    if (next === BANG) {
      if (startsAt(bytes, i + 1, '--')) skipTo = commentEnd(bytes, i + 3)
      else if (startsAt(bytes, i + 1, '[CDATA[')) skipTo = after(bytes, i + 8, ']]>')
      else skipTo = after(bytes, i, '>')
    } else if (next === QUESTION) {
      skipTo = after(bytes, i, '>')
    } else if (next === SLASH) {
      if (isLetter(bytes[i + 1])) {
        const tag = readTag(bytes, i + 1)
        elements += tag.hidden
        depth = Math.max(0, depth - 1)
        i = tag.end
      } else {
        skipTo = after(bytes, i, '>')
      }
    } else if (isLetter(next)) {
      const tag = readTag(bytes, i)
      elements += 1 + tag.hidden
      attributes += tag.attributes
      if (tag.attributes > svgLimits.attributesPerElement) return tooMany.onOne
      if (attributes > svgLimits.attributes) return tooMany.attributes
      if (!tag.selfClosing && ++depth > svgLimits.depth) return tooMany.depth
      i = tag.end
    }
    if (skipTo >= 0) {
      elements += openersIn(bytes, i, skipTo)
      i = skipTo
    }
    if (elements > svgLimits.elements) return tooMany.elements
    if (i >= n) break
  }
  return null
}

/** Whether `bytes` look like an SVG document (after an optional BOM, XML prolog and comments). */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 4096)
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0
  for (;;) {
    while (isSpace(head[i])) i++
    if (head[i] !== LT) return false
    if (startsAt(head, i, '<svg')) return isSpace(head[i + 4]) || head[i + 4] === GT
    if (startsAt(head, i, '<?xml')) {
      const end = after(head, i, '?>')
      if (end >= head.length) return false
      i = end
    } else if (startsAt(head, i, '<!--')) {
      const end = after(head, i + 4, '-->')
      if (end >= head.length) return false
      i = end
    } else if (startsAt(head, i, '<!DOCTYPE')) {
      // An internal subset in brackets may hold `>`; the doctype ends at the `>` after it.
      const close = head.indexOf(GT, i)
      const open = head.indexOf(0x5b, i)
      const end = open >= 0 && (close < 0 || open < close) ? after(head, open, ']') : i
      const gt = head.indexOf(GT, end)
      if (gt < 0) return false
      i = gt + 1
    } else {
      return false
    }
  }
}
