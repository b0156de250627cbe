// SPEC.md section 9: one place for every size, type and count the server and the forms enforce.
export const MiB = 1024 * 1024
export const MB = 1000 * 1000

export const limits = {
  videoBytes: 2 * 1024 * MiB,
  thumbnailBytes: 10 * MiB,
  brandLogoBytes: 10 * MB,
  brandLogoEditBytes: 5 * MB,
  usernameMin: 3,
  passwordMin: 6,
  titleMin: 3,
  titleMax: 200,
  descriptionMax: 5000,
  pageSizeDefault: 10,
  pageSizeMax: 100,
} as const

export const videoTypes = ['video/mp4', 'video/webm', 'video/ogg'] as const
export const imageTypes = ['image/jpeg', 'image/png', 'image/webp'] as const
export type VideoType = (typeof videoTypes)[number]
export type ImageType = (typeof imageTypes)[number]
export type MediaType = VideoType | ImageType

export const fileKinds = ['video', 'thumbnail', 'brandLogo'] as const
export type FileKind = (typeof fileKinds)[number]

/** Largest accepted size for a kind; `edit` applies the brand logo's smaller edit-form limit. */
export function maxBytes(kind: FileKind, mode: 'create' | 'edit' = 'create'): number {
  if (kind === 'video') return limits.videoBytes
  if (kind === 'thumbnail') return limits.thumbnailBytes
  return mode === 'edit' ? limits.brandLogoEditBytes : limits.brandLogoBytes
}
