// SVG client logos: sanitised with DOMPurify on a jsdom window, and refused outright when they
// carry anything active. An SVG opened at its own URL is a document of this origin, so no script,
// event handler, external reference or foreignObject may ever reach a visitor
// (docs/decisions/039). What is stored is DOMPurify's output, serialised as XML, whatever the checks below found.
import type { DOMPurify as Purifier } from 'dompurify'

/** `reason` names what active content was found; null when the file is no SVG image at all. */
export type SvgResult = { ok: true; svg: string } | { ok: false; reason: string | null }

const SVG_NS = 'http://www.w3.org/2000/svg'
/** References that stay inside the file (`#id`) or are inline raster images. */
const SAFE_REF = /^\s*(#|data:image\/(png|jpeg|gif|webp);base64,)/i
/** `url(…)` in CSS that points anywhere but `#id`, and `@import`. */
const EXTERNAL_CSS = /@import|url\(\s*['"]?\s*(?!#)/i
const ACTIVE_ELEMENTS = new Set(['script', 'foreignobject', 'iframe', 'object', 'embed', 'handler'])

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

const attribute = (node: Node, name: string) =>
  'getAttribute' in node ? ((node as Element).getAttribute(name) ?? '') : ''

/** Whether `bytes` look like an SVG document (after an optional BOM, XML prolog and comments). */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '')
  return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>\s*)*<svg[\s>]/i.test(
    head,
  )
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
    if (tag === 'style' && EXTERNAL_CSS.test(node.textContent ?? '')) {
      note('an external reference in a style')
      node.textContent = ''
    }
    if ((tag === 'set' || tag === 'animate') && /href/i.test(attribute(node, 'attributeName'))) {
      note('an animated link')
    }
  })
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase()
    if (name.startsWith('on')) note(`an event handler (${name})`)
    else if (
      (name === 'href' || name.endsWith(':href') || name === 'src') &&
      !SAFE_REF.test(data.attrValue)
    ) {
      note('an external reference')
      data.keepAttr = false
    } else if (name === 'style' && EXTERNAL_CSS.test(data.attrValue)) {
      note('an external reference in a style')
      data.keepAttr = false
    }
  })
  try {
    const fragment = purify.sanitize(body, {
      USE_PROFILES: { svg: true, svgFilters: true },
      // Internal `<use href="#id">` is common in exported logos; the hook refuses any other href.
      ADD_TAGS: ['use'],
      RETURN_DOM_FRAGMENT: true,
    })
    if (found.length > 0) return { ok: false, reason: found.join(', ') }
    const root = fragment.firstElementChild
    if (!root || root.namespaceURI !== SVG_NS || root.localName !== 'svg') {
      return { ok: false, reason: null }
    }
    return { ok: true, svg: `<?xml version="1.0" encoding="UTF-8"?>\n${serialize(root)}` }
  } finally {
    purify.removeAllHooks()
  }
}
