// Hostile SVG logos, made at run time (no large fixtures): files built to hold the server's main
// thread (attributes, nesting, size, a backtracking head) and files that reach outside through
// CSS escapes and presentation attributes. Shared by tests/site and bench/fuzz.
const SVG_OPEN =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 96" width="240" height="96">'
const encode = (text: string) => new TextEncoder().encode(text)
export const svgOf = (inner: string) => encode(`${SVG_OPEN}${inner}</svg>`)

const manyAttributes = (n: number) =>
  svgOf(`<rect ${Array.from({ length: n }, (_, i) => `data-a${i}="${i}"`).join(' ')}/>`)

/** Files a parser spends seconds to minutes on: each must be refused before one reads it. */
export const heavySvgs = {
  /** 40,000 attributes on one element (~0.6 MB): froze every request for 12.5 s. */
  '40,000 attributes on one element': () => manyAttributes(40_000),
  /** 400,000 attributes (~6.7 MB): froze the server for over 12 minutes. */
  '400,000 attributes on one element (6.7 MB)': () => manyAttributes(400_000),
  /** 40,000 nested groups (~280 KB): 77 s, then a stack overflow. */
  '40,000 nested <g>': () => svgOf(`${'<g>'.repeat(40_000)}${'</g>'.repeat(40_000)}`),
  /** 20,000 small elements spread over the file, each with a few attributes. */
  '20,000 elements': () => svgOf('<rect x="1" y="2" width="3" height="4"/>'.repeat(20_000)),
  /** 600 elements with 99 attributes each (under the limit on one, over it in all). */
  '59,400 attributes in all': () =>
    svgOf(
      `<rect ${Array.from({ length: 99 }, (_, i) => `data-a${i}="1"`).join(' ')}/>`.repeat(600),
    ),
  /** Groups hidden in comments still count as elements. */
  '20,000 elements inside a comment': () => svgOf(`<!--${'<g>'.repeat(20_000)}-->`),
} satisfies Record<string, () => Uint8Array>

/**
 * A head of many comments: the old type check's regular expression backtracked exponentially on
 * it (30 comments took seconds, 40 would take hours).
 */
export const commentBombSvg = () => encode(`${'<!--a-->'.repeat(500)}x`)

const OUT = 'https://listener.example/p'

/** Files that fetch from outside when opened where no CSP applies; every one must be refused. */
export const externalSvgs = {
  'a <style> with url() escaped as \\75 rl(': `<style>rect{fill:\\75 rl(${OUT}/a)}</style><rect width="9" height="9"/>`,
  'a <style> with @import escaped as @\\69mport': `<style>@\\69mport "${OUT}/b.css";</style>`,
  'a <style> with image-set("…")': `<style>rect{fill:image-set("${OUT}/c.png" 1x)}</style><rect width="9" height="9"/>`,
  'a style attribute with an escaped url(': `<rect style="fill:\\75 rl(${OUT}/d)" width="9" height="9"/>`,
  'fill="url(https://…)"': `<rect fill="url(${OUT}/e#g)" width="9" height="9"/>`,
  'filter="url(https://…)"': `<rect filter="url(${OUT}/f#f)" width="9" height="9"/>`,
  'mask="url(https://…)"': `<rect mask="url(${OUT}/g#m)" width="9" height="9"/>`,
  'marker-end="url(https://…)"': `<path marker-end="url(${OUT}/h#m)" d="M0 0L9 9" stroke="#000"/>`,
  'a protocol-relative url(//…) in a style': `<rect style="fill:url(//listener.example/i)" width="9" height="9"/>`,
  'a relative url() in clip-path': `<rect clip-path="url(j.svg#c)" width="9" height="9"/>`,
} satisfies Record<string, string>

/** A logo that refers only to itself: its `url(#grad)` references must survive. */
export const gradientLogo = () =>
  svgOf(
    '<defs><linearGradient id="grad"><stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#08f"/></linearGradient></defs>' +
      '<style>.b{fill:url("#grad")}</style>' +
      '<rect width="240" height="96" fill="url(#grad)"/>' +
      '<rect class="b" x="10" y="10" width="50" height="50" style="stroke: url( #grad )"/>',
  )
