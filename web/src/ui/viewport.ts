// The one mobile breakpoint (docs/limits.md: below 768 px is mobile), for scripts and <picture>
// media. Tailwind's `md:` starts at the same width (48rem), so classes and scripts switch together;
// web/index.html's hero preloads repeat the query because HTML cannot import it. No React here:
// the public page's first script reads it too (breakpoint.ts adds the hook).

export const MOBILE_QUERY = '(max-width: 767px)'

export function isMobileViewport(): boolean {
  return window.matchMedia(MOBILE_QUERY).matches
}
