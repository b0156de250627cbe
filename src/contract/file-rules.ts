// The rules for a video's three files (docs/limits.md), in one place: which kinds exist, how large
// each may be when creating or editing, which types it takes, and the messages for a file that is
// too large, of the wrong type or missing. The tus hooks, the REST adapter, the hand-over to the
// media store and the web forms all ask here. Shared with web/: no server imports.
import { limits } from './limits.ts'
import { msg } from './messages.ts'

export const fileKinds = ['video', 'thumbnail', 'brandLogo'] as const
export type FileKind = (typeof fileKinds)[number]

/** Creating a video, or editing one (where the brand logo has a smaller limit). */
export type FileMode = 'create' | 'edit'

export const videoTypes = ['video/mp4', 'video/webm', 'video/ogg'] as const
export const imageTypes = ['image/jpeg', 'image/png', 'image/webp'] as const
export type VideoType = (typeof videoTypes)[number]
export type ImageType = (typeof imageTypes)[number]
export type MediaType = VideoType | ImageType

/** Largest accepted size for a kind; `edit` applies the brand logo's smaller edit-form limit. */
export function maxBytes(kind: FileKind, mode: FileMode = 'create'): number {
  if (kind === 'video') return limits.videoBytes
  if (kind === 'thumbnail') return limits.thumbnailBytes
  return mode === 'edit' ? limits.brandLogoEditBytes : limits.brandLogoBytes
}

/** The types a kind takes: videos are videos, the thumbnail and the brand logo are images. */
export const acceptedTypes = (kind: FileKind): readonly MediaType[] =>
  kind === 'video' ? videoTypes : imageTypes

/**
 * Whether `type` is accepted for `kind`. The server asks with the type sniffed from the file's
 * first bytes; the forms with the type the browser reports, for early feedback only.
 */
export function kindAccepts(kind: FileKind, type: string | undefined): type is MediaType {
  return acceptedTypes(kind).some((accepted) => accepted === type)
}

export const tooLargeMessage = (kind: FileKind, mode: FileMode = 'create') =>
  kind === 'video'
    ? msg.videoSize
    : kind === 'thumbnail'
      ? msg.thumbnailSize
      : mode === 'edit'
        ? msg.brandLogoSizeEdit
        : msg.brandLogoSize

export const wrongTypeMessage = (kind: FileKind) =>
  kind === 'video' ? msg.videoType : msg.imageType

/** The message for a file that is required but missing (creating a video). */
export const requiredMessage = (kind: FileKind) =>
  kind === 'video'
    ? msg.videoRequired
    : kind === 'thumbnail'
      ? msg.thumbnailRequired
      : msg.brandLogoRequired

/** The message for a chosen file as the browser describes it, or null when it is acceptable. */
export function fileError(
  kind: FileKind,
  file: { type: string; size: number },
  mode: FileMode,
): string | null {
  if (!kindAccepts(kind, file.type)) return wrongTypeMessage(kind)
  if (file.size > maxBytes(kind, mode)) return tooLargeMessage(kind, mode)
  return null
}

/** `value` as a file kind, when it is one (e.g. the `kind` an upload's metadata names). */
export const asFileKind = (value: unknown): FileKind | undefined =>
  fileKinds.find((kind) => kind === value)

const typeNames: Record<MediaType, string> = {
  'video/mp4': 'MP4',
  'video/webm': 'WebM',
  'video/ogg': 'OGG',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
}

/**
 * A limit as the forms state it. Each limit is a round number in binary (2 GiB, 10 MiB) or in
 * decimal units (the brand logo's 10 MB and 5 MB), and the messages name both "MB"/"GB".
 */
function limitLabel(bytes: number): string {
  for (const [unit, binary, decimal] of [
    ['GB', 1024 ** 3, 1000 ** 3],
    ['MB', 1024 ** 2, 1000 ** 2],
    ['KB', 1024, 1000],
  ] as const) {
    if (bytes >= binary && bytes % binary === 0) return `${bytes / binary} ${unit}`
    if (bytes >= decimal && bytes % decimal === 0) return `${bytes / decimal} ${unit}`
  }
  return `${bytes} B`
}

/**
 * What a file field takes, said before a file is chosen: 'MP4, WebM or OGG · up to 2 GB',
 * 'JPEG, PNG or WebP · up to 10 MB' (5 MB for an edited video's brand logo).
 */
export function fileRuleSummary(kind: FileKind, mode: FileMode = 'create'): string {
  const names = acceptedTypes(kind).map((type) => typeNames[type])
  const types = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]
  return `${types} · up to ${limitLabel(maxBytes(kind, mode))}`
}
