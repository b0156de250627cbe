// The video list state persisted as 'video-store' (SPEC §3) and its transitions (SPEC §4).
// Transitions are pure functions of the state so they can be tested without React.
import { limits } from '@shared/index.ts'
import type { Video } from '../../api.ts'
import { createStore } from '../lib/store.ts'

export interface VideoState {
  videos: Video[]
  totalVideos: number
  totalPages: number
  currentPage: number
  pageSize: number
  selectedVideos: string[]
  isAllSelected: boolean
  uploadProgress: number
  isLoading: boolean
  lastFetched: number | null
  stats: { totalVideos: number }
}

export const STALE_AFTER_MS = 5 * 60 * 1000

export const initialVideoState: VideoState = {
  videos: [],
  totalVideos: 0,
  totalPages: 1,
  currentPage: 1,
  pageSize: limits.pageSizeDefault,
  selectedVideos: [],
  isAllSelected: false,
  uploadProgress: 0,
  isLoading: false,
  lastFetched: null,
  stats: { totalVideos: 0 },
}

export const pageCount = (total: number, pageSize: number) =>
  Math.max(1, Math.ceil(Math.max(0, total) / pageSize))

/** Only videos with an _id and a thumbnailUrl are listed (SPEC §2, §3). */
export const isListable = (v: Partial<Video> | null | undefined): v is Video =>
  Boolean(v?._id && v.thumbnailUrl)

export const isStale = (s: Pick<VideoState, 'lastFetched'>, now = Date.now()) =>
  s.lastFetched === null || now - s.lastFetched > STALE_AFTER_MS

/** A fetched page replaces the list; the current page moves back if the server has fewer pages. */
export function receivePage(
  s: VideoState,
  page: { videos: Video[]; total: number; totalPages?: number },
  now = Date.now(),
): VideoState {
  const videos = page.videos.filter(isListable)
  const totalVideos = Math.max(0, page.total ?? 0)
  const totalPages = Math.max(1, page.totalPages ?? pageCount(totalVideos, s.pageSize))
  const ids = new Set(videos.map((v) => v._id))
  const selectedVideos = s.selectedVideos.filter((id) => ids.has(id))
  return {
    ...s,
    videos,
    totalVideos,
    totalPages,
    currentPage: Math.min(s.currentPage, totalPages),
    selectedVideos,
    isAllSelected: videos.length > 0 && selectedVideos.length === videos.length,
    lastFetched: now,
    stats: { totalVideos },
  }
}

/** Adding puts the video first, increments the total and recomputes pages and stats. */
export function addVideo(s: VideoState, video: Video): VideoState {
  if (!isListable(video)) return s
  const totalVideos = s.totalVideos + 1
  return {
    ...s,
    videos: [video, ...s.videos.filter((v) => v._id !== video._id)].slice(0, s.pageSize),
    totalVideos,
    totalPages: pageCount(totalVideos, s.pageSize),
    isAllSelected: false,
    stats: { totalVideos },
  }
}

/** Removing `count` videos: totals never below 0, pages at least 1, page moved back if beyond. */
function removeMany(s: VideoState, ids: readonly string[], count: number): VideoState {
  const gone = new Set(ids)
  const totalVideos = Math.max(0, s.totalVideos - count)
  const totalPages = pageCount(totalVideos, s.pageSize)
  return {
    ...s,
    videos: s.videos.filter((v) => !gone.has(v._id)),
    totalVideos,
    totalPages,
    currentPage: Math.min(s.currentPage, totalPages),
    stats: { totalVideos },
  }
}

export function removeVideo(s: VideoState, id: string): VideoState {
  const next = removeMany(s, [id], 1)
  const selectedVideos = s.selectedVideos.filter((v) => v !== id)
  return { ...next, selectedVideos, isAllSelected: false }
}

/** Bulk delete removes `count` (default: the ids given) and clears the selection. */
export function removeVideos(s: VideoState, ids: readonly string[], count = ids.length) {
  return { ...removeMany(s, ids, count), selectedVideos: [], isAllSelected: false }
}

export function replaceVideo(s: VideoState, video: Video): VideoState {
  return { ...s, videos: s.videos.map((v) => (v._id === video._id ? video : v)) }
}

export function toggleSelected(s: VideoState, id: string): VideoState {
  if (s.selectedVideos.includes(id)) {
    return { ...s, selectedVideos: s.selectedVideos.filter((v) => v !== id), isAllSelected: false }
  }
  const selectedVideos = [...s.selectedVideos, id]
  return { ...s, selectedVideos, isAllSelected: selectedVideos.length === s.videos.length }
}

/** Select all the videos shown on the current page. */
export function selectAll(s: VideoState): VideoState {
  const selectedVideos = s.videos.map((v) => v._id)
  return { ...s, selectedVideos, isAllSelected: selectedVideos.length > 0 }
}

export function clearSelection(s: VideoState): VideoState {
  return { ...s, selectedVideos: [], isAllSelected: false }
}

export function setPage(s: VideoState, page: number): VideoState {
  const currentPage = Math.min(Math.max(1, Math.trunc(page) || 1), s.totalPages)
  return { ...clearSelection(s), currentPage }
}

export const videoStore = createStore<VideoState>(initialVideoState, {
  key: 'video-store',
  // Busy flags describe this tab's work in progress; they are not kept across reloads.
  pick: ({ isLoading: _busy, uploadProgress: _progress, ...kept }) => kept,
})

/** Apply a transition to the shared store. */
export const updateVideos = (transition: (s: VideoState) => VideoState) =>
  videoStore.set((s) => transition(s))
