// Everything the studio edits on the public page lives here: components only lay it out. Its
// name and mark are the brand module's (web/src/brand/, src/schemas/brand.ts).

export type NavItem = { label: string; target: 'work' | 'about' | 'contact' }

export type Client = {
  /** The alt text read out for the logo (SPEC §2: these exact names). */
  name: string
  /** A file in web/public/clients/. Replace the SVG to swap the art; keep the viewBox ratio. */
  logo: string
  /** Intrinsic size of the artwork, so the grid reserves space before it loads. */
  width: number
  height: number
}

export type TeamMember = {
  name: string
  title: string
  /** Shown as written. */
  phone: string
  email: string
}

export type HeroImage = { width: number; avif: string; webp: string }

export const nav: NavItem[] = [
  { label: 'WORK', target: 'work' },
  { label: 'ABOUT', target: 'about' },
  { label: 'CONTACT', target: 'contact' },
]

export const hero = {
  line: 'Where words leave off, music begins.',
  services: [
    'Original Music',
    'Sonic Branding',
    'Sound Design',
    'Audio Strategy',
    'Music Supervision',
  ],
  /** Art-directed: `narrow` below 768 px, `wide` above. index.html preloads the same sets. */
  images: {
    narrow: [480, 720, 1080].map((width) => heroImage('mobile', width)),
    wide: [1280, 1920, 2560].map((width) => heroImage('wide', width)),
  },
}

function heroImage(variant: 'mobile' | 'wide', width: number): HeroImage {
  const base = `/hero/hero-${variant}-${width}`
  return { width, avif: `${base}.avif`, webp: `${base}.webp` }
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

export const clients: Client[] = clientNames.map((name) => ({
  name,
  logo: `/clients/${slug(name)}.svg`,
  width: 240,
  height: 96,
}))

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

export const work = {
  heading: 'Selected Work',
  intro: 'Scores, sonic identities and sound design for campaigns, series and films.',
}

export const about = {
  heading: 'About',
  lead: 'We set the benchmark of excellence in music and audio services.',
  paragraphs: [
    'From the first spark of an idea to the final mix, we write original music, build sonic identities, design sound and guide audio strategy and music supervision for brands, studios and storytellers who care how they are heard.',
    'Our composers, producers and sound designers work across every genre: orchestral and electronic, hip-hop and folk, jazz, rock and the spaces between. Whatever the brief calls for, we find the sound that belongs to it.',
  ],
  mission:
    'Our mission is simple: to elevate your vision and craft the emotional moments that audiences remember long after the screen goes dark.',
}

// Placeholder people: 555-01xx numbers are reserved for fiction and `.example` never resolves,
// so nobody is called or mailed by mistake before the studio fills in the real ones.
export const contact = {
  heading: 'Contact',
  intro: 'Tell us about your project. We answer every message within one working day.',
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
  ] satisfies TeamMember[],
  address: 'Los Angeles · New York',
}

/** `tel:` wants digits and a leading plus only. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`
}
