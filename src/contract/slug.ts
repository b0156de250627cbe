// A work's address (/work/<slug>), from its title: lower-case ASCII letters and digits in runs
// joined by '-', accents dropped ('Café Noir' → 'cafe-noir'); a title with none of those gets
// 'work'. Shared with web/ so a link can be shown before the server answers.
export const SLUG_MAX = 80

export function slugify(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '')
  return base || 'work'
}

/** What /work/<slug> accepts; anything else is not a work's page (and shows the landing page). */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/
