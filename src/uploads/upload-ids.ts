// Upload ids: @tus/server's default naming (Uid.rand), 16 random bytes in hex. Anything else in a
// URL or the uploads folder is not an upload of ours, whatever it decodes to (`..`, `%2F`,
// absolute paths).

const ID_RE = /^[0-9a-f]{32}$/

export const isUploadId = (value: string | undefined): value is string =>
  value !== undefined && ID_RE.test(value)

export const newUploadId = () =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
