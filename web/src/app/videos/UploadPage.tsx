// Upload Video (SPEC §2, §4): three tus uploads with one overall percentage, then videos.create.
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { msg } from '../../../../src/schemas/index.ts'
import { PageHeader } from '../components/PageHeader.tsx'
import { Card } from '../components/ui.tsx'
import { readError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'
import { handleUnauthorized } from '../lib/session.ts'
import { UploadError, uploadFiles } from '../lib/tus.ts'
import { authStore } from '../stores/auth.ts'
import { addVideo, updateVideos, videoStore } from '../stores/video-store.ts'
import { trpc } from '../trpc.ts'
import { VideoForm, type VideoFormHelpers, type VideoFormValues } from './VideoForm.tsx'

export function UploadPage() {
  const navigate = useNavigate()
  const utils = trpc.useUtils()
  const create = trpc.videos.create.useMutation()
  const [busy, setBusy] = useState(false)
  const progress = videoStore.use((s) => s.uploadProgress)
  const setProgress = (uploadProgress: number) => videoStore.set({ uploadProgress })

  // Leaving mid-upload loses nothing (tus resumes), but say so before the tab closes.
  useEffect(() => {
    if (!busy) return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [busy])

  useEffect(() => () => videoStore.set({ uploadProgress: 0 }), [])

  const onSubmit = async (
    { title, description, files }: VideoFormValues,
    { setTitleError }: VideoFormHelpers,
  ) => {
    const { video, thumbnail, brandLogo } = files
    if (!video || !thumbnail || !brandLogo) return
    setBusy(true)
    setProgress(0)
    const { token } = authStore.get()
    try {
      const uploads = await uploadFiles(
        { video, thumbnail, brandLogo },
        { token, onProgress: setProgress },
      )
      if (!uploads.video || !uploads.thumbnail || !uploads.brandLogo) {
        throw new UploadError('An upload did not finish')
      }
      const result = await create.mutateAsync({
        title,
        description,
        uploads: {
          video: uploads.video,
          thumbnail: uploads.thumbnail,
          brandLogo: uploads.brandLogo,
        },
      })
      updateVideos((s) => addVideo(s, result.video))
      await Promise.all([utils.videos.list.invalidate(), utils.videos.stats.invalidate()])
      notify.success('Video uploaded successfully!')
      setProgress(0)
      await navigate({ to: '/dashboard/manage' })
    } catch (err) {
      setProgress(0)
      setBusy(false)
      if (err instanceof UploadError && err.status === 401) {
        handleUnauthorized(token)
        return
      }
      const e = readError(err)
      if (e.field === 'title' || e.status === 409) setTitleError(e.message ?? msg.titleTaken)
      notify.error('Failed to upload video. Please try again.')
    }
  }

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Upload Video" crumb="Upload Video" />
      <Card className="p-5 sm:p-6">
        <VideoForm
          mode="create"
          busy={busy}
          progress={progress}
          submitLabel="Upload Video"
          busyLabel={`Uploading... ${progress}%`}
          onSubmit={onSubmit}
        />
      </Card>
    </div>
  )
}
