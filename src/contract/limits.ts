// docs/limits.md: one place for every size and count the server and the forms enforce. The
// per-kind file rules built on these (types, limits by mode, messages) are in file-rules.ts.
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
