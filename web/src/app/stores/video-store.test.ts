import { describe, expect, test } from 'bun:test'
import { QueryClient } from '@tanstack/react-query'
import type { Video } from '../../api.ts'
import {
  addVideo,
  afterRemoval,
  clearSelection,
  countVideos,
  initialVideoState,
  receivePage,
  removeVideos,
  STALE_AFTER_MS,
  selectAll,
  setPage,
  shownPage,
  toggleSelected,
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
  loudness: null,
  hasAudio: null,
  captions: [],
  version: 1,
  growing: null,
  ...extra,
})

/** A page of the list as the query cache holds it: `n` videos of `total`. */
const pageOf = (n: number, total: number) =>
  shownPage({ videos: Array.from({ length: n }, (_, i) => video(i + 1)), total }, 10)

const idsOf = (page: { videos: Video[] }) => page.videos.map((v) => v._id)

describe('a page of the list', () => {
  test('keeps only videos with an _id and a thumbnailUrl, sets totals and pages', () => {
    const p = shownPage(
      { videos: [video(1), video(2, { thumbnailUrl: '' }), video(3, { _id: '' })], total: 23 },
      10,
    )
    expect(idsOf(p)).toEqual(['id-1'])
    expect(p.total).toBe(23)
    expect(p.totalPages).toBe(3)
    expect(shownPage({ videos: [], total: 23, totalPages: 4 }, 10).totalPages).toBe(4)
    expect(shownPage({ videos: [], total: -1 }, 10)).toEqual({
      videos: [],
      total: 0,
      totalPages: 1,
    })
  })
  test('moves the current page back when the server has fewer pages', () => {
    const s = receivePage({ ...initialVideoState, currentPage: 4 }, pageOf(0, 12))
    expect(s.currentPage).toBe(2)
  })
})

describe('addVideo', () => {
  test('puts it first, increments the total, recomputes pages and stats', () => {
    const p = addVideo(pageOf(10, 10), video(99), 10)
    expect(p.videos[0]?._id).toBe('id-99')
    expect(p.videos).toHaveLength(10)
    expect(p.total).toBe(11)
    expect(p.totalPages).toBe(2)
    expect(countVideos({ totalVideos: 10 }, 1).totalVideos).toBe(11)
  })
  test('rejects a video without _id or thumbnailUrl', () => {
    const p = pageOf(2, 2)
    expect(addVideo(p, video(5, { thumbnailUrl: '' }), 10)).toBe(p)
    expect(addVideo(p, video(5, { _id: '' }), 10)).toBe(p)
  })
})

describe('removing a video', () => {
  test('decrements the total and recomputes pages', () => {
    const p = removeVideos(pageOf(3, 3), ['id-2'], 10)
    expect(idsOf(p)).toEqual(['id-1', 'id-3'])
    expect(p.total).toBe(2)
    expect(p.totalPages).toBe(1)
  })
  test('never below 0 and at least one page', () => {
    const p = removeVideos(pageOf(0, 0), ['x'], 10)
    expect(p.total).toBe(0)
    expect(p.totalPages).toBe(1)
  })
  test('moves the current page back when it is now beyond the last', () => {
    const p = removeVideos(pageOf(1, 11), ['id-1'], 10)
    const s = afterRemoval({ ...initialVideoState, currentPage: 2 }, ['id-1'], p.totalPages)
    expect(p.totalPages).toBe(1)
    expect(s.currentPage).toBe(1)
  })
  test('drops the id from the selection, and the stats total follows (never below 0)', () => {
    const shown = idsOf(pageOf(3, 3))
    const s = afterRemoval(toggleSelected(initialVideoState, 'id-2', shown), ['id-2'], 1)
    expect(s.selectedVideos).toEqual([])
    expect(countVideos({ totalVideos: 0 }, -1).totalVideos).toBe(0)
  })
})

describe('removing videos (bulk)', () => {
  test('removes the number deleted and clears the selection', () => {
    const page = pageOf(10, 21)
    let s = selectAll({ ...initialVideoState, currentPage: 3 }, idsOf(page))
    const p = removeVideos(page, ['id-1', 'id-2'], 10)
    s = afterRemoval(s, ['id-1', 'id-2'], p.totalPages, { bulk: true })
    expect(p.total).toBe(19)
    expect(p.totalPages).toBe(2)
    expect(s.currentPage).toBe(2)
    expect(s.selectedVideos).toEqual([])
    expect(s.isAllSelected).toBe(false)
  })
})

describe('selection', () => {
  test('selecting every shown video flags isAllSelected; deselecting any clears it', () => {
    const shown = idsOf(pageOf(2, 2))
    let s = toggleSelected(initialVideoState, 'id-1', shown)
    expect(s.isAllSelected).toBe(false)
    s = toggleSelected(s, 'id-2', shown)
    expect(s.isAllSelected).toBe(true)
    s = toggleSelected(s, 'id-1', shown)
    expect(s.isAllSelected).toBe(false)
    expect(s.selectedVideos).toEqual(['id-2'])
  })
  test('select all and clear selection', () => {
    let s = selectAll(initialVideoState, idsOf(pageOf(3, 3)))
    expect(s.selectedVideos).toEqual(['id-1', 'id-2', 'id-3'])
    expect(s.isAllSelected).toBe(true)
    s = clearSelection(s)
    expect(s.selectedVideos).toEqual([])
    expect(s.isAllSelected).toBe(false)
  })
  test('changing page clears the selection and stays in range', () => {
    const page = pageOf(10, 25)
    const s = setPage(selectAll(initialVideoState, idsOf(page)), 9, page.totalPages)
    expect(s.currentPage).toBe(3)
    expect(s.selectedVideos).toEqual([])
  })
  test('a fresh page keeps only its own videos selected', () => {
    const s = receivePage(selectAll(initialVideoState, ['id-1', 'gone']), pageOf(2, 2))
    expect(s.selectedVideos).toEqual(['id-1'])
    expect(s.isAllSelected).toBe(false)
    // Everything was selected, and the page now shows one more: not all any longer.
    const grown = receivePage(selectAll(initialVideoState, ['id-1', 'id-2']), pageOf(3, 3))
    expect(grown.isAllSelected).toBe(false)
    const unchanged = selectAll(initialVideoState, ['id-1', 'id-2'])
    expect(receivePage(unchanged, pageOf(2, 2))).toBe(unchanged)
  })
})

// The cache is TanStack Query's: what it holds is stale once STALE_AFTER_MS have passed since it
// was fetched, or when it was never fetched (docs/dashboard.md).
test('stale after 5 minutes or when never fetched', () => {
  const client = new QueryClient()
  const queryKey = ['videos.stats']
  const query = client.getQueryCache().build(client, { queryKey })
  expect(query.isStaleByTime(STALE_AFTER_MS)).toBe(true)
  client.setQueryData(
    queryKey,
    { totalVideos: 1 },
    { updatedAt: Date.now() - STALE_AFTER_MS + 1000 },
  )
  expect(query.isStaleByTime(STALE_AFTER_MS)).toBe(false)
  client.setQueryData(queryKey, { totalVideos: 1 }, { updatedAt: Date.now() - STALE_AFTER_MS - 1 })
  expect(query.isStaleByTime(STALE_AFTER_MS)).toBe(true)
})
