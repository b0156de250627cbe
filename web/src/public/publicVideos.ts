// Reads GET /api/public/videos with plain fetch: the public bundle carries no query or schema library.
import type { inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '../../../src/routers/index.ts'

/** The server's public video shape (types only: nothing of the server enters the bundle). */
export type PublicVideo = inferRouterOutputs<AppRouter>['videos']['publicList']['videos'][number]

const RETRY_DELAYS_MS = [500, 1500] // SPEC §7: two retries

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function toVideo(value: unknown): PublicVideo | null {
  if (!isRecord(value)) return null
  const { _id, title, description, videoUrl, thumbnailUrl, brandLogoUrl, createdAt } = value
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
    ...mediaFields(value),
  }
}

const STATUSES = new Set<unknown>(['queued', 'processing', 'ready', 'failed'])
const numberOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null)
const stringOrNull = (v: unknown) => (typeof v === 'string' && v ? v : null)

/** The media pipeline's fields; missing or odd values read as "no streams yet". */
function mediaFields(value: Record<string, unknown>) {
  return {
    status: (STATUSES.has(value.status) ? value.status : 'queued') as PublicVideo['status'],
    duration: numberOrNull(value.duration),
    width: numberOrNull(value.width),
    height: numberOrNull(value.height),
    hlsUrl: stringOrNull(value.hlsUrl),
    mp4Url: stringOrNull(value.mp4Url),
    previewUrl: stringOrNull(value.previewUrl),
  }
}

export function parsePublicVideos(body: unknown): PublicVideo[] {
  if (!isRecord(body) || body.status !== 'success' || !isRecord(body.data)) {
    throw new Error('Unexpected answer from /api/public/videos')
  }
  const list = body.data.videos
  if (!Array.isArray(list)) throw new Error('Unexpected answer from /api/public/videos')
  return list.map(toVideo).filter((video): video is PublicVideo => video !== null)
}

async function fetchOnce(signal: AbortSignal): Promise<PublicVideo[]> {
  const response = await fetch('/api/public/videos', {
    signal,
    headers: { Accept: 'application/json' },
  })
  if (!response.ok) throw new Error(`GET /api/public/videos answered ${response.status}`)
  return parsePublicVideos(await response.json())
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

export async function loadPublicVideos(signal: AbortSignal): Promise<PublicVideo[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(signal)
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt]
      if (signal.aborted || delay === undefined) throw error
      await wait(delay, signal)
    }
  }
}
