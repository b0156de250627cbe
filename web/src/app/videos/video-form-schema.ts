// The video form's rules as one zod schema for react-hook-form: docs/dashboard.md's title rules and
// the shared file rules (types, limits by mode, messages), so every message of the form comes from
// one resolver. Creating needs all three files; editing takes any of them (brand logo ≤ 5 MB).
// Caption tracks come with a new work only: the edit dialog adds and removes them one at a time.

import {
  descriptionSchema,
  editTitleSchema,
  type FileKind,
  type FileMode,
  fileError,
  msg,
  requiredMessage,
  titleSchema,
} from '@contract/index.ts'
import { z } from 'zod'
import { captionRowsSchema } from './caption-form-schema.ts'

/**
 * A file field's value: the chosen file; `undefined` while none was chosen; `null` once a chosen
 * video was removed while creating, which docs/dashboard.md answers with 'Video is required'.
 */
export type FileValue = File | null | undefined

const isFileValue = (value: unknown): value is FileValue =>
  value === undefined || value === null || (typeof File !== 'undefined' && value instanceof File)

function fileSchema(kind: FileKind, mode: FileMode) {
  const value = z.custom<FileValue>(isFileValue)
  // Creating: a missing file is refined too (an optional schema would skip an absent one).
  return (mode === 'create' ? value : value.optional()).superRefine((file, ctx) => {
    if (file) {
      const message = fileError(kind, file, mode)
      if (message) ctx.addIssue({ code: 'custom', message })
      return
    }
    if (mode !== 'create') return
    const message =
      file === null && kind === 'video' ? msg.videoRequiredEdit : requiredMessage(kind)
    ctx.addIssue({ code: 'custom', message })
  })
}

export function videoFormSchema(mode: FileMode) {
  return z.object({
    title: mode === 'create' ? titleSchema : editTitleSchema,
    description: descriptionSchema,
    video: fileSchema('video', mode),
    thumbnail: fileSchema('thumbnail', mode),
    brandLogo: fileSchema('brandLogo', mode),
    captions: (mode === 'create' ? captionRowsSchema : captionRowsSchema.max(0)).default([]),
  })
}

export type VideoFormInput = z.input<ReturnType<typeof videoFormSchema>>
export type VideoFormOutput = z.output<ReturnType<typeof videoFormSchema>>
