// The studio's identity in the pages: its mark and its name, from one place. The public header
// and footer, the sign-in pages and the dashboard's sidebar all draw these; each wraps them in
// its own link (the public page has no router). `data-brand` marks those links for the tests.

import { BRAND } from '@contract/brand.ts'
import type { SVGProps } from 'react'
import { MARK } from './mark.ts'

export { BRAND } from '@contract/brand.ts'

/** The mark alone, in the current text colour; decorative: the name beside it names the link. */
export function BrandMark({ width = 28, height = 28, ...props }: SVGProps<SVGSVGElement>) {
  const { size, ring, dot } = MARK
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      width={width}
      height={height}
      aria-hidden="true"
      focusable="false"
      data-brand-mark=""
      {...props}
    >
      <circle
        cx={ring.cx}
        cy={ring.cy}
        r={ring.r}
        fill="none"
        stroke="currentColor"
        strokeWidth={ring.strokeWidth}
      />
      <circle cx={dot.cx} cy={dot.cy} r={dot.r} fill="currentColor" />
    </svg>
  )
}

/**
 * The mark in the accent colour on an ink tile, as the favicon shows it: for light grounds,
 * where the accent alone would not stand out. `className` sizes the tile.
 */
export function BrandTile({ className = 'size-9' }: { className?: string }) {
  return (
    <span
      className={`grid shrink-0 place-items-center rounded-[28%] bg-ink-950 text-accent ring-1 ring-white/10 ${className}`}
    >
      <BrandMark width="80%" height="80%" />
    </span>
  )
}

/** The studio's name in the display face. `className` sets size and, where needed, hides it. */
export function BrandName({ className = '' }: { className?: string }) {
  return (
    <span className={`font-display leading-none tracking-tight whitespace-nowrap ${className}`}>
      {BRAND.name}
    </span>
  )
}
