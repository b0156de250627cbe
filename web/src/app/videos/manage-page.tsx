// Manage Videos (docs/dashboard.md): list states, selection, single and bulk delete, edit, player,
// pagination. The list query owns the videos and totals; 'video-store' the page and selection.

import { msg } from '@contract/index.ts'
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { Video, VideoPage } from '../../api.ts'
import { usePrefetchHls } from '../../player/use-stream.ts'
import { PageHeader } from '../components/page-header.tsx'
import { Pagination } from '../components/pagination.tsx'
import { StatTile } from '../components/stat-tile.tsx'
import { Button, buttonStyles, Card, Icons, Spinner } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'
import { useLinger } from '../lib/use-linger.ts'
import {
  afterRemoval,
  clearSelection,
  countVideos,
  inOrder,
  listInputFor,
  receivePage,
  removeVideos,
  replaceVideo,
  selectAll,
  setPage,
  shownPage,
  toggleSelected,
  updateVideos,
  useVideoStore,
} from '../stores/video-store.ts'
import { trpc } from '../trpc.ts'
import { DeleteDialog } from './delete-dialog.tsx'
import { EditVideoModal } from './edit-video-modal.tsx'
import { PlayerModal } from './player-modal.tsx'
import { anyInProgress, PROCESSING_POLL_MS } from './processing.ts'
import { ShareDialog } from './share-dialog.tsx'
import { VideoList } from './video-list.tsx'

export const LIST_STALE_MS = 3000
export const LIST_CACHE_MS = 5 * 60 * 1000
const OVERLAY_TAIL_MS = 300
const PROCESSING_POLL_KEY = ['videos.list.processing-poll']

const NO_VIDEOS: Video[] = []

type Pending = { kind: 'one'; video: Video } | { kind: 'selected'; ids: string[] }

export function ManagePage() {
  const utils = trpc.useUtils()
  const queryClient = useQueryClient()
  const page = useVideoStore((s) => s.currentPage)
  const pageSize = useVideoStore((s) => s.pageSize)
  const selected = useVideoStore((s) => s.selectedVideos)
  const isAllSelected = useVideoStore((s) => s.isAllSelected)

  const listInput = listInputFor(page, pageSize)
  const showPage = useCallback((answer: VideoPage) => shownPage(answer, pageSize), [pageSize])
  const list = trpc.videos.list.useQuery(listInput, {
    staleTime: LIST_STALE_MS,
    gcTime: LIST_CACHE_MS,
    placeholderData: keepPreviousData,
    select: showPage,
  })
  const videos = list.data?.videos ?? NO_VIDEOS
  const totalVideos = list.data?.total ?? 0
  const totalPages = list.data?.totalPages ?? 1
  const shownIds = videos.map((v) => v._id)
  const deleteOne = trpc.videos.delete.useMutation()
  const inProgress = anyInProgress(videos)
  useProcessingPoll(listInput, inProgress, list.isFetching)
  const [retrying, setRetrying] = useState<string[]>([])
  const listRef = useRef<HTMLDivElement>(null)
  // The dashboard player uses hls.js for ready videos: have it in hand before a thumbnail's click.
  usePrefetchHls(
    listRef,
    videos.some((v: Video) => v.status === 'ready' && v.hlsUrl),
  )
  const deleteMany = trpc.videos.bulkDelete.useMutation()
  const retryOne = trpc.videos.retry.useMutation()
  const reorder = trpc.videos.reorder.useMutation()
  const publish = trpc.videos.setPublished.useMutation()
  const [publishing, setPublishing] = useState<string[]>([])

  const [playing, setPlaying] = useState<Video | null>(null)
  const [editing, setEditing] = useState<Video | null>(null)
  const [sharing, setSharing] = useState<Video | null>(null)
  const [pending, setPending] = useState<Pending | null>(null)
  const [deleting, setDeleting] = useState(false)
  const overlay = useLinger(list.isFetching, OVERLAY_TAIL_MS)

  // A fresh page (not the previous one kept while loading) keeps the page number in range and
  // only its own videos selected.
  const fresh = list.data && !list.isPlaceholderData ? list.data : undefined
  useEffect(() => {
    if (fresh) updateVideos((s) => receivePage(s, fresh))
  }, [fresh])

  const refresh = () =>
    Promise.all([utils.videos.list.invalidate(), utils.videos.stats.invalidate()])

  const retry = async (video: Video) => {
    setRetrying((ids) => [...ids, video._id])
    try {
      const { video: queued } = await retryOne.mutateAsync({ id: video._id })
      utils.videos.list.setData(listInput, (old) => old && replaceVideo(old, queued))
      notify.success('Video queued for processing')
    } catch (err) {
      notify.error(toClientError(err).message || 'Failed to retry processing')
    }
    await refresh().catch(() => undefined)
    setRetrying((ids) => ids.filter((id) => id !== video._id))
  }

  /**
   * A drag on this page: the rows move at once and the order is saved (the page's videos take the
   * places they held between them); a failure puts them back as they were.
   */
  const saveOrder = async (ids: string[]) => {
    await stopListReads()
    const before = utils.videos.list.getData(listInput)
    utils.videos.list.setData(listInput, (old) => old && inOrder(old, ids))
    try {
      await reorder.mutateAsync({ ids })
    } catch (err) {
      utils.videos.list.setData(listInput, before)
      notify.error(toClientError(err).message || 'Failed to save the new order')
    }
    void utils.videos.list.invalidate()
  }

  /**
   * Before an optimistic change: reads already on their way (a refresh, the processing poll)
   * started before it and must not put the old rows back when they land.
   */
  const stopListReads = () =>
    Promise.all([
      utils.videos.list.cancel(),
      queryClient.cancelQueries({ queryKey: PROCESSING_POLL_KEY }),
    ])

  /** The 'Published' switch: flips at once, back again if the server refuses. */
  const setPublished = async (video: Video, published: boolean) => {
    setPublishing((ids) => [...ids, video._id])
    await stopListReads()
    utils.videos.list.setData(listInput, (old) => old && replaceVideo(old, { ...video, published }))
    try {
      const { video: saved } = await publish.mutateAsync({ id: video._id, published })
      utils.videos.list.setData(listInput, (old) => old && replaceVideo(old, saved))
      notify.success(published ? 'Video published' : 'Video hidden from the public page')
    } catch (err) {
      utils.videos.list.setData(listInput, (old) => old && replaceVideo(old, video))
      notify.error(toClientError(err).message || 'Failed to update video')
    }
    setPublishing((ids) => ids.filter((id) => id !== video._id))
  }

  /** Totals and pages follow a removal at once, the page moves back if beyond the last. */
  const removeFromCaches = (ids: string[], count = ids.length, options?: { bulk: boolean }) => {
    const before = utils.videos.list.getData(listInput)
    const after = before && removeVideos(before, ids, pageSize, count)
    if (after) utils.videos.list.setData(listInput, after)
    utils.videos.stats.setData(undefined, (old) => old && countVideos(old, -count))
    updateVideos((s) => afterRemoval(s, ids, after?.totalPages ?? totalPages, options))
  }

  const confirmDelete = async () => {
    if (!pending) return
    setDeleting(true)
    if (pending.kind === 'one') {
      // The list changes first; a failure brings the truth back from the server.
      removeFromCaches([pending.video._id])
      try {
        await deleteOne.mutateAsync({ id: pending.video._id })
        notify.success('Video deleted successfully')
      } catch (err) {
        notify.error(
          toClientError(err).kind === 'not-found' ? msg.videoNotFound : 'Failed to delete video',
        )
      }
    } else {
      if (pending.ids.length === 0) return
      try {
        const { deleted } = await deleteMany.mutateAsync({ ids: pending.ids })
        removeFromCaches(pending.ids, deleted ?? pending.ids.length, { bulk: true })
        notify.success('Selected videos deleted successfully')
      } catch {
        notify.error('Failed to delete selected videos')
      }
    }
    await refresh().catch(() => undefined)
    setDeleting(false)
    setPending(null)
  }

  const header = <PageHeader title="Manage Videos" crumb="Manage Videos" />

  if (list.isPending) {
    return (
      <div className="mx-auto max-w-6xl">
        {header}
        <div className="flex justify-center py-24">
          <Spinner label="Loading videos" className="size-10" />
        </div>
      </div>
    )
  }

  if (list.isError && !list.data) {
    return (
      <div className="mx-auto max-w-6xl">
        {header}
        <Card className="p-8 text-center">
          <div role="alert">
            <h2 className="font-semibold text-lg text-red-600 dark:text-red-400">
              Error Loading Videos
            </h2>
            <p className="mt-1 text-zinc-600 dark:text-zinc-300">
              {toClientError(list.error).message || 'Something went wrong'}
            </p>
          </div>
          <Button variant="secondary" className="mt-4" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Card>
      </div>
    )
  }

  const empty = videos.length === 0 && totalVideos === 0

  return (
    <div className="mx-auto max-w-6xl">
      {header}
      {empty ? (
        <EmptyState />
      ) : (
        <>
          <section aria-label="Video statistics" className="mb-6 grid grid-cols-3 gap-2 sm:gap-4">
            <StatTile title="Total Videos" value={totalVideos ?? 0} />
            <StatTile title="Current Page" value={page} />
            <StatTile title="Total Pages" value={totalPages ?? 1} />
          </section>
          <Card className="relative p-4 sm:p-5">
            <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
              <h2 className="font-semibold text-xl">Videos</h2>
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  onClick={() =>
                    updateVideos((s) =>
                      isAllSelected ? clearSelection(s) : selectAll(s, shownIds),
                    )
                  }
                >
                  {isAllSelected ? 'Deselect All' : 'Select All'}
                </Button>
                {selected.length > 0 ? (
                  <Button
                    variant="danger"
                    onClick={() => setPending({ kind: 'selected', ids: [...selected] })}
                  >
                    <Icons.trash className="size-4" /> Delete Selected ({selected.length})
                  </Button>
                ) : null}
              </div>
            </div>
            <div
              ref={listRef}
              aria-busy={list.isFetching}
              className={`transition-opacity ${list.isFetching ? 'opacity-50' : ''}`}
            >
              <VideoList
                videos={videos}
                offset={(page - 1) * pageSize}
                selected={selected}
                onToggle={(id) => updateVideos((s) => toggleSelected(s, id, shownIds))}
                onPlay={setPlaying}
                onEdit={setEditing}
                onShare={setSharing}
                onDelete={(video) => setPending({ kind: 'one', video })}
                onRetry={(video) => void retry(video)}
                retrying={retrying}
                onReorder={(ids) => void saveOrder(ids)}
                onPublish={(video, published) => void setPublished(video, published)}
                publishing={publishing}
              />
            </div>
            {overlay ? (
              <div
                data-testid="list-overlay"
                className="pointer-events-none absolute inset-0 flex items-center justify-center rounded-xl bg-white/30 dark:bg-black/30"
              >
                <Spinner label="Refreshing videos" />
              </div>
            ) : null}
            <div className="mt-5">
              <Pagination
                page={page}
                totalPages={totalPages}
                onChange={(next) => updateVideos((s) => setPage(s, next, totalPages))}
              />
            </div>
          </Card>
        </>
      )}
      {playing ? (
        // The list's newest answer for it: a processing video's player follows its growing stream.
        <PlayerModal
          video={videos.find((v) => v._id === playing._id) ?? playing}
          onClose={() => setPlaying(null)}
        />
      ) : null}
      {editing ? <EditVideoModal video={editing} onClose={() => setEditing(null)} /> : null}
      {sharing ? <ShareDialog video={sharing} onClose={() => setSharing(null)} /> : null}
      {pending ? (
        <DeleteDialog
          count={pending.kind === 'one' ? 1 : pending.ids.length}
          title={pending.kind === 'one' ? pending.video.title : undefined}
          busy={deleting}
          onConfirm={() => void confirmDelete()}
          onClose={() => setPending(null)}
        />
      ) : null}
    </div>
  )
}

type ListInput = { page: number; limit: number }

/**
 * While a video on this page is queued or processing, asks for the page again every
 * PROCESSING_POLL_MS and puts the answer in the list query's cache. Its own query, not the list's
 * refetchInterval: these background checks must not dim the list or show the refresh overlay
 * every 1.5 s (the list's dimming is for refreshes the admin asked for). Stops when none is left.
 */
function useProcessingPoll(input: ListInput, active: boolean, listFetching: boolean) {
  const utils = trpc.useUtils()
  const listFetchingRef = useRef(listFetching)
  listFetchingRef.current = listFetching
  useQuery({
    queryKey: [...PROCESSING_POLL_KEY, input.page, input.limit],
    queryFn: async ({ signal }) => {
      // Cancelled by an optimistic change (stopListReads): its answer is never written then.
      const page = await utils.client.videos.list.query(input, { signal })
      // A refresh the admin started is newer than this answer may be: it wins.
      if (!listFetchingRef.current) utils.videos.list.setData(input, page)
      return Date.now()
    },
    enabled: active,
    // A placeholder that never goes stale: only the interval fetches, never the mount.
    initialData: 0,
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: PROCESSING_POLL_MS,
    retry: false,
    gcTime: 0,
  })
}

function EmptyState() {
  return (
    <Card className="flex flex-col items-center px-6 py-16 text-center">
      <span className="mb-4 flex size-14 items-center justify-center rounded-full bg-amber-100 text-amber-700 dark:bg-ink-700 dark:text-accent">
        <Icons.clip className="size-7" />
      </span>
      <h2 className="font-semibold text-xl">No Videos Yet</h2>
      <p className="mt-2 max-w-md text-zinc-600 dark:text-zinc-300">
        Get started by uploading your first video. Your uploaded videos will appear here.
      </p>
      <Link to="/dashboard/upload" className={`${buttonStyles.primary} mt-6`}>
        <Icons.upload className="size-4" /> Upload Video
      </Link>
    </Card>
  )
}
