import { describe, expect, test } from 'bun:test'
import type { Video } from '../../api.ts'
import {
  addVideo,
  clearSelection,
  initialVideoState,
  isStale,
  receivePage,
  removeVideo,
  removeVideos,
  STALE_AFTER_MS,
  selectAll,
  setPage,
  toggleSelected,
  type VideoState,
} from './video-store.ts'

const video = (n: number, extra: Partial<Video> = {}): Video => ({
  _id: `id-${n}`,
  title: `Video ${n}`,
  description: '',
  videoUrl: `/media/${n}.mp4`,
  thumbnailUrl: `/media/${n}.jpg`,
  brandLogoUrl: `/media/${n}.png`,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  status: 'queued',
  progress: 0,
  duration: null,
  width: null,
  height: null,
  hlsUrl: null,
  mp4Url: null,
  previewUrl: null,
  error: null,
  published: true,
  slug: `video-${n}`,
  ...extra,
})

const withPage = (n: number, total: number, currentPage = 1): VideoState => ({
  ...receivePage(initialVideoState, {
    videos: Array.from({ length: n }, (_, i) => video(i + 1)),
    total,
  }),
  currentPage,
  totalPages: Math.max(1, Math.ceil(total / 10)),
})

describe('receivePage', () => {
  test('keeps only videos with an _id and a thumbnailUrl, sets totals and lastFetched', () => {
    const s = receivePage(
      initialVideoState,
      { videos: [video(1), video(2, { thumbnailUrl: '' }), video(3, { _id: '' })], total: 23 },
      1000,
    )
    expect(s.videos.map((v) => v._id)).toEqual(['id-1'])
    expect(s.totalVideos).toBe(23)
    expect(s.totalPages).toBe(3)
    expect(s.stats.totalVideos).toBe(23)
    expect(s.lastFetched).toBe(1000)
  })
  test('moves the current page back when the server has fewer pages', () => {
    const s = receivePage({ ...initialVideoState, currentPage: 4 }, { videos: [], total: 12 })
    expect(s.currentPage).toBe(2)
  })
})

describe('addVideo', () => {
  test('puts it first, increments the total, recomputes pages and stats', () => {
    const s = addVideo(withPage(10, 10), video(99))
    expect(s.videos[0]?._id).toBe('id-99')
    expect(s.videos).toHaveLength(10)
    expect(s.totalVideos).toBe(11)
    expect(s.totalPages).toBe(2)
    expect(s.stats.totalVideos).toBe(11)
  })
  test('rejects a video without _id or thumbnailUrl', () => {
    const s = withPage(2, 2)
    expect(addVideo(s, video(5, { thumbnailUrl: '' }))).toBe(s)
    expect(addVideo(s, video(5, { _id: '' }))).toBe(s)
  })
})

describe('removeVideo', () => {
  test('decrements the total and recomputes pages', () => {
    const s = removeVideo(withPage(3, 3), 'id-2')
    expect(s.videos.map((v) => v._id)).toEqual(['id-1', 'id-3'])
    expect(s.totalVideos).toBe(2)
    expect(s.totalPages).toBe(1)
  })
  test('never below 0 and at least one page', () => {
    const s = removeVideo({ ...initialVideoState, totalVideos: 0 }, 'x')
    expect(s.totalVideos).toBe(0)
    expect(s.totalPages).toBe(1)
  })
  test('moves the current page back when it is now beyond the last', () => {
    const s = removeVideo(withPage(1, 11, 2), 'id-1')
    expect(s.totalPages).toBe(1)
    expect(s.currentPage).toBe(1)
  })
  test('drops the id from the selection', () => {
    const s = removeVideo(toggleSelected(withPage(3, 3), 'id-2'), 'id-2')
    expect(s.selectedVideos).toEqual([])
  })
})

describe('removeVideos (bulk)', () => {
  test('removes the number deleted and clears the selection', () => {
    let s = withPage(10, 21, 3)
    s = selectAll(s)
    s = removeVideos(s, ['id-1', 'id-2'])
    expect(s.totalVideos).toBe(19)
    expect(s.totalPages).toBe(2)
    expect(s.currentPage).toBe(2)
    expect(s.selectedVideos).toEqual([])
    expect(s.isAllSelected).toBe(false)
  })
})

describe('selection', () => {
  test('selecting every shown video flags isAllSelected; deselecting any clears it', () => {
    let s = withPage(2, 2)
    s = toggleSelected(s, 'id-1')
    expect(s.isAllSelected).toBe(false)
    s = toggleSelected(s, 'id-2')
    expect(s.isAllSelected).toBe(true)
    s = toggleSelected(s, 'id-1')
    expect(s.isAllSelected).toBe(false)
    expect(s.selectedVideos).toEqual(['id-2'])
  })
  test('select all and clear selection', () => {
    let s = selectAll(withPage(3, 3))
    expect(s.selectedVideos).toEqual(['id-1', 'id-2', 'id-3'])
    expect(s.isAllSelected).toBe(true)
    s = clearSelection(s)
    expect(s.selectedVideos).toEqual([])
    expect(s.isAllSelected).toBe(false)
  })
  test('changing page clears the selection and stays in range', () => {
    const s = setPage(selectAll(withPage(10, 25)), 9)
    expect(s.currentPage).toBe(3)
    expect(s.selectedVideos).toEqual([])
  })
})

test('stale after 5 minutes or when never fetched', () => {
  expect(isStale({ lastFetched: null })).toBe(true)
  expect(isStale({ lastFetched: 0 }, STALE_AFTER_MS)).toBe(false)
  expect(isStale({ lastFetched: 0 }, STALE_AFTER_MS + 1)).toBe(true)
})
