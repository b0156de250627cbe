// Reads GET /api/public/videos a page at a time with plain fetch: the public bundle carries no
// query or schema library.
import type { CaptionTrack } from '@contract/captions.ts'
import { LANDING_PAGE_SIZE } from '@contract/public-page.ts'
import { streamStartOf } from '@contract/stream-start.ts'
import type { PublicVideo } from '../api.ts'

export type { PublicVideo }

const STATUSES = ['queued', 'processing', 'ready', 'failed'] as const

const RETRY_DELAYS_MS = [500, 1500] // two retries (docs/public-site.md#paging)

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** One work from an answer, or null when it lacks what a tile or page needs. */
export function toVideo(value: unknown): PublicVideo | null {
  if (!isRecord(value)) return null
  const { _id, title, description, videoUrl, thumbnailUrl, brandLogoUrl, createdAt } = value
  const { status, duration, width, height, hlsUrl, mp4Url, previewUrl, slug } = value
  // A tile needs something to show and something to play; anything else is skipped, not fatal.
  if (typeof _id !== 'string' || typeof videoUrl !== 'string' || typeof thumbnailUrl !== 'string') {
    return null
  }
  if (!_id || !videoUrl || !thumbnailUrl) return null
  return {
    _id,
    title: typeof title === 'string' ? title : '',
    description: typeof description === 'string' ? description : '',
    videoUrl,
    thumbnailUrl,
    brandLogoUrl: typeof brandLogoUrl === 'string' ? brandLogoUrl : '',
    createdAt: typeof createdAt === 'string' ? createdAt : '',
    // Streams (docs/media.md): a tile plays what is there and falls back to `videoUrl` otherwise.
    status: STATUSES.find((s) => s === status) ?? 'queued',
    duration: numberOrNull(duration),
    width: numberOrNull(width),
    height: numberOrNull(height),
    hlsUrl: urlOrNull(hlsUrl),
    mp4Url: urlOrNull(mp4Url),
    previewUrl: urlOrNull(previewUrl),
    // The work's own page (/work/<slug>); '' when an older server sent none: no share link then.
    slug: typeof slug === 'string' ? slug : '',
    loudness: loudnessOrNull(value.loudness),
    captions: captionsOf(value.captions),
    streamStart: streamStartOf(value.streamStart),
  }
}

/** The caption tracks a player can offer: each with a language, a label and a file. */
function captionsOf(value: unknown): CaptionTrack[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((track): CaptionTrack[] => {
    if (!isRecord(track)) return []
    const { language, label, url } = track
    if (typeof language !== 'string' || typeof label !== 'string' || typeof url !== 'string') {
      return []
    }
    return language && url ? [{ language, label, url }] : []
  })
}

/** Only what the players level by; anything else reads as not measured (played as it is). */
function loudnessOrNull(value: unknown): { integrated: number } | null {
  if (!isRecord(value)) return null
  const integrated = numberOrNull(value.integrated)
  return integrated === null ? null : { integrated }
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

function urlOrNull(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null
}

/** One page of the public list: its works and where the next page starts (null at the end). */
export type PublicPage = { videos: PublicVideo[]; nextCursor: string | null }

/** How many works the landing page asks for at a time: the first screens, a few KB on the wire. */
export const PUBLIC_PAGE_SIZE = LANDING_PAGE_SIZE

export function parsePublicPage(body: unknown): PublicPage {
  if (!isRecord(body) || body.status !== 'success') {
    throw new Error('Unexpected answer from /api/public/videos')
  }
  return publicPageFrom(body.data)
}

/** The `data` of an answer (also what the server puts in a rendered page) as a page of works. */
export function publicPageFrom(data: unknown): PublicPage {
  const list = isRecord(data) ? data.videos : undefined
  if (!isRecord(data) || !Array.isArray(list)) {
    throw new Error('Unexpected answer from /api/public/videos')
  }
  const next = data.nextCursor
  return {
    videos: list.map(toVideo).filter((video): video is PublicVideo => video !== null),
    nextCursor: typeof next === 'string' && next ? next : null,
  }
}

async function fetchOnce(signal: AbortSignal, cursor: string | null): Promise<PublicPage> {
  const query = `?limit=${PUBLIC_PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
  const response = await fetch(`/api/public/videos${query}`, {
    signal,
    headers: { Accept: 'application/json' },
  })
  if (!response.ok) throw new Error(`GET /api/public/videos answered ${response.status}`)
  return parsePublicPage(await response.json())
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(signal.reason)
    })
  })
}

/** A page of works (the first without `cursor`), with two retries (docs/public-site.md#paging). */
export async function loadPublicPage(
  signal: AbortSignal,
  cursor: string | null = null,
): Promise<PublicPage> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(signal, cursor)
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt]
      if (signal.aborted || delay === undefined) throw error
      await wait(delay, signal)
    }
  }
}
