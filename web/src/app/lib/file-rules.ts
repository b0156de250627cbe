// Client-side file checks for the video form, built from the shared limits and messages.
// The server decides again from the file's first bytes; this only gives the user early feedback.
import {
  type FileKind,
  imageTypes,
  maxBytes,
  msg,
  videoTypes,
} from '../../../../src/schemas/index.ts'

export type FormMode = 'create' | 'edit'

const sizeMessage = (kind: FileKind, mode: FormMode) => {
  if (kind === 'video') return msg.videoSize
  if (kind === 'thumbnail') return msg.thumbnailSize
  return mode === 'edit' ? msg.brandLogoSizeEdit : msg.brandLogoSize
}

export const acceptFor = (kind: FileKind) => (kind === 'video' ? videoTypes : imageTypes).join(',')

/** The message for a chosen file, or null when it is acceptable. */
export function fileError(kind: FileKind, file: Pick<File, 'type' | 'size'>, mode: FormMode) {
  const types: readonly string[] = kind === 'video' ? videoTypes : imageTypes
  if (!types.includes(file.type)) return kind === 'video' ? msg.videoType : msg.imageType
  if (file.size > maxBytes(kind, mode)) return sizeMessage(kind, mode)
  return null
}

/** The message for a file that is required but missing (creating only). */
export function missingFileError(kind: FileKind) {
  if (kind === 'video') return msg.videoRequired
  if (kind === 'thumbnail') return msg.thumbnailRequired
  return msg.brandLogoRequired
}
