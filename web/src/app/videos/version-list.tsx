// A work's versions in its Edit dialog (docs/review.md#versions): each with its number, date,
// length, uploader and state; "Make current" for an older ready one, Delete (asked once, inline)
// for any that is not current, and "Upload a new version": a file sent with tus (resumable, with
// its progress), then processed while the current version keeps playing. The list asks again
// while a version is being processed, as the Manage page does.

import { fileError, fileRuleSummary } from '@contract/file-rules.ts'
import type { VersionView } from '@contract/version.ts'
import { useEffect, useRef, useState } from 'react'
import type { Video } from '../../api.ts'
import { Button, inputStyles, ProgressBar, Spinner } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { formatDate } from '../lib/format.ts'
import { notify } from '../lib/notify.ts'
import { useAuthStore } from '../stores/auth.ts'
import { trpc } from '../trpc.ts'
import { anyInProgress, formatDuration, PROCESSING_POLL_MS } from './processing.ts'
import { uploadItems } from './tus-uploads.ts'

export function VersionList({
  video,
  onBusyChange,
}: {
  video: Video
  onBusyChange?: (busy: boolean) => void
}) {
  const versions = trpc.versions.list.useQuery(
    { id: video._id },
    {
      staleTime: 0,
      refetchInterval: (query) =>
        anyInProgress(query.state.data?.versions ?? []) ? PROCESSING_POLL_MS : false,
    },
  )
  const [announcement, setAnnouncement] = useState('')
  // A version that finished processing became current by itself: the Manage page's row (its
  // player, length and state) is the new cut's now.
  const utils = trpc.useUtils()
  const current = versions.data?.versions.find((v) => v.current)
  const seenCurrent = useRef<string | undefined>(undefined)
  useEffect(() => {
    if (!current) return
    if (seenCurrent.current && seenCurrent.current !== current._id) {
      void utils.videos.list.invalidate()
      setAnnouncement(`Version ${current.number} is now current`)
    }
    seenCurrent.current = current._id
  }, [current, utils])

  return (
    <section aria-labelledby="versions-heading" aria-busy={versions.isFetching}>
      <h3 id="versions-heading" tabIndex={-1} className="mb-2 font-semibold outline-none">
        Versions
      </h3>
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {versions.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading versions" className="size-6" />
        </div>
      ) : versions.isError ? (
        <div role="alert" className="rounded-lg border border-red-200 p-3 dark:border-red-900">
          <p className="text-red-600 text-sm dark:text-red-400">
            {toClientError(versions.error).message || 'Failed to load the versions'}
          </p>
          <Button
            variant="secondary"
            className="mt-2 min-h-11"
            onClick={() => void versions.refetch()}
          >
            Try again
          </Button>
        </div>
      ) : versions.data.versions.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">No versions yet</p>
      ) : (
        <ul className="space-y-2" aria-label="Versions of this work">
          {versions.data.versions.toReversed().map((version) => (
            <VersionRow key={version._id} version={version} announce={setAnnouncement} />
          ))}
        </ul>
      )}
      <NewVersion video={video} announce={setAnnouncement} onBusyChange={onBusyChange} />
    </section>
  )
}

function stateText(version: VersionView): string {
  if (version.status === 'queued') return 'Waiting to be processed'
  if (version.status === 'processing') return `Processing ${version.progress}%`
  if (version.status === 'failed') return `Failed${version.error ? `: ${version.error}` : ''}`
  return version.duration === null ? 'Ready' : formatDuration(version.duration)
}

function VersionRow({
  version,
  announce,
}: {
  version: VersionView
  announce: (text: string) => void
}) {
  const utils = trpc.useUtils()
  const makeCurrent = trpc.versions.makeCurrent.useMutation()
  const remove = trpc.versions.delete.useMutation()
  const [asking, setAsking] = useState(false)
  const row = useRef<HTMLLIElement>(null)
  const name = `version ${version.number}`
  const refresh = () => {
    void utils.versions.list.invalidate({ id: version.videoId })
    void utils.videos.list.invalidate()
  }

  const choose = async () => {
    try {
      await makeCurrent.mutateAsync({ id: version.videoId, versionId: version._id })
      refresh()
      notify.success(`Version ${version.number} is now current`)
      announce(`Version ${version.number} is now current`)
    } catch (err) {
      const message = toClientError(err).message || 'Failed to change the current version'
      notify.error(message)
      announce(message)
    }
  }

  const confirm = async () => {
    try {
      await remove.mutateAsync({ id: version.videoId, versionId: version._id })
      refresh()
      notify.success(`Version ${version.number} deleted`)
      announce(`Version ${version.number} deleted`)
      // The row goes: focus moves to the list's heading, not to the page's end.
      document.getElementById('versions-heading')?.focus()
    } catch (err) {
      const message = toClientError(err).message || 'Failed to delete the version'
      notify.error(message)
      announce(message)
    }
  }

  const busy = makeCurrent.isPending || remove.isPending
  return (
    <li
      ref={row}
      tabIndex={-1}
      aria-label={`Version ${version.number}${version.current ? ', current' : ''}`}
      className="flex flex-col gap-2 rounded-lg border border-zinc-200 p-3 outline-none focus-visible:ring-2 focus-visible:ring-amber-500 sm:flex-row sm:items-center sm:justify-between dark:border-ink-700"
    >
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          Version {version.number}
          {version.current ? (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-amber-900 text-xs dark:bg-accent/20 dark:text-accent">
              Current
            </span>
          ) : null}
        </p>
        <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-zinc-600 dark:text-zinc-300">
          <span>{formatDate(version.createdAt)}</span>
          <span className={version.status === 'failed' ? 'text-red-700 dark:text-red-400' : ''}>
            {stateText(version)}
          </span>
          <span>by {version.uploadedBy.name ?? 'an admin no longer here'}</span>
        </p>
      </div>
      {!version.current && !asking ? (
        <div className="flex shrink-0 flex-wrap gap-2">
          {version.status === 'ready' ? (
            <Button
              variant="secondary"
              className="min-h-11"
              disabled={busy}
              aria-label={`Make current: ${name}`}
              onClick={() => void choose()}
            >
              {makeCurrent.isPending ? 'Switching...' : 'Make current'}
            </Button>
          ) : null}
          <Button
            variant="secondary"
            className="min-h-11 text-red-700 dark:text-red-400"
            disabled={busy}
            aria-label={`Delete ${name}`}
            onClick={() => {
              setAsking(true)
              requestAnimationFrame(() =>
                row.current?.querySelector<HTMLElement>('[data-keep]')?.focus(),
              )
            }}
          >
            Delete
          </Button>
        </div>
      ) : null}
      {!version.current && asking ? (
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <span className="text-sm">Delete {name} and its media?</span>
          <Button
            data-keep
            variant="secondary"
            className="min-h-11"
            disabled={remove.isPending}
            onClick={() => setAsking(false)}
          >
            Keep
          </Button>
          <Button
            variant="danger"
            className="min-h-11"
            disabled={remove.isPending}
            onClick={() => void confirm()}
          >
            {remove.isPending ? 'Deleting...' : 'Delete version'}
          </Button>
        </div>
      ) : null}
    </li>
  )
}

function NewVersion({
  video,
  announce,
  onBusyChange,
}: {
  video: Video
  announce: (text: string) => void
  onBusyChange?: ((busy: boolean) => void) | undefined
}) {
  const utils = trpc.useUtils()
  const add = trpc.versions.add.useMutation()
  const input = useRef<HTMLInputElement>(null)
  const [file, setFile] = useState<File | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [percent, setPercent] = useState<number | null>(null)
  const [paused, setPaused] = useState(false)

  const busy = percent !== null
  const setBusy = (value: number | null) => {
    setPercent(value)
    onBusyChange?.(value !== null)
  }

  const send = async () => {
    if (!file) {
      setProblem('Choose the video file of the new version')
      return
    }
    const { token, user } = useAuthStore.getState()
    setBusy(0)
    try {
      const ids = await uploadItems([{ key: 'version', kind: 'video', file }], {
        token,
        scope: { owner: user?._id ?? '', purpose: `edit:${video._id}` },
        onProgress: (p) => setPercent(p.percent),
        onPausedChange: setPaused,
      })
      const { version } = await add.mutateAsync({ id: video._id, upload: ids.version ?? '' })
      void utils.versions.list.invalidate({ id: video._id })
      const text = `Version ${version.number} uploaded. It plays everywhere once it is processed.`
      notify.success(text)
      announce(text)
      setFile(null)
      if (input.current) input.current.value = ''
    } catch (err) {
      const message = toClientError(err).message || 'Failed to upload the new version'
      setProblem(message)
      announce(message)
    } finally {
      setBusy(null)
      setPaused(false)
    }
  }

  return (
    <div className="mt-4 space-y-2">
      <label htmlFor="new-version-file" className="block font-medium text-sm">
        Upload a new version
      </label>
      <p id="new-version-rules" className="text-xs text-zinc-600 dark:text-zinc-400">
        {fileRuleSummary('video')}. The current version keeps playing until the new one is
        processed; then the page, the embed and every review link play it at the same addresses.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {/* The native input stays for keyboards and screen readers; what shows is the chosen
            file's name, never the browser's own "No file chosen". */}
        <label
          className={`${inputStyles} flex min-h-11 max-w-full flex-1 cursor-pointer items-center has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-amber-500 has-[input:disabled]:cursor-not-allowed has-[input:disabled]:opacity-60`}
        >
          <input
            ref={input}
            id="new-version-file"
            type="file"
            accept="video/mp4,video/webm,video/ogg"
            disabled={busy}
            aria-describedby={`new-version-rules${problem ? ' new-version-error' : ''}`}
            aria-invalid={problem ? true : undefined}
            className="sr-only"
            onChange={(event) => {
              const chosen = event.target.files?.[0] ?? null
              setFile(chosen)
              setProblem(chosen ? fileError('video', chosen, 'create') : null)
            }}
          />
          <span className="truncate">{file ? file.name : 'Choose the video file'}</span>
        </label>
        <Button className="min-h-11" disabled={busy || !!problem} onClick={() => void send()}>
          {busy ? `Uploading... ${percent}%` : 'Upload version'}
        </Button>
      </div>
      {problem ? (
        <p id="new-version-error" role="alert" className="text-red-600 text-sm dark:text-red-400">
          {problem}
        </p>
      ) : null}
      {busy ? <ProgressBar value={percent ?? 0} label="New version upload" /> : null}
      {paused ? (
        <p role="status" className="text-amber-700 text-sm dark:text-accent">
          Connection lost. The upload resumes by itself when it is back.
        </p>
      ) : null}
    </div>
  )
}
