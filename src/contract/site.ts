// The public page's editable content (docs/decisions/037-site-content-as-versions.md): what the
// dashboard's Site page edits, what `site.save` takes and what `GET /api/public/site` gives. Shared
// with web/: no server imports.
import { z } from 'zod'
import { emailSchema } from './auth.ts'
import { MiB } from './limits.ts'
import { DEFAULT_LOUDNESS_REFERENCE, LOUDNESS_REFERENCE } from './loudness.ts'
import { msg } from './messages.ts'
import { plainText } from './text.ts'

// ---- Images -------------------------------------------------------------------------------------

export const imagePurposes = ['heroWide', 'heroMobile', 'logo'] as const
export type ImagePurpose = (typeof imagePurposes)[number]

/**
 * The widths the hero is served at (web/src/public/hero.tsx's `sizes="100vw"` picks one). The
 * mobile middle width covers 375 px phones at 2× and 412 px ones at 1.75× (up to 750 px), which
 * a 720 px file sent to the 1080 px one, half as large again.
 */
export const heroWidths = { heroWide: [1280, 1920, 2560], heroMobile: [480, 750, 1080] } as const

/** Client logos are drawn inside a 5:2 box; raster logos are kept at twice its size. */
export const LOGO_BOX = { width: 240, height: 96 } as const

/**
 * The shapes each role may have, as width ÷ height. The hero is drawn over the whole first
 * screen with `object-cover` (web/src/public/hero.tsx): the wide image on screens from a 4:3
 * tablet to a 32:9 monitor, the mobile one on phones held upright (about 9:21) or turned; a
 * shape far outside those would show a sliver of itself. A logo is drawn whole in a 5:2 box
 * (`object-contain`): taller than 1:2 or longer than 8:1, it would shrink to a speck or a line.
 */
export const imageAspects = {
  heroWide: { min: 1, max: 4, range: '1:1 (square) and 4:1' },
  heroMobile: { min: 1 / 3, max: 4 / 3, range: '1:3 and 4:3' },
  logo: { min: 1 / 2, max: 8, range: '1:2 and 8:1' },
} as const satisfies Record<ImagePurpose, { min: number; max: number; range: string }>

const ROLE_NAMES: Record<ImagePurpose, string> = {
  heroWide: 'The wide hero image',
  heroMobile: 'The mobile hero image',
  logo: 'A client logo',
}

/** The refusal for an image of `width` × `height` pixels in `purpose`, or null when it fits. */
export function aspectRefusal(purpose: ImagePurpose, width: number, height: number) {
  const { min, max, range } = imageAspects[purpose]
  const ratio = width / height
  return ratio >= min && ratio <= max
    ? null
    : `${ROLE_NAMES[purpose]} must be between ${range} in shape (width to height); this one is ${width}×${height} pixels`
}

export const siteImageLimits = {
  bytes: 10 * MiB,
  /** Decoded size cap: a 10 MB file can hold a billion-pixel image ("decompression bomb"). */
  pixels: 50_000_000,
} as const

/**
 * What an SVG logo may hold, counted over its bytes before any parser reads it, and how long the
 * sanitiser may take (docs/decisions/056-svg-logos-within-a-budget-sanitised-on-a-worker.md). A
 * real logo has at most a few thousand elements, a few dozen attributes on one and a few dozen
 * levels of groups. A file at these limits takes about a second to sanitise on an idle core and
 * under five with six busy processes on each, inside `seconds`.
 */
export const svgLimits = {
  bytes: 5 * MiB,
  elements: 5_000,
  attributesPerElement: 100,
  attributes: 50_000,
  depth: 256,
  seconds: 10,
} as const

export const imageMsg = {
  tooLarge: 'Image size must be less than 10MB',
  heroType: msg.imageType,
  logoType: 'Invalid image format. Allowed types: JPEG, PNG, WebP, SVG',
  undecodable: 'The image could not be read. It may be damaged; please export it again.',
  tooManyPixels: 'The image is too large: at most 50 megapixels',
  tooNarrow: (purpose: 'heroWide' | 'heroMobile') =>
    `The ${purpose === 'heroWide' ? 'wide' : 'mobile'} hero image must be at least ${heroWidths[purpose][0]} pixels wide`,
  svgUnsafe: (what: string) =>
    `This SVG contains ${what}, which a logo may not carry. Export it without scripts, event handlers or external references, or upload a PNG or WebP.`,
  svgTooComplex: (what: string) =>
    `This SVG is too complex: ${what}. Simplify it or export it again, or upload a PNG or WebP.`,
  svgTooSlow: `This SVG took too long to check (over ${svgLimits.seconds} seconds). Simplify it, or upload a PNG or WebP.`,
  busy: 'The server is busy converting other images. Please try again in a moment.',
  purpose: 'Unknown image purpose',
  notAvailable: 'This image is no longer available. Please upload it again.',
} as const

/** One file of an image: its URL and its pixel width (for `srcset`). */
const imageFileSchema = z.object({
  url: z.string(),
  width: z.number().int().positive(),
  type: z.enum(['image/avif', 'image/webp', 'image/png', 'image/jpeg', 'image/svg+xml']),
})

/** An image as stored and served: intrinsic size and its files, smallest first per type. */
export const siteImageSchema = z.object({
  id: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  files: z.array(imageFileSchema).min(1),
})
export type SiteImage = z.infer<typeof siteImageSchema>
export type SiteImageFile = SiteImage['files'][number]

/** Images are named by id: a built-in one (`builtin:…`) or an uploaded one (a UUID). */
const IMAGE_ID_RE =
  /^(builtin:[a-z0-9-]{1,60}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/

// ---- Limits and messages ------------------------------------------------------------------------

export const siteLimits = {
  lineMax: 120,
  servicesMax: 8,
  serviceMax: 40,
  clientsMax: 40,
  clientNameMax: 60,
  leadMax: 200,
  paragraphsMax: 6,
  paragraphMax: 1200,
  missionMax: 400,
  introMax: 300,
  addressMax: 120,
  teamMax: 6,
  nameMax: 80,
  titleMax: 80,
  phoneMax: 30,
  phoneMinDigits: 7,
} as const

export const siteMsg = {
  lineRequired: 'The hero line is required',
  lineMax: `The hero line must be at most ${siteLimits.lineMax} characters`,
  serviceRequired: 'A service needs a name',
  serviceMax: `A service must be at most ${siteLimits.serviceMax} characters`,
  servicesMin: 'List at least one service',
  servicesMax: `List at most ${siteLimits.servicesMax} services`,
  imageRequired: 'Upload an image',
  clientNameRequired: 'Client name is required (it is the logo’s alt text)',
  clientNameMax: `A client name must be at most ${siteLimits.clientNameMax} characters`,
  clientLogoRequired: 'Upload a logo for this client',
  clientsMin: 'Keep at least one client',
  clientsMax: `At most ${siteLimits.clientsMax} clients`,
  leadRequired: 'The About headline is required',
  leadMax: `The About headline must be at most ${siteLimits.leadMax} characters`,
  paragraphRequired: 'A paragraph cannot be empty',
  paragraphMax: `A paragraph must be at most ${siteLimits.paragraphMax} characters`,
  paragraphsMin: 'Keep at least one paragraph',
  paragraphsMax: `At most ${siteLimits.paragraphsMax} paragraphs`,
  missionMax: `The mission must be at most ${siteLimits.missionMax} characters`,
  introMax: `The contact intro must be at most ${siteLimits.introMax} characters`,
  addressMax: `The address line must be at most ${siteLimits.addressMax} characters`,
  nameRequired: 'Name is required',
  nameMax: `A name must be at most ${siteLimits.nameMax} characters`,
  titleRequired: 'Job title is required',
  titleMax: `A job title must be at most ${siteLimits.titleMax} characters`,
  phoneRequired: 'Phone is required',
  phoneChars: 'Phone may contain only digits, spaces and + ( ) - .',
  phoneDigits: `Phone must have at least ${siteLimits.phoneMinDigits} digits`,
  phoneMax: `Phone must be at most ${siteLimits.phoneMax} characters`,
  teamMin: 'List at least one team member',
  teamMax: `At most ${siteLimits.teamMax} team members`,
  loudnessReference: `The loudness reference must be between ${LOUDNESS_REFERENCE.min} and ${LOUDNESS_REFERENCE.max} LUFS, in whole or half dB`,
  stale:
    'Someone else changed the site meanwhile. Reload the page to see their version, then make your change again.',
  nothingToUndo: 'Nothing left to undo: the page is back at its earliest version',
} as const

// ---- Editable content ----------------------------------------------------------------------------

const text = (label: string, required: string, max: number, maxMessage: string) =>
  plainText(z.string({ error: required }).trim(), label)
    .min(1, required)
    .max(max, maxMessage)

const imageIdSchema = (required: string) =>
  z.string({ error: required }).min(1, required).regex(IMAGE_ID_RE, required)

/** `+1 (310) 555-0142`, `020 7946 0958`, `+44.20.7946.0958`: digits and the usual separators. */
export const phoneSchema = text(
  'Phone',
  siteMsg.phoneRequired,
  siteLimits.phoneMax,
  siteMsg.phoneMax,
)
  .regex(/^\+?[\d\s().-]+$/, siteMsg.phoneChars)
  .refine((v) => v.replace(/\D/g, '').length >= siteLimits.phoneMinDigits, siteMsg.phoneDigits)

export const teamMemberSchema = z.object({
  name: text('Name', siteMsg.nameRequired, siteLimits.nameMax, siteMsg.nameMax),
  title: text('Job title', siteMsg.titleRequired, siteLimits.titleMax, siteMsg.titleMax),
  phone: phoneSchema,
  email: emailSchema,
})
export type TeamMember = z.infer<typeof teamMemberSchema>

const serviceSchema = text(
  'Service',
  siteMsg.serviceRequired,
  siteLimits.serviceMax,
  siteMsg.serviceMax,
)
const paragraphSchema = plainText(
  z.string({ error: siteMsg.paragraphRequired }).trim(),
  'Paragraph',
  {
    multiline: true,
  },
)
  .min(1, siteMsg.paragraphRequired)
  .max(siteLimits.paragraphMax, siteMsg.paragraphMax)
const optionalLine = (label: string, max: number, maxMessage: string) =>
  plainText(z.string().trim(), label).max(max, maxMessage).default('')

export const clientSchema = z.object({
  name: text(
    'Client name',
    siteMsg.clientNameRequired,
    siteLimits.clientNameMax,
    siteMsg.clientNameMax,
  ),
  logo: imageIdSchema(siteMsg.clientLogoRequired),
})

/**
 * How the players level works
 * (docs/decisions/071-loudness-levelled-at-playback-by-element-volume.md): the reference in LUFS a
 * louder work is turned down to, or null for off. Versions saved before it existed read as the
 * default.
 */
export const loudnessReferenceSchema = z
  .number({ error: siteMsg.loudnessReference })
  .min(LOUDNESS_REFERENCE.min, siteMsg.loudnessReference)
  .max(LOUDNESS_REFERENCE.max, siteMsg.loudnessReference)
  .refine((v) => Number.isInteger(v / LOUDNESS_REFERENCE.step), siteMsg.loudnessReference)
  .nullable()

export const playbackSchema = z
  .object({ loudnessReference: loudnessReferenceSchema })
  .default({ loudnessReference: DEFAULT_LOUDNESS_REFERENCE })
export type Playback = z.output<typeof playbackSchema>

/** The playback settings of a stored version, which may predate them. */
export function playbackOf(content: { playback?: unknown }): Playback {
  const parsed = playbackSchema.safeParse(content.playback)
  return parsed.success ? parsed.data : { loudnessReference: DEFAULT_LOUDNESS_REFERENCE }
}

/** The content as the dashboard edits it and `site.save` takes it: images by id. */
export const siteContentSchema = z.object({
  hero: z.object({
    line: text('Hero line', siteMsg.lineRequired, siteLimits.lineMax, siteMsg.lineMax),
    services: z
      .array(serviceSchema)
      .min(1, siteMsg.servicesMin)
      .max(siteLimits.servicesMax, siteMsg.servicesMax),
    wideImage: imageIdSchema(siteMsg.imageRequired),
    mobileImage: imageIdSchema(siteMsg.imageRequired),
  }),
  clients: z
    .array(clientSchema)
    .min(1, siteMsg.clientsMin)
    .max(siteLimits.clientsMax, siteMsg.clientsMax),
  about: z.object({
    lead: text('About headline', siteMsg.leadRequired, siteLimits.leadMax, siteMsg.leadMax),
    paragraphs: z
      .array(paragraphSchema)
      .min(1, siteMsg.paragraphsMin)
      .max(siteLimits.paragraphsMax, siteMsg.paragraphsMax),
    mission: plainText(z.string().trim(), 'Mission', { multiline: true })
      .max(siteLimits.missionMax, siteMsg.missionMax)
      .default(''),
  }),
  contact: z.object({
    intro: optionalLine('Contact intro', siteLimits.introMax, siteMsg.introMax),
    address: optionalLine('Address line', siteLimits.addressMax, siteMsg.addressMax),
    team: z
      .array(teamMemberSchema)
      .min(1, siteMsg.teamMin)
      .max(siteLimits.teamMax, siteMsg.teamMax),
  }),
  playback: playbackSchema,
})
export type SiteContent = z.output<typeof siteContentSchema>
export type SiteContentInput = z.input<typeof siteContentSchema>

/** A save names the version it was made from, so a change made meanwhile is not overwritten. */
export const saveSiteSchema = z.object({
  baseVersion: z.number().int().nonnegative(),
  content: siteContentSchema,
})
export const undoSiteSchema = z.object({ baseVersion: z.number().int().nonnegative() })

export const addImageSchema = z.object({
  purpose: z.enum(imagePurposes, { error: imageMsg.purpose }),
  bytes: z.instanceof(Uint8Array, {
    error: 'Send the image file as the body of POST /api/site/images?purpose=…',
  }),
})

/** The sections a version changes, as the dashboard and the activity log name them. */
export const siteSections = {
  heroLine: 'hero line',
  services: 'services',
  heroImages: 'hero images',
  clients: 'clients',
  about: 'About text',
  contact: 'contacts',
  playback: 'loudness reference',
} as const
export type SiteSection = keyof typeof siteSections

// ---- The form's shape ------------------------------------------------------------------------------
// react-hook-form's field arrays hold objects, so the form wraps the string lists; the same
// element schemas (and messages) check both shapes.

export const siteFormSchema = siteContentSchema.extend({
  hero: siteContentSchema.shape.hero.extend({
    services: z
      .array(z.object({ value: serviceSchema }))
      .min(1, siteMsg.servicesMin)
      .max(siteLimits.servicesMax, siteMsg.servicesMax),
  }),
  about: siteContentSchema.shape.about.extend({
    paragraphs: z
      .array(z.object({ value: paragraphSchema }))
      .min(1, siteMsg.paragraphsMin)
      .max(siteLimits.paragraphsMax, siteMsg.paragraphsMax),
  }),
})
export type SiteForm = z.input<typeof siteFormSchema>

export function toSiteForm(content: SiteContent): SiteForm {
  return {
    ...content,
    hero: { ...content.hero, services: content.hero.services.map((value) => ({ value })) },
    about: { ...content.about, paragraphs: content.about.paragraphs.map((value) => ({ value })) },
  }
}

export function fromSiteForm(form: z.output<typeof siteFormSchema>): SiteContent {
  return {
    ...form,
    hero: { ...form.hero, services: form.hero.services.map((s) => s.value) },
    about: { ...form.about, paragraphs: form.about.paragraphs.map((p) => p.value) },
  }
}

// ---- What visitors get --------------------------------------------------------------------------

/** The public page's content: the editable content with its images resolved to files. */
export type PublicSite = {
  hero: { line: string; services: string[]; images: { wide: SiteImage; mobile: SiteImage } }
  clients: { name: string; logo: SiteImage }[]
  about: { lead: string; paragraphs: string[]; mission: string }
  contact: { intro: string; address: string; team: TeamMember[] }
  playback: Playback
}
