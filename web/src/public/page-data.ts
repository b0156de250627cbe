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
/**
 * One version a review link's page offers (docs/review.md#versions): the current one, or an
 * earlier ready one, its media under the link's path too.
 */
export type ReviewVersion = { id: string; number: number; current: boolean; video: PublicVideo }
/**
 * A private review link's page: the work alone, its media under the link's path; `versions`, oldest
 * first, the ones its switcher offers (the current one among them).
 */
export type ReviewData = {
  kind: 'review'
  video: PublicVideo
  versions: ReviewVersion[]
  loudnessReference: number | null
}

/** The versions a review page offers; anything malformed is left out, never fatal. */
function reviewVersionsFrom(raw: unknown): ReviewVersion[] {
  if (!Array.isArray(raw)) return []
  return raw.flatMap((item: unknown) => {
    if (!isRecord(item)) return []
    const { id, number, current } = item
    const video = toVideo(item.video)
    if (typeof id !== 'string' || typeof number !== 'number' || !video) return []
    return [{ id, number, current: current === true, video }]
  })
}
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
    if (!video) return null
    return { kind: 'review', video, versions: reviewVersionsFrom(raw.versions), loudnessReference }
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
