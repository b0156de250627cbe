// The public page's editable content: in the page when the server rendered it (page-data.ts),
// otherwise from GET /api/public/site with plain fetch (the public bundle carries no query or
// schema library), asked for once per page load.
import { DEFAULT_LOUDNESS_REFERENCE } from '@contract/loudness.ts'
import type { PublicSite, SiteImage } from '@contract/site.ts'

export type { PublicSite, SiteImage }

const URL = '/api/public/site'
const RETRY_DELAYS_MS = [500, 1500]

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null
const strings = (value: unknown) =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
const text = (value: unknown) => (typeof value === 'string' ? value : '')

function image(value: unknown): SiteImage | null {
  if (!isRecord(value) || !Array.isArray(value.files)) return null
  const files = value.files.filter(
    (f): f is SiteImage['files'][number] =>
      isRecord(f) && typeof f.url === 'string' && typeof f.width === 'number',
  )
  if (files.length === 0 || typeof value.width !== 'number' || typeof value.height !== 'number')
    return null
  return { id: text(value.id), width: value.width, height: value.height, files }
}

/** The answer's content; anything malformed is dropped item by item rather than failing. */
export function parsePublicSite(body: unknown): PublicSite {
  if (!isRecord(body) || body.status !== 'success' || !isRecord(body.data)) {
    throw new Error(`Unexpected answer from ${URL}`)
  }
  return publicSiteFrom(body.data.site)
}

/** The answer's `site` (also what the server puts in a rendered page) as the page's content. */
export function publicSiteFrom(site: unknown): PublicSite {
  if (!isRecord(site) || !isRecord(site.hero) || !isRecord(site.about) || !isRecord(site.contact))
    throw new Error(`Unexpected answer from ${URL}`)
  const { hero, about, contact } = site
  const images = isRecord(hero.images) ? hero.images : {}
  const wide = image(images.wide)
  const mobile = image(images.mobile)
  if (!wide || !mobile) throw new Error(`Unexpected answer from ${URL}`)
  return {
    hero: { line: text(hero.line), services: strings(hero.services), images: { wide, mobile } },
    clients: (Array.isArray(site.clients) ? site.clients : []).flatMap((c) => {
      const logo = isRecord(c) ? image(c.logo) : null
      return logo && isRecord(c) ? [{ name: text(c.name), logo }] : []
    }),
    about: {
      lead: text(about.lead),
      paragraphs: strings(about.paragraphs),
      mission: text(about.mission),
    },
    contact: {
      intro: text(contact.intro),
      address: text(contact.address),
      team: (Array.isArray(contact.team) ? contact.team : []).flatMap((m) =>
        isRecord(m)
          ? [
              {
                name: text(m.name),
                title: text(m.title),
                phone: text(m.phone),
                email: text(m.email),
              },
            ]
          : [],
      ),
    },
    playback: { loudnessReference: referenceFrom(site.playback) },
  }
}

/** An answer without the setting (an older server) levels at the default; null is "off". */
function referenceFrom(playback: unknown): number | null {
  if (!isRecord(playback)) return DEFAULT_LOUDNESS_REFERENCE
  const value = playback.loudnessReference
  if (value === null) return null
  return typeof value === 'number' && Number.isFinite(value) ? value : DEFAULT_LOUDNESS_REFERENCE
}

async function fetchOnce(): Promise<PublicSite> {
  const response = await fetch(URL)
  if (!response.ok) throw new Error(`GET ${URL} answered ${response.status}`)
  return parsePublicSite(await response.json())
}

async function load(): Promise<PublicSite | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce()
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt]
      if (delay === undefined) {
        // As for the videos (docs/public-site.md): logged; the page shows what it has without this
        // content.
        console.error('Could not load the site content', error)
        return null
      }
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }
}

let pending: Promise<PublicSite | null> | undefined

/** The content, fetched once per page load (null when the server could not give it). */
export const publicSite = () => {
  pending ??= load()
  return pending
}
