// The data of a server-rendered page
// (docs/decisions/053-public-pages-rendered-on-the-server-live-on-intent.md): the server writes the
// same values its API answers hold into the page, and the server render and the browser both read
// them here, so the markup the browser hydrates is the markup the server sent.
import { DEFAULT_LOUDNESS_REFERENCE } from '@contract/loudness.ts'
import { PAGE_DATA_ID } from '@contract/public-page.ts'
import {
  isRecord,
  type PublicPage,
  type PublicVideo,
  publicPageFrom,
  toVideo,
} from './public-videos.ts'
import { type PublicSite, publicSiteFrom } from './site-content.ts'

export type LandingData = { kind: 'landing'; site: PublicSite | null; page: PublicPage }
export type WorkData = { kind: 'work'; site: PublicSite | null; video: PublicVideo }
/** A private review link's page: the work alone, its media under the link's path. */
export type ReviewData = { kind: 'review'; video: PublicVideo; loudnessReference: number | null }
export type PageData = LandingData | WorkData | ReviewData

function siteOrNull(value: unknown): PublicSite | null {
  try {
    return value === null ? null : publicSiteFrom(value)
  } catch {
    return null
  }
}

/**
 * `{ kind: 'landing', site, videos }` (`videos` as GET /api/public/videos?limit=12 answers it),
 * `{ kind: 'work', site, video }` or `{ kind: 'review', video }`; null when it is none.
 */
export function pageDataFrom(raw: unknown): PageData | null {
  if (!isRecord(raw)) return null
  const site = siteOrNull(raw.site ?? null)
  if (raw.kind === 'review') {
    const video = toVideo(raw.video)
    const reference = raw.loudnessReference
    const loudnessReference =
      reference === null || typeof reference === 'number' ? reference : DEFAULT_LOUDNESS_REFERENCE
    return video ? { kind: 'review', video, loudnessReference } : null
  }
  if (raw.kind === 'work') {
    const video = toVideo(raw.video)
    return video ? { kind: 'work', site, video } : null
  }
  if (raw.kind === 'landing') {
    try {
      return { kind: 'landing', site, page: publicPageFrom(raw.videos) }
    } catch {
      return null
    }
  }
  return null
}

/** The loudness reference the page's players level by (null: off). */
export function loudnessReferenceOf(data: PageData | null): number | null {
  if (!data) return DEFAULT_LOUDNESS_REFERENCE
  if (data.kind === 'review') return data.loudnessReference
  return data.site ? data.site.playback.loudnessReference : DEFAULT_LOUDNESS_REFERENCE
}

/** The data the server put in this page, or null (a page it did not render, e.g. in dev). */
export function readPageData(): PageData | null {
  const text = document.getElementById(PAGE_DATA_ID)?.textContent
  if (!text) return null
  try {
    return pageDataFrom(JSON.parse(text))
  } catch {
    return null
  }
}
