// The video form shared by the upload page (create) and the edit modal (edit): title,
// description and the three files, with every message of SPEC §5 and the live title check.
import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import {
  descriptionSchema,
  editTitleSchema,
  type FileKind,
  type FileMode,
  fileError,
  msg,
  requiredMessage,
  titleSchema,
} from '../../../../src/schemas/index.ts'
import type { Video } from '../api.ts'
import { TextField } from '../components/TextField.tsx'
import { Button, FieldError, inputStyles, ProgressBar } from '../components/ui.tsx'
import { FileField } from './FileField.tsx'
import { useTitleCheck } from './use-title-check.ts'

const createSchema = z.object({ title: titleSchema, description: descriptionSchema })
const editSchema = z.object({ title: editTitleSchema, description: descriptionSchema })

export type VideoFiles = Partial<Record<FileKind, File>>

export interface VideoFormValues {
  /** Trimmed. */
  title: string
  /** Trimmed. */
  description: string
  /** Only the files the user chose. */
  files: VideoFiles
}

export interface VideoFormHelpers {
  setTitleError: (message: string) => void
}

interface VideoFormProps {
  mode: FileMode
  video?: Video
  busy: boolean
  progress: number
  submitLabel: string
  busyLabel: string
  onSubmit: (values: VideoFormValues, helpers: VideoFormHelpers) => Promise<void>
  onCancel?: () => void
}

const fileFields: { kind: FileKind; label: string; current: keyof Video }[] = [
  { kind: 'video', label: 'Video File', current: 'videoUrl' },
  { kind: 'thumbnail', label: 'Thumbnail', current: 'thumbnailUrl' },
  { kind: 'brandLogo', label: 'Brand Logo', current: 'brandLogoUrl' },
]

type FileState = Record<FileKind, File | null>
type FileErrors = Partial<Record<FileKind, string>>

export function VideoForm({
  mode,
  video,
  busy,
  progress,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
}: VideoFormProps) {
  const creating = mode === 'create'
  const [files, setFiles] = useState<FileState>({ video: null, thumbnail: null, brandLogo: null })
  const [fileErrors, setFileErrors] = useState<FileErrors>({})
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(creating ? createSchema : editSchema),
    defaultValues: { title: video?.title ?? '', description: video?.description ?? '' },
  })

  const title = watch('title') ?? ''
  const description = watch('description') ?? ''
  const unchangedTitle = !creating && title.trim() === video?.title
  const titleTaken = useTitleCheck(title, { excludeId: video?._id, skip: unchangedTitle || busy })

  const chosen = Object.values(files).some(Boolean)
  const hasFileError = Object.values(fileErrors).some(Boolean)
  const changed =
    creating ||
    chosen ||
    title !== (video?.title ?? '') ||
    description !== (video?.description ?? '')

  const choose = (kind: FileKind, file: File | null) => {
    setFiles((f) => ({ ...f, [kind]: file }))
    setFileErrors((e) => ({
      ...e,
      [kind]: file
        ? (fileError(kind, file, mode) ?? undefined)
        : creating
          ? requiredMessage(kind)
          : undefined,
    }))
  }

  const remove = (kind: FileKind) => {
    setFiles((f) => ({ ...f, [kind]: null }))
    // Removing the video while creating says so at once (SPEC §5, shared video form).
    setFileErrors((e) => ({
      ...e,
      [kind]: creating && kind === 'video' ? msg.videoRequiredEdit : undefined,
    }))
  }

  const missing = (): FileErrors => {
    if (!creating) return {}
    const out: FileErrors = {}
    for (const { kind } of fileFields) if (!files[kind]) out[kind] = requiredMessage(kind)
    return out
  }

  const submit = handleSubmit(
    async (values) => {
      const absent = missing()
      if (Object.keys(absent).length > 0) {
        setFileErrors((e) => ({ ...absent, ...e, ...absent }))
        return
      }
      if (titleTaken) return
      const chosenFiles: VideoFiles = {}
      for (const { kind } of fileFields) {
        const file = files[kind]
        if (file) chosenFiles[kind] = file
      }
      await onSubmit(
        { title: values.title, description: values.description ?? '', files: chosenFiles },
        { setTitleError: (message) => setError('title', { message }) },
      )
    },
    // Show missing-file messages together with the field messages.
    () => setFileErrors((e) => ({ ...missing(), ...e })),
  )

  const titleError = errors.title?.message ?? (titleTaken ? msg.titleTaken : undefined)
  const disabled = busy || hasFileError || titleTaken || !changed

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-busy={busy}>
      <TextField
        label="Video Title"
        autoComplete="off"
        disabled={busy}
        error={titleError}
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
      <div className="grid gap-5 lg:grid-cols-3">
        {fileFields.map(({ kind, label, current }) => (
          <FileField
            key={kind}
            kind={kind}
            label={label}
            file={files[kind]}
            currentUrl={video ? String(video[current] ?? '') || undefined : undefined}
            error={fileErrors[kind]}
            disabled={busy}
            onChoose={(file) => choose(kind, file)}
            onRemove={() => remove(kind)}
          />
        ))}
      </div>
      {busy ? (
        <ProgressBar value={progress} label={creating ? 'Upload progress' : 'Update progress'} />
      ) : null}
      <div className="flex flex-wrap justify-end gap-3">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={disabled} className="min-w-40">
          {busy ? busyLabel : submitLabel}
        </Button>
      </div>
    </form>
  )
}
