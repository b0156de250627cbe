// The content a new instance starts with: the studio's page as it was before it became editable.
// Its images are the built web app's files under web/public/ (stable URLs, which index.html
// preloads), named `builtin:…`; uploaded images are rows of site_images.
import { DEFAULT_LOUDNESS_REFERENCE } from '../contract/loudness.ts'
import { heroWidths, type SiteContent, type SiteImage } from '../contract/site.ts'

function heroImage(
  variant: 'wide' | 'mobile',
  widths: readonly number[],
  ratio: number,
): SiteImage {
  const files = (['image/avif', 'image/webp'] as const).flatMap((type) =>
    widths.map((width) => ({
      url: `/hero/hero-${variant}-${width}.${type === 'image/avif' ? 'avif' : 'webp'}`,
      width,
      type,
    })),
  )
  const width = widths.at(-1) ?? 0
  return { id: `builtin:hero-${variant}`, width, height: Math.round(width * ratio), files }
}

const clientNames = [
  'Nike',
  'Apple TV',
  'Google',
  'Coca Cola',
  'Netflix',
  'Hulu',
  'AT&T',
  'Beats',
  'ESPN',
  'Fitbit',
  'Lionsgate',
  'Showtime',
  'Meta',
  'Comedy Central',
  'Universal Music Group',
] as const

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

const logo = (name: string): SiteImage => ({
  id: `builtin:logo-${slug(name)}`,
  width: 240,
  height: 96,
  files: [{ url: `/clients/${slug(name)}.svg`, width: 240, type: 'image/svg+xml' }],
})

/** Every built-in image by id. */
export const builtinImages: ReadonlyMap<string, SiteImage> = new Map(
  [
    heroImage('wide', heroWidths.heroWide, 9 / 16),
    heroImage('mobile', heroWidths.heroMobile, 16 / 9),
    ...clientNames.map(logo),
  ].map((image) => [image.id, image]),
)

// Placeholder people: 555-01xx numbers are reserved for fiction and `.example` never resolves,
// so nobody is called or mailed by mistake before the studio fills in the real ones.
export const defaultContent: SiteContent = {
  hero: {
    line: 'Where words leave off, music begins.',
    services: [
      'Original Music',
      'Sonic Branding',
      'Sound Design',
      'Audio Strategy',
      'Music Supervision',
    ],
    wideImage: 'builtin:hero-wide',
    mobileImage: 'builtin:hero-mobile',
  },
  clients: clientNames.map((name) => ({ name, logo: `builtin:logo-${slug(name)}` })),
  about: {
    lead: 'We set the benchmark of excellence in music and audio services.',
    paragraphs: [
      'From the first spark of an idea to the final mix, we write original music, build sonic identities, design sound and guide audio strategy and music supervision for brands, studios and storytellers who care how they are heard.',
      'Our composers, producers and sound designers work across every genre: orchestral and electronic, hip-hop and folk, jazz, rock and the spaces between. Whatever the brief calls for, we find the sound that belongs to it.',
    ],
    mission:
      'Our mission is simple: to elevate your vision and craft the emotional moments that audiences remember long after the screen goes dark.',
  },
  contact: {
    intro: 'Tell us about your project. We answer every message within one working day.',
    address: 'Los Angeles · New York',
    team: [
      {
        name: 'Maya Ellison',
        title: 'Executive Producer',
        phone: '+1 (310) 555-0142',
        email: 'maya@halftone.example',
      },
      {
        name: 'Jonah Reyes',
        title: 'Chief Creative Officer',
        phone: '+1 (310) 555-0187',
        email: 'jonah@halftone.example',
      },
    ],
  },
  playback: { loudnessReference: DEFAULT_LOUDNESS_REFERENCE },
}
