// The studio's name, from one place: the public page, the sign-in pages and the dashboard (through
// web/src/brand/), the HTML and document titles, the favicon, and the sender of the server's mail.
// No server imports: web/ and scripts/ import this file too.
export const BRAND = {
  name: 'Halftone Studio',
  tagline: 'Music & audio studio',
  /** What the landing page's title says after the name. */
  promise: 'original music, sonic branding and sound design',
} as const

/** 'Sign In · Halftone Studio' for a page; the landing page's title with no page given. */
export function documentTitle(page?: string): string {
  return page ? `${page} · ${BRAND.name}` : `${BRAND.name} — ${BRAND.promise}`
}

/** The From header of the server's mail: the studio's name, then `no-reply@` the site's host. */
export function mailFrom(hostname: string): string {
  return `${BRAND.name} <no-reply@${hostname}>`
}
