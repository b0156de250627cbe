// Upload Video (docs/dashboard.md): three tus uploads (and one per caption track) with one progress
// area (percentage, bytes, speed, time left, a lost connection), then videos.create. Uploads this browser left unfinished
// are offered again and continue from the server's offset when the same files are picked.

import type { FileKind } from '@contract/index.ts'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { PageHeader } from '../components/page-header.tsx'
import { Card } from '../components/ui.tsx'
import { RequestError, toClientError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'
import { handleUnauthorized } from '../lib/session.ts'
import { createRateMeter } from '../lib/transfer-rate.ts'
import { useLeaveWarning } from '../lib/use-leave-warning.ts'
import { useAuthStore } from '../stores/auth.ts'
import {
  addVideo,
  countVideos,
  listInputFor,
  setUploadProgress,
  useVideoStore,
} from '../stores/video-store.ts'
import { trpc } from '../trpc.ts'
import { captionFieldOf, captionUploadKey } from './caption-form-schema.ts'
import {
  discardUploads,
  findUnfinishedUploads,
  fingerprintOf,
  type UnfinishedUpload,
  type UploadItem,
  type UploadScope,
  uploadItems,
} from './tus-uploads.ts'
import { percentOf, UnfinishedUploads } from './unfinished-uploads.tsx'
import { UploadProgress, type UploadStatus } from './upload-progress.tsx'
import {
  fileLabels,
  type VideoDraft,
  VideoForm,
  type VideoFormHelpers,
  type VideoFormValues,
} from './video-form.tsx'

/** Title and description typed so far, kept for this tab across a reload. */
const DRAFT_KEY = 'upload-draft'
/** How often speed and time left may change on screen (they would flicker at every event). */
const RATE_REFRESH_MS = 1000

function readDraft(): VideoDraft | undefined {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? 'null') as Partial<VideoDraft>
    if (typeof parsed?.title !== 'string' || typeof parsed.description !== 'string') return
    return { title: parsed.title, description: parsed.description }
  } catch {
    return undefined
  }
}

function writeDraft(draft: VideoDraft | null) {
  try {
    if (draft && (draft.title || draft.description)) {
      sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft))
    } else sessionStorage.removeItem(DRAFT_KEY)
  } catch {
    // Storage blocked: nothing is kept, the form still works.
  }
}

const idle: UploadStatus = {
  phase: 'uploading',
  sent: 0,
  total: 0,
  rate: null,
  secondsLeft: null,
  paused: false,
}

export function UploadPage() {
  const navigate = useNavigate()
  const utils = trpc.useUtils()
  const create = trpc.videos.create.useMutation()
  const owner = useAuthStore((s) => s.user?._id ?? '')
  const scope = useMemo<UploadScope>(() => ({ owner, purpose: 'create' }), [owner])
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState<UploadStatus>(idle)
  const [unfinished, setUnfinished] = useState<UnfinishedUpload[]>([])
  const [draft] = useState(readDraft)
  const meter = useRef(createRateMeter())
  // The work's files already sent for a work the server then refused for its title or a caption
  // file: a second try sends the caption files again (small, and a refused one may be gone) but
  // not the video. By fingerprint, so a file picked anew is sent anew.
  const sentBefore = useRef(new Map<string, string>())
  const shownRateAt = useRef(0)
  // docs/dashboard.md: the store owns the upload's percentage; the rest of the status is this
  // page's.
  const percent = useVideoStore((s) => s.uploadProgress)

  // Leaving mid-upload loses nothing (tus resumes), but say so before the tab closes.
  useLeaveWarning(busy)

  // docs/dashboard.md: progress resets to 0 after an upload, success or not.
  useEffect(() => () => setUploadProgress(0), [])

  useEffect(() => {
    if (!owner) return
    let current = true
    findUnfinishedUploads(scope, useAuthStore.getState().token)
      .then((found) => {
        if (current) setUnfinished(found)
      })
      // Not knowing about an old upload only means starting it again.
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [owner, scope])

  const onDraftChange = useCallback((next: VideoDraft) => writeDraft(next), [])

  const fileNote = (kind: FileKind, file: File) => {
    const fingerprint = fingerprintOf(scope, kind, file)
    const match = unfinished.find((u) => u.fingerprint === fingerprint)
    return match ? `Continues from ${percentOf(match)}%` : undefined
  }

  const onSubmit = async (
    { title, description, files, captions }: VideoFormValues,
    { setTitleError, setCaptionError }: VideoFormHelpers,
  ) => {
    const { video, thumbnail, brandLogo } = files
    if (!video || !thumbnail || !brandLogo) return
    setBusy(true)
    setUploadProgress(0)
    meter.current.reset()
    shownRateAt.current = 0
    setStatus(idle)
    const { token } = useAuthStore.getState()
    try {
      const items: UploadItem[] = [
        { key: 'video', kind: 'video', file: video },
        { key: 'thumbnail', kind: 'thumbnail', file: thumbnail },
        { key: 'brandLogo', kind: 'brandLogo', file: brandLogo },
        ...captions.map(({ file }, i) => ({
          key: captionUploadKey(i),
          kind: 'captions' as const,
          file,
        })),
      ]
      const known = (item: UploadItem) =>
        item.kind === 'captions'
          ? undefined
          : sentBefore.current.get(fingerprintOf(scope, item.key, item.file))
      const fresh = await uploadItems(
        items.filter((item) => !known(item)),
        {
          token,
          scope,
          onProgress: ({ sent, total, percent }) => {
            meter.current.add(sent)
            setUploadProgress(percent)
            const now = performance.now()
            const refresh = now - shownRateAt.current >= RATE_REFRESH_MS
            if (refresh) shownRateAt.current = now
            setStatus((s) => ({
              ...s,
              sent,
              total,
              ...(refresh
                ? { rate: meter.current.rate(), secondsLeft: meter.current.secondsLeft(total) }
                : {}),
            }))
          },
          onPausedChange: (paused) => {
            meter.current.reset()
            setStatus((s) => ({ ...s, paused, rate: null, secondsLeft: null }))
          },
        },
      )
      const uploads: Partial<Record<string, string>> = {}
      for (const item of items) {
        const id = fresh[item.key] ?? known(item)
        uploads[item.key] = id
        if (id && item.kind !== 'captions') {
          sentBefore.current.set(fingerprintOf(scope, item.key, item.file), id)
        }
      }
      const captionUploads = captions.flatMap(({ language, label }, i) => {
        const upload = uploads[captionUploadKey(i)]
        return upload ? [{ upload, language, label }] : []
      })
      if (
        !uploads.video ||
        !uploads.thumbnail ||
        !uploads.brandLogo ||
        captionUploads.length !== captions.length
      ) {
        throw new RequestError('An upload did not finish', 0)
      }
      setUnfinished([])
      setStatus((s) => ({ ...s, phase: 'saving', paused: false }))
      const result = await create.mutateAsync({
        title,
        description,
        uploads: {
          video: uploads.video,
          thumbnail: uploads.thumbnail,
          brandLogo: uploads.brandLogo,
        },
        ...(captionUploads.length ? { captions: captionUploads } : {}),
      })
      sentBefore.current.clear()
      writeDraft(null)
      // docs/dashboard.md: the new video comes first, the totals and pages follow, before the
      // refresh.
      const { pageSize } = useVideoStore.getState()
      utils.videos.list.setData(
        listInputFor(1, pageSize),
        (old) => old && addVideo(old, result.video, pageSize),
      )
      utils.videos.stats.setData(undefined, (old) => old && countVideos(old, 1))
      await Promise.all([utils.videos.list.invalidate(), utils.videos.stats.invalidate()])
      notify.success('Video uploaded successfully!')
      // The bar stays full until the page goes; leaving it resets the progress (effect above).
      await navigate({ to: '/dashboard/manage' })
    } catch (err) {
      setUploadProgress(0)
      setStatus(idle)
      setBusy(false)
      const e = toClientError(err)
      if (e.kind === 'unauthorized') {
        handleUnauthorized(token)
        return
      }
      if (e.field === 'title') setTitleError(e.message)
      const caption = captionFieldOf(e.field, captions.length)
      if (caption) setCaptionError(caption.index, caption.field, e.message)
      // Any other failure may be about the uploads themselves (one expired): send them all again.
      if (e.field !== 'title' && !caption) sentBefore.current.clear()
      notify.error('Failed to upload video. Please try again.')
    }
  }

  const discard = async () => {
    await discardUploads(unfinished, useAuthStore.getState().token)
    setUnfinished([])
  }

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Upload Video" crumb="Upload Video" />
      {busy ? null : (
        <UnfinishedUploads uploads={unfinished} labels={fileLabels} onDiscard={discard} />
      )}
      <Card className="p-5 sm:p-6">
        <VideoForm
          mode="create"
          busy={busy}
          submitLabel="Upload Video"
          busyLabel={`Uploading... ${percent}%`}
          status={busy ? <UploadProgress status={status} percent={percent} /> : null}
          statusLabel="Upload status"
          draft={draft}
          onDraftChange={onDraftChange}
          fileNote={fileNote}
          onSubmit={onSubmit}
        />
      </Card>
    </div>
  )
}
