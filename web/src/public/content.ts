// The public page's fixed words: navigation and headings. What the studio edits (hero, clients,
// About text, contacts) comes from the server (site-content.ts); its name and mark are the brand
// module's (web/src/brand/, src/contract/brand.ts).

export type NavItem = { label: string; target: 'work' | 'about' | 'contact' }

export const nav: NavItem[] = [
  { label: 'WORK', target: 'work' },
  { label: 'ABOUT', target: 'about' },
  { label: 'CONTACT', target: 'contact' },
]

/**
 * The studio's line as the sign-in screens show it (web/src/app/auth/auth-shell.tsx). The public
 * page's hero line is edited in the dashboard and comes from the server.
 */
export const hero = { line: 'Where words leave off, music begins.' }

export const work = {
  heading: 'Selected Work',
  intro: 'Scores, sonic identities and sound design for campaigns, series and films.',
}

export const about = { heading: 'About' }

export const contact = { heading: 'Contact' }

/** `tel:` wants digits and a leading plus only. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`
}
