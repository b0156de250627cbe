// The video form shared by the upload page (create) and the edit modal (edit): title,
// description and the three files (and, creating, optional caption tracks), all in react-hook-form
// and checked by one zod schema with the shared file and caption rules (docs/dashboard.md's
// messages), plus the live title check. The buttons sit in a sticky bar with the page's status
// (progress), so both stay on screen however far one scrolls.

import { type FileKind, type FileMode, fileKinds, msg } from '@contract/index.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import { type ReactNode, useEffect, useMemo, useRef } from 'react'
import { type Resolver, useForm, useWatch } from 'react-hook-form'
import type { Video } from '../../api.ts'
import { TextField } from '../components/text-field.tsx'
import { Button, FieldError, inputStyles } from '../components/ui.tsx'
import { trpc } from '../trpc.ts'
import { CaptionFields } from './caption-fields.tsx'
import { FileField } from './file-field.tsx'
import { useTitleCheck } from './use-title-check.ts'
import { type VideoFormInput, type VideoFormOutput, videoFormSchema } from './video-form-schema.ts'

export type VideoFiles = Partial<Record<FileKind, File>>

export interface VideoFormValues {
  /** Trimmed. */
  title: string
  /** Trimmed. */
  description: string
  /** Only the files the user chose. */
  files: VideoFiles
  /** Caption tracks to add with a new work (always empty when editing); language canonical. */
  captions: CaptionInput[]
}

export interface CaptionInput {
  file: File
  language: string
  label: string
}

export interface VideoFormHelpers {
  setTitleError: (message: string) => void
  /**
   * Shows the server's refusal of a caption track at its field (e.g. the line a file is wrong
   * at), or under the whole Captions section when it does not say which track (`index` null).
   */
  setCaptionError: (
    index: number | null,
    field: 'file' | 'language' | 'label',
    message: string,
  ) => void
}

export interface VideoDraft {
  title: string
  description: string
}

interface VideoFormProps {
  mode: FileMode
  video?: Video
  busy: boolean
  submitLabel: string
  busyLabel: string
  /** Shown in the sticky bar above the buttons (progress, connection state). */
  status?: ReactNode
  /** The sticky bar's name for assistive technology. */
  statusLabel: string
  /** Title and description to start from (a draft kept by the page). */
  draft?: VideoDraft
  onDraftChange?: (draft: VideoDraft) => void
  /** A line under a chosen file's name, e.g. that it continues an unfinished upload. */
  fileNote?: (kind: FileKind, file: File) => string | undefined
  onSubmit: (values: VideoFormValues, helpers: VideoFormHelpers) => Promise<void>
  onCancel?: () => void
}

// A signed link lasts 15 minutes; one asked for when the form opens, not reused after it closes.
const MASTER_LINK_FRESH_MS = 10 * 60_000

/** The title field's error type for the live check's answer. */
const TAKEN = 'taken'

export const fileLabels: Record<FileKind, string> = {
  video: 'Video File',
  thumbnail: 'Thumbnail',
  brandLogo: 'Brand Logo',
}
const currentUrlKey = {
  video: 'videoUrl',
  thumbnail: 'thumbnailUrl',
  brandLogo: 'brandLogoUrl',
} as const satisfies Record<FileKind, keyof Video>

/**
 * What the form shows of a file already saved. The video: its MP4 once processed; before that the
 * master through a signed link (`masterUrl`), since the master's plain address closes the moment
 * its streams exist, which may be while the form is open
 * (docs/decisions/059-a-master-for-admins-once-streams-exist-signed-links.md).
 */
function currentUrl(
  video: Video | undefined,
  kind: FileKind,
  masterUrl: string | undefined,
): string | undefined {
  if (!video) return undefined
  if (kind === 'video') return video.mp4Url ?? masterUrl
  return video[currentUrlKey[kind]] || undefined
}

export function VideoForm({
  mode,
  video,
  busy,
  submitLabel,
  busyLabel,
  status,
  statusLabel,
  draft,
  onDraftChange,
  fileNote,
  onSubmit,
  onCancel,
}: VideoFormProps) {
  const creating = mode === 'create'
  // Both modes' schemas take and give the same shape; only their rules differ.
  const resolver = useMemo(
    () => zodResolver(videoFormSchema(mode)) as Resolver<VideoFormInput, unknown, VideoFormOutput>,
    [mode],
  )
  const form = useForm<VideoFormInput, unknown, VideoFormOutput>({
    resolver,
    defaultValues: {
      title: draft?.title ?? video?.title ?? '',
      description: draft?.description ?? video?.description ?? '',
      video: undefined,
      thumbnail: undefined,
      brandLogo: undefined,
      captions: [],
    },
  })
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    getFieldState,
    trigger,
    control,
    formState: { errors },
  } = form
  const needsMasterLink = !!video && !video.mp4Url && video.status !== 'failed'
  const masterLink = trpc.videos.masterLink.useQuery(
    { id: video?._id ?? '' },
    { enabled: needsMasterLink, staleTime: MASTER_LINK_FRESH_MS, gcTime: 0 },
  )
  const masterUrl = needsMasterLink ? masterLink.data?.url : undefined
  const values = useWatch({ control })
  const bar = useRef<HTMLElement>(null)
  useKeepClearOf(bar)
  useNoFileDropOutsideZones()
  const title = values.title ?? ''
  const description = values.description ?? ''

  const unchangedTitle = !creating && title.trim() === video?.title
  const titleTaken = useTitleCheck(title, { excludeId: video?._id, skip: unchangedTitle || busy })
  // The live check's answer is one more error of the title field, in the form's one error system.
  useEffect(() => {
    if (titleTaken) setError('title', { type: TAKEN, message: msg.titleTaken })
    else if (getFieldState('title').error?.type === TAKEN) clearErrors('title')
  }, [titleTaken, setError, clearErrors, getFieldState])

  useEffect(() => {
    onDraftChange?.({ title, description })
  }, [title, description, onDraftChange])

  const chosen = fileKinds.some((kind) => values[kind] instanceof File)
  const hasFileError =
    fileKinds.some((kind) => errors[kind]) || Boolean(errors.captions?.some?.((row) => row?.file))
  const changed =
    creating ||
    chosen ||
    title !== (video?.title ?? '') ||
    description !== (video?.description ?? '')

  const choose = (kind: FileKind, file: File) => {
    setValue(kind, file, { shouldDirty: true })
    void trigger(kind)
  }

  const remove = (kind: FileKind) => {
    if (creating && kind === 'video') {
      // Removing the video while creating says so at once (docs/dashboard.md, shared video form).
      setValue('video', null, { shouldDirty: true })
      void trigger('video')
      return
    }
    setValue(kind, undefined, { shouldDirty: true })
    clearErrors(kind)
  }

  const submit = handleSubmit(async (parsed) => {
    if (titleTaken) {
      // The resolver knows only the rules; the live check's error stays.
      setError('title', { type: TAKEN, message: msg.titleTaken })
      return
    }
    const files: VideoFiles = {}
    for (const kind of fileKinds) {
      const file = parsed[kind]
      if (file) files[kind] = file
    }
    // The resolver refused any row without a file.
    const captions = parsed.captions.flatMap(({ file, language, label }) =>
      file ? [{ file, language, label }] : [],
    )
    await onSubmit(
      { title: parsed.title, description: parsed.description, files, captions },
      {
        setTitleError: (message) => setError('title', { message }),
        setCaptionError: (index, field, message) =>
          index === null
            ? setError('captions', { message })
            : setError(
                `captions.${index}.${field}`,
                { message },
                { shouldFocus: field !== 'file' },
              ),
      },
    )
  })

  const disabled = busy || hasFileError || titleTaken || !changed

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-busy={busy}>
      <TextField
        label="Video Title"
        autoComplete="off"
        disabled={busy}
        error={errors.title?.message}
        data-autofocus
        {...register('title')}
      />
      <div>
        <label htmlFor="video-description" className="mb-1 block font-medium text-sm">
          Description
        </label>
        <textarea
          id="video-description"
          rows={4}
          disabled={busy}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? 'video-description-error' : undefined}
          className={inputStyles}
          {...register('description')}
        />
        <FieldError id="video-description-error" message={errors.description?.message} />
      </div>
      <div className={`grid gap-5 ${creating ? 'lg:grid-cols-3' : 'sm:grid-cols-3'}`}>
        {fileKinds.map((kind) => {
          const file = values[kind]
          return (
            <FileField
              key={kind}
              kind={kind}
              label={fileLabels[kind]}
              mode={mode}
              file={file}
              currentUrl={currentUrl(video, kind, masterUrl)}
              error={errors[kind]?.message}
              note={file instanceof File ? fileNote?.(kind, file) : undefined}
              disabled={busy}
              onChoose={(chosenFile) => choose(kind, chosenFile)}
              onRemove={() => remove(kind)}
            />
          )
        })}
      </div>
      {creating ? <CaptionFields form={form} busy={busy} /> : null}
      <section
        ref={bar}
        aria-label={statusLabel}
        className={`sticky bottom-0 z-10 space-y-3 border-zinc-200 border-t bg-white/95 py-3 backdrop-blur dark:border-ink-700 dark:bg-ink-900/95 ${creating ? '-mx-5 px-5 sm:-mx-6 sm:px-6' : '-mx-5 px-5'}`}
      >
        {status}
        <div className="flex flex-wrap justify-end gap-3">
          {onCancel ? (
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" disabled={disabled} className="min-h-11 min-w-40">
            {busy ? busyLabel : submitLabel}
          </Button>
        </div>
      </section>
    </form>
  )
}

/** The nearest ancestor that scrolls vertically (the page, or a dialog's body). */
function scrollParent(el: HTMLElement): HTMLElement {
  for (let node = el.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node)
    if (overflowY === 'auto' || overflowY === 'scroll') return node
  }
  return document.documentElement
}

/**
 * Keeps what gets focus or is scrolled to clear of the sticky bar (WCAG 2.4.11): the scrolling
 * container's bottom scroll padding follows the bar's height as its content changes.
 */
function useKeepClearOf(bar: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = bar.current
    if (!el) return
    const container = scrollParent(el)
    const before = container.style.scrollPaddingBottom
    const observer = new ResizeObserver(() => {
      container.style.scrollPaddingBottom = `${el.offsetHeight + 8}px`
    })
    observer.observe(el)
    return () => {
      observer.disconnect()
      container.style.scrollPaddingBottom = before
    }
  }, [bar])
}

/**
 * A file dropped beside a drop zone would make the browser open it in place of the page, and the
 * form with everything typed would be gone: while the form is shown such a drop does nothing.
 */
function useNoFileDropOutsideZones() {
  useEffect(() => {
    const ignore = (event: DragEvent) => {
      if (event.defaultPrevented || !event.dataTransfer?.types.includes('Files')) return
      event.preventDefault()
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'none'
    }
    window.addEventListener('dragover', ignore)
    window.addEventListener('drop', ignore)
    return () => {
      window.removeEventListener('dragover', ignore)
      window.removeEventListener('drop', ignore)
    }
  }, [])
}
