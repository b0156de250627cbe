// Hostile SVG logos, made at run time (no large fixtures): files built to hold the server's main
// thread (attributes, nesting, size, a backtracking head) and files that reach outside through
// CSS escapes and presentation attributes. Shared by tests/site, tests/fuzz and bench/fuzz.
import fc from 'fast-check'

const SVG_OPEN =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 96" width="240" height="96">'
const encode = (text: string) => new TextEncoder().encode(text)
export const svgOf = (inner: string) => encode(`${SVG_OPEN}${inner}</svg>`)

const manyAttributes = (n: number) =>
  svgOf(`<rect ${Array.from({ length: n }, (_, i) => `data-x${i}="ab"`).join(' ')}/>`)

/** Files a parser spends seconds to minutes on: each must be refused before one reads it. */
export const heavySvgs = {
  /** 40,000 attributes on one element (about 0.7 MB): froze every request for 12.5 s. */
  '40,000 attributes on one element': () => manyAttributes(40_000),
  /** 400,000 attributes (about 7 MB): froze the server for over 12 minutes. */
  '400,000 attributes on one element (about 7 MB)': () => manyAttributes(400_000),
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

// ---- Generated variants (fast-check), for tests/fuzz and bench/fuzz ------------------------------

const urlSpellings = [
  'url(',
  'URL(',
  '\\75 rl(',
  '\\000075rl(',
  'u\\72 l(',
  'u\\rl(',
  '\\55 \\52 \\4c (',
]
const importSpellings = ['@import', '@IMPORT', '@\\69mport', '@\\000069 mport', '@i\\6d port']
const imageSetSpellings = ['image-set(', '-webkit-image-set(', 'image-\\73 et(', '\\69mage-set(']
const targets = [
  `${OUT}/k`,
  '//listener.example/l',
  'm.svg#a',
  `"${OUT}/n"`,
  "'  //listener.example/o'",
]
const properties = [
  'fill',
  'stroke',
  'filter',
  'mask',
  'clip-path',
  'marker-start',
  'marker-mid',
  'marker-end',
  'cursor',
]
const inAttribute = (text: string) => text.replaceAll('"', '&quot;')

/** An SVG reaching outside through one of many spellings, properties and places. */
export const externalSvgArbitrary = fc
  .tuple(
    fc.constantFrom(...urlSpellings),
    fc.constantFrom(...importSpellings),
    fc.constantFrom(...imageSetSpellings),
    fc.constantFrom(...targets),
    fc.constantFrom(...properties),
    fc.nat(4),
  )
  .map(([url, atImport, imageSet, target, property, place]) => {
    const css = `${property}:${url}${target})`
    const inner = [
      `<style>rect{${css}}</style><rect width="9" height="9"/>`,
      `<rect style="${inAttribute(css)}" width="9" height="9"/>`,
      `<rect ${property}="${inAttribute(`${url}${target})`)}" width="9" height="9"/>`,
      `<style>${atImport} ${target.startsWith('"') ? target : `"${target}"`};</style>`,
      `<style>rect{fill:${imageSet}${target.startsWith('"') ? target : `"${target}"`} 1x)}</style><rect width="9" height="9"/>`,
    ][place]!
    return svgOf(inner)
  })

const cached = new Map<string, Uint8Array>()
/** Over the budget in one of many ways, with the review's files among them (made once each). */
export const heavySvgArbitrary = fc.oneof(
  fc.constantFrom(...(Object.keys(heavySvgs) as (keyof typeof heavySvgs)[])).map((name) => {
    if (!cached.has(name)) cached.set(name, heavySvgs[name]())
    return cached.get(name)!
  }),
  fc.integer({ min: 101, max: 60_000 }).map(manyAttributes),
  fc.integer({ min: 257, max: 40_000 }).map((n) => svgOf(`${'<g>'.repeat(n)}${'</g>'.repeat(n)}`)),
  fc.integer({ min: 5_001, max: 25_000 }).map((n) => svgOf('<path d="M0 0L1 1"/>'.repeat(n))),
)

/**
 * Whether a stored SVG names anything outside itself: a scheme, `//`, an escape or a file name
 * (the XML namespace is a name, not a fetch).
 */
export const svgReachesOut = (svg: string) =>
  /http|\/\/|\\|listener|m\.svg/i.test(svg.replaceAll('xmlns="http://www.w3.org/2000/svg"', ''))
