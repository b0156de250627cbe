// The kinds an upload may name in its metadata: a video's three files, and a caption track (text:
// checked as captions when a change takes it, never sniffed as media). One place for each kind's
// size limit and its 413 message, for the tus hooks and the REST adapter.
import { CAPTIONS_MAX_BYTES, CAPTIONS_UPLOAD_KIND, captionsMessages } from '../contract/captions.ts'
import { asFileKind, type FileKind, maxBytes, tooLargeMessage } from '../contract/file-rules.ts'

export type UploadKind = FileKind | typeof CAPTIONS_UPLOAD_KIND

/** `value` as an upload kind, when it is one. */
export const asUploadKind = (value: unknown): UploadKind | undefined =>
  asFileKind(value) ?? (value === CAPTIONS_UPLOAD_KIND ? CAPTIONS_UPLOAD_KIND : undefined)

/** The largest upload of a kind (a video's files as created). */
export const uploadMaxBytes = (kind: UploadKind): number =>
  kind === CAPTIONS_UPLOAD_KIND ? CAPTIONS_MAX_BYTES : maxBytes(kind)

export const uploadTooLarge = (kind: UploadKind): string =>
  kind === CAPTIONS_UPLOAD_KIND ? captionsMessages.tooLarge : tooLargeMessage(kind)
