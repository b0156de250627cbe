// Edit Video (docs/dashboard.md): metadata-only when no file was chosen, otherwise the chosen files
// go up with tus and everything is sent together. Progress steps 0, 25, 50, 75, 100. Below the
// form, the work's caption tracks, each added or removed on its own (CaptionsEditor), and its
// versions (VersionList).
import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { Video } from '../../api.ts'
import { Dialog } from '../components/dialog.tsx'
import { Button, buttonStyles, Icons, ProgressBar } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'
import { handleUnauthorized } from '../lib/session.ts'
import { useAuthStore } from '../stores/auth.ts'
import { useChromeStore } from '../stores/ui.ts'
import { currentListInput, replaceVideo } from '../stores/video-store.ts'
import { trpc } from '../trpc.ts'
import { CaptionsEditor } from './captions-editor.tsx'
import { LoudnessLine } from './loudness-line.tsx'
import { ShareDialog } from './share-dialog.tsx'
import { uploadFiles } from './tus-uploads.ts'
import { VersionList } from './version-list.tsx'
import { VideoForm, type VideoFormHelpers, type VideoFormValues } from './video-form.tsx'

class NoChanges extends Error {
  constructor() {
    super('NO_CHANGES')
  }
}

export function EditVideoModal({ video, onClose }: { video: Video; onClose: () => void }) {
  const utils = trpc.useUtils()
  const update = trpc.videos.update.useMutation()
  const [busy, setBusy] = useState(false)
  const [progress, setProgress] = useState(0)
  // Opened above this dialog, so whatever is typed here stays while a link is made.
  const [sharing, setSharing] = useState(false)
  // A caption track being added or removed also holds the dialog open.
  const [captionsBusy, setCaptionsBusy] = useState(false)
  // So does a new version on its way up.
  const [versionBusy, setVersionBusy] = useState(false)

  useEffect(() => {
    useChromeStore.setState({ editModalOpen: true })
    return () => useChromeStore.setState({ editModalOpen: false })
  }, [])

  const requestClose = () => {
    if (busy || captionsBusy || versionBusy) {
      notify.error('Please wait until the update is complete', 'edit-busy')
      return
    }
    onClose()
  }

  const onSubmit = async (
    { title, description, files }: VideoFormValues,
    { setTitleError }: VideoFormHelpers,
  ) => {
    const hasFiles = Object.keys(files).length > 0
    setBusy(true)
    setProgress(0)
    const { token } = useAuthStore.getState()
    try {
      if (!hasFiles && title === video.title && description === (video.description ?? '')) {
        throw new NoChanges()
      }
      setProgress(25)
      const owner = useAuthStore.getState().user?._id ?? ''
      const uploads = hasFiles
        ? await uploadFiles(files, { token, scope: { owner, purpose: `edit:${video._id}` } })
        : undefined
      setProgress(50)
      const request = update.mutateAsync(
        uploads
          ? { id: video._id, title, description, uploads }
          : { id: video._id, title, description },
      )
      setProgress(75)
      const { video: saved } = await request
      setProgress(100)
      utils.videos.list.setData(currentListInput(), (old) => old && replaceVideo(old, saved))
      void utils.videos.list.invalidate()
      notify.success('Video updated successfully')
      setBusy(false)
      onClose()
    } catch (err) {
      setBusy(false)
      setProgress(0)
      if (err instanceof NoChanges) {
        notify.message('No changes detected')
        return
      }
      // docs/dashboard.md: a lost session says so; errors about the title (the server names the
      // field) show at the title field; others as messages.
      const e = toClientError(err)
      if (e.kind === 'unauthorized') {
        handleUnauthorized(token)
        notify.error('Please login to update videos')
        return
      }
      if (e.field === 'title') {
        setTitleError(e.message || 'Failed to update video')
        return
      }
      notify.error(e.message || 'Failed to update video')
    }
  }

  return (
    <Dialog title="Edit Video" onClose={requestClose} size="lg">
      <div className="p-5">
        <div className="mb-4 flex flex-wrap items-center justify-end gap-3">
          <LoudnessLine video={video} className="mt-0 mr-auto text-sm" />
          <Button
            variant="secondary"
            className="min-h-11"
            disabled={busy}
            onClick={() => setSharing(true)}
          >
            <Icons.share className="size-4" /> Share privately…
          </Button>
          <Link
            to="/dashboard/videos/$id/review"
            params={{ id: video._id }}
            className={`${buttonStyles.secondary} min-h-11`}
          >
            Review notes
          </Link>
        </div>
        {busy ? (
          <p role="status" className="mb-4 text-amber-700 text-sm dark:text-accent">
            Updating...
          </p>
        ) : null}
        <VideoForm
          mode="edit"
          video={video}
          busy={busy}
          submitLabel="Update Video"
          busyLabel="Updating..."
          status={busy ? <ProgressBar value={progress} label="Update progress" /> : null}
          statusLabel="Update status"
          onSubmit={onSubmit}
          onCancel={requestClose}
        />
        <div className="mt-6 border-zinc-200 border-t pt-5 dark:border-ink-700">
          <CaptionsEditor video={video} onBusyChange={setCaptionsBusy} />
        </div>
        <div className="mt-6 border-zinc-200 border-t pt-5 dark:border-ink-700">
          <VersionList video={video} onBusyChange={setVersionBusy} />
        </div>
      </div>
      {sharing ? <ShareDialog video={video} onClose={() => setSharing(false)} /> : null}
    </Dialog>
  )
}
