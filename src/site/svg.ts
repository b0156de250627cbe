// SVG client logos: sanitised with DOMPurify on a jsdom window, and refused outright when they
// carry anything active. An SVG opened at its own URL is a document of this origin, and a logo is
// also shown where this site's CSP does not reach (mail, a CDN), so no script, event handler,
// external reference or foreignObject may ever be stored
// (docs/decisions/039-svg-logos-dompurify-on-jsdom-refused-when-active.md). What is stored is
// DOMPurify's output, serialised as XML, after every reference in it was checked. This runs on a
// worker with a time limit (svg-thread.ts), after the byte scan of svg-scan.ts.
import type { DOMPurify as Purifier } from 'dompurify'

/** `reason` names what active content was found; null when the file is no SVG image at all. */
export type SvgResult = { ok: true; svg: string } | { ok: false; reason: string | null }

const SVG_NS = 'http://www.w3.org/2000/svg'
/** References that stay inside the file (`#id`) or are inline raster images. */
const SAFE_REF = /^\s*(#|data:image\/(png|jpeg|gif|webp);base64,)/i
/**
 * What makes CSS fetch something, once its escapes are decoded: `url()` to anywhere but `#id`,
 * `@import` (which takes a bare string) and the functions that take an image as a string
 * (`image-set()`, `image()`, `src()`). Decoding may join what a browser keeps apart (an escaped
 * `(`), which only ever refuses more.
 */
const EXTERNAL_CSS = /@import|url\((?!\s*['"]?\s*#)|image-set\(|(?<![\w-])(image|src)\(/i
const ACTIVE_ELEMENTS = new Set(['script', 'foreignobject', 'iframe', 'object', 'embed', 'handler'])

/** CSS text with its escapes (`\75 `, `\69`, `\(`) replaced by the characters they stand for. */
export function decodeCssEscapes(css: string): string {
  return css.replace(
    /\\(?:([0-9a-f]{1,6})(?:\r\n|[ \t\r\n\f])?|(\r\n|[\n\r\f])|([\s\S]))/gi,
    (_, hex: string | undefined, newline: string | undefined, char: string | undefined) => {
      if (newline) return ''
      if (char !== undefined) return char
      const code = Number.parseInt(hex!, 16)
      const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
      return valid ? String.fromCodePoint(code) : '\uFFFD'
    },
  )
}

/** Whether CSS text (a `<style>`, a `style` attribute or a presentation attribute) fetches. */
export const cssFetches = (css: string) => EXTERNAL_CSS.test(decodeCssEscapes(css))

type Sanitiser = { purify: Purifier; serialize: (node: Node) => string }
let sanitiser: Promise<Sanitiser> | undefined

/** jsdom is large: loaded on the first SVG, then one window serves every later one. */
function load(): Promise<Sanitiser> {
  sanitiser ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([
      import('jsdom'),
      import('dompurify'),
    ])
    const { window } = new JSDOM('')
    const serializer = new window.XMLSerializer()
    return {
      purify: createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]),
      serialize: (node) => serializer.serializeToString(node),
    }
  })()
  return sanitiser
}

/** Loads jsdom and DOMPurify now, so the first file's time limit is spent on the file alone. */
export const warmUp = async () => {
  await load()
}

const attribute = (node: Node, name: string) =>
  'getAttribute' in node ? ((node as Element).getAttribute(name) ?? '') : ''

const isLink = (name: string) => name === 'href' || name.endsWith(':href') || name === 'src'

/**
 * Every reference left in the sanitised tree that leads out of the file, named as the refusal
 * names it. Every attribute of every element is read, whatever its name: a presentation
 * attribute (`fill`, `filter`, `mask`, `marker-end`, `cursor`, …) takes `url()` like CSS does.
 */
function externalReferences(root: Element, note: (what: string) => void) {
  for (const element of [root, ...root.querySelectorAll('*')]) {
    if (element.localName === 'style' && cssFetches(element.textContent ?? '')) {
      note('an external reference in a style')
    }
    for (const { name, value } of element.attributes) {
      const lower = name.toLowerCase()
      if (isLink(lower)) {
        if (!SAFE_REF.test(value)) note('an external reference')
      } else if (cssFetches(value)) {
        note(lower === 'style' ? 'an external reference in a style' : 'an external reference')
      }
    }
  }
}

/** Sanitises an uploaded SVG; anything active is named in `reason` and nothing is kept. */
export async function sanitizeSvg(text: string): Promise<SvgResult> {
  // Entity declarations can expand without bound or smuggle markup past a reader: never needed.
  if (/<!ENTITY|<!DOCTYPE[^>]*\[/i.test(text)) return { ok: false, reason: 'entity declarations' }
  // The prolog and doctype mean nothing to the HTML parser DOMPurify uses; XML serialisation
  // below writes a complete document again.
  const body = text.replace(/^\uFEFF?\s*(<\?xml[^>]*\?>)?\s*(<!DOCTYPE[^>]*>)?/i, '')
  const { purify, serialize } = await load()
  const found: string[] = []
  const note = (what: string) => {
    if (!found.includes(what)) found.push(what)
  }
  purify.addHook('uponSanitizeElement', (node, data) => {
    const tag = data.tagName.toLowerCase()
    if (ACTIVE_ELEMENTS.has(tag)) note(tag === 'foreignobject' ? 'a foreignObject' : `a <${tag}>`)
    if ((tag === 'set' || tag === 'animate') && /href/i.test(attribute(node, 'attributeName'))) {
      note('an animated link')
    }
  })
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase()
    if (name.startsWith('on')) note(`an event handler (${name})`)
    // DOMPurify drops a `javascript:` link before the tree is read below: it is named here.
    else if (isLink(name) && !SAFE_REF.test(data.attrValue)) note('an external reference')
  })
  try {
    const fragment = purify.sanitize(body, {
      USE_PROFILES: { svg: true, svgFilters: true },
      // Internal `<use href="#id">` is common in exported logos; the check refuses any other href.
      ADD_TAGS: ['use'],
      RETURN_DOM_FRAGMENT: true,
    })
    const root = fragment.firstElementChild
    if (root) externalReferences(root, note)
    if (found.length > 0) return { ok: false, reason: found.join(', ') }
    if (!root || root.namespaceURI !== SVG_NS || root.localName !== 'svg') {
      return { ok: false, reason: null }
    }
    return { ok: true, svg: `<?xml version="1.0" encoding="UTF-8"?>\n${serialize(root)}` }
  } finally {
    purify.removeAllHooks()
  }
}
