// The studio's mark as data: a ring and a dot, like a speaker cone seen head-on. <BrandMark>
// draws it in the pages and scripts/favicon.ts writes the favicon from it, so the two cannot drift.
// No React here: the favicon script imports this file.
import { BRAND } from '@contract/brand.ts'

export const MARK = {
  size: 32,
  ring: { cx: 16, cy: 16, r: 12, strokeWidth: 2.5 },
  dot: { cx: 16, cy: 16, r: 4 },
} as const

/** The palette's ink and accent (web/src/base.css): the favicon has no stylesheet to ask. */
export const MARK_COLOURS = { ink: '#09090a', accent: '#f7d117' } as const

/**
 * The favicon: the mark in the accent colour on a rounded ink tile, 64 units square. The mark is
 * a nested <svg> with the same viewBox and circles as the page's, scaled to leave an even margin.
 */
export function faviconSvg(): string {
  const { size, ring, dot } = MARK
  const { ink, accent } = MARK_COLOURS
  // 1.6× the mark: 51.2 units, a 6.4-unit margin all round.
  const inner = 51.2
  const at = 6.4
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">',
    `<title>${BRAND.name}</title>`,
    `<rect width="64" height="64" rx="14" fill="${ink}"/>`,
    `<svg aria-hidden="true" x="${at}" y="${at}" width="${inner}" height="${inner}" viewBox="0 0 ${size} ${size}">`,
    `<circle cx="${ring.cx}" cy="${ring.cy}" r="${ring.r}" fill="none" stroke="${accent}" stroke-width="${ring.strokeWidth}"/>`,
    `<circle cx="${dot.cx}" cy="${dot.cy}" r="${dot.r}" fill="${accent}"/>`,
    '</svg></svg>\n',
  ].join('')
}
