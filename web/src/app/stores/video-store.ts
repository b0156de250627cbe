// The Manage and Upload screens' own state, persisted as 'video-store' (docs/dashboard.md): the
// page, the selection and the upload progress. The videos, totals and stats are server data:
// TanStack Query owns them (the `videos.list` and `videos.stats` caches), and the transitions of
// docs/dashboard.md that change them are pure functions over those answers, applied with `setData`.
// Every transition is a pure function so it can be tested without React.
import { limits } from '@contract/index.ts'
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import type { Video, VideoPage } from '../../api.ts'
import { browserStorage, followOtherTabs } from '../lib/store.ts'

export interface VideoState {
  currentPage: number
  pageSize: number
  selectedVideos: string[]
  isAllSelected: boolean
  /** 0-100 while an upload is sending; this tab's work in progress, not kept across reloads. */
  uploadProgress: number
}

type KeptVideoState = Omit<VideoState, 'uploadProgress'>

export const initialVideoState: VideoState = {
  currentPage: 1,
  pageSize: limits.pageSizeDefault,
  selectedVideos: [],
  isAllSelected: false,
  uploadProgress: 0,
}

/** The list's cache stays this long after its last use; the stats are fresh this long. */
export const STALE_AFTER_MS = 5 * 60 * 1000

export const pageCount = (total: number, pageSize: number) =>
  Math.max(1, Math.ceil(Math.max(0, total) / pageSize))

/** Only videos with an _id and a thumbnailUrl are listed (docs/dashboard.md). */
export const isListable = (v: Partial<Video> | null | undefined): v is Video =>
  Boolean(v?._id && v.thumbnailUrl)

// ---- Server data: a page of the list and the stats, as the query caches hold them ----------

type Page = Pick<VideoPage, 'videos' | 'total'> & { totalPages?: number }
type Stats = { totalVideos: number }

/** What a page shows: only listable videos, a total never below 0, at least one page. */
export function shownPage<P extends Page>(page: P, pageSize: number): P & { totalPages: number } {
  const total = Math.max(0, page.total ?? 0)
  return {
    ...page,
    videos: page.videos.filter(isListable),
    total,
    totalPages: Math.max(1, page.totalPages ?? pageCount(total, pageSize)),
  }
}

/** Adding puts the video first, increments the total and recomputes the pages. */
export function addVideo<P extends Page>(page: P, video: Video, pageSize: number): P {
  if (!isListable(video)) return page
  const total = page.total + 1
  return {
    ...page,
    videos: [video, ...page.videos.filter((v) => v._id !== video._id)].slice(0, pageSize),
    total,
    totalPages: pageCount(total, pageSize),
  }
}

/** Removing `count` videos (default: the ids given): total never below 0, at least one page. */
export function removeVideos<P extends Page>(
  page: P,
  ids: readonly string[],
  pageSize: number,
  count = ids.length,
): P {
  const gone = new Set(ids)
  const total = Math.max(0, page.total - count)
  return {
    ...page,
    videos: page.videos.filter((v) => !gone.has(v._id)),
    total,
    totalPages: pageCount(total, pageSize),
  }
}

export function replaceVideo<P extends Page>(page: P, video: Video): P {
  // A change's answer has no `openNotes`: the count read with the list stays until the next read.
  return { ...page, videos: page.videos.map((v) => (v._id === video._id ? { ...v, ...video } : v)) }
}

/** The stats' total follows every add and removal (docs/dashboard.md). */
export const countVideos = (stats: Stats, change: number): Stats => ({
  ...stats,
  totalVideos: Math.max(0, stats.totalVideos + change),
})

// ---- This screen's state: page and selection ------------------------------------------------

/** A page arrived: the current page moves back if the server has fewer pages, and only ids on it stay selected. */
export function receivePage(s: VideoState, page: Required<Page>): VideoState {
  const ids = new Set(page.videos.map((v) => v._id))
  const selectedVideos = s.selectedVideos.filter((id) => ids.has(id))
  const isAllSelected = page.videos.length > 0 && selectedVideos.length === page.videos.length
  const currentPage = Math.min(s.currentPage, Math.max(1, page.totalPages))
  const same =
    selectedVideos.length === s.selectedVideos.length &&
    isAllSelected === s.isAllSelected &&
    currentPage === s.currentPage
  return same ? s : { ...s, currentPage, selectedVideos, isAllSelected }
}

/** After a removal: the removed ids leave the selection (bulk: all of it), the page stays in range. */
export function afterRemoval(
  s: VideoState,
  ids: readonly string[],
  totalPages: number,
  { bulk = false } = {},
): VideoState {
  const selectedVideos = bulk ? [] : s.selectedVideos.filter((id) => !ids.includes(id))
  return {
    ...s,
    selectedVideos,
    isAllSelected: false,
    currentPage: Math.min(s.currentPage, Math.max(1, totalPages)),
  }
}

/** `shown`: the ids of the videos on the current page. */
export function toggleSelected(s: VideoState, id: string, shown: readonly string[]): VideoState {
  if (s.selectedVideos.includes(id)) {
    return { ...s, selectedVideos: s.selectedVideos.filter((v) => v !== id), isAllSelected: false }
  }
  const selectedVideos = [...s.selectedVideos, id]
  return { ...s, selectedVideos, isAllSelected: selectedVideos.length === shown.length }
}

/** Select all the videos shown on the current page. */
export function selectAll(s: VideoState, shown: readonly string[]): VideoState {
  const selectedVideos = [...shown]
  return { ...s, selectedVideos, isAllSelected: selectedVideos.length > 0 }
}

export function clearSelection(s: VideoState): VideoState {
  return { ...s, selectedVideos: [], isAllSelected: false }
}

export function setPage(s: VideoState, page: number, totalPages: number): VideoState {
  const currentPage = Math.min(Math.max(1, Math.trunc(page) || 1), Math.max(1, totalPages))
  return { ...clearSelection(s), currentPage }
}

export const useVideoStore = create<VideoState>()(
  persist<VideoState, [], [], KeptVideoState>(() => initialVideoState, {
    name: 'video-store',
    storage: browserStorage(),
    partialize: ({ uploadProgress: _progress, ...kept }) => kept,
    // Only the fields kept now: a value stored by an older version (the list itself) is dropped.
    merge: (stored, current) => {
      const kept = (stored ?? {}) as Partial<KeptVideoState>
      return {
        ...current,
        ...(typeof kept.currentPage === 'number' ? { currentPage: kept.currentPage } : {}),
        ...(typeof kept.pageSize === 'number' ? { pageSize: kept.pageSize } : {}),
        ...(Array.isArray(kept.selectedVideos) ? { selectedVideos: kept.selectedVideos } : {}),
        ...(typeof kept.isAllSelected === 'boolean' ? { isAllSelected: kept.isAllSelected } : {}),
      }
    },
  }),
)
followOtherTabs(useVideoStore)

/** Apply a transition to the shared store (one that changes nothing writes nothing). */
export function updateVideos(transition: (s: VideoState) => VideoState) {
  const before = useVideoStore.getState()
  const after = transition(before)
  if (after !== before) useVideoStore.setState(after, true)
}

/** The list query's input for the page the Manage screen shows. */
/** The page with its videos in the order of `ids` (a drag); videos not named keep their place after. */
export function inOrder<T extends { videos: Video[] }>(page: T, ids: readonly string[]): T {
  const byId = new Map(page.videos.map((v) => [v._id, v]))
  const moved = ids.flatMap((id) => byId.get(id) ?? [])
  const rest = page.videos.filter((v) => !ids.includes(v._id))
  return { ...page, videos: [...moved, ...rest] }
}

/**
 * The Manage list's query input: a page of the curated order (the public page's, which admins
 * set by dragging; a new video leads it, as docs/dashboard.md's list wants).
 */
export const listInputFor = (page: number, limit: number) =>
  ({ page, limit, order: 'curated' }) as const

export function currentListInput() {
  const { currentPage, pageSize } = useVideoStore.getState()
  return listInputFor(currentPage, pageSize)
}

/** 0-100; progress events repeat a percentage many times, and only a change is written. */
export function setUploadProgress(uploadProgress: number) {
  if (useVideoStore.getState().uploadProgress !== uploadProgress) {
    useVideoStore.setState({ uploadProgress })
  }
}
