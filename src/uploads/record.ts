// An upload's record, `<id>.json` beside its data in DATA_DIR/uploads: @tus/file-store's fields
// and two of ours. Who created the upload is kept apart from the client's Upload-Metadata, so the
// metadata is the client's own (any keys, an `owner` one included, echoed as sent) and no key in it
// can name an owner.
import { Metadata, type Upload } from '@tus/server'

export type UploadRecord = {
  id: string
  size?: number
  offset: number
  metadata?: Record<string, string | null>
  creation_date?: string
  /** The admin who created the upload. */
  owner?: string
  /** Upload-Metadata exactly as the client sent it, which HEAD answers. */
  metadataHeader?: string
}

/** Our fields, written into the upload the library is about to store as its record. */
export function stampRecord(
  upload: Upload,
  fields: { owner: string; metadataHeader?: string },
): void {
  Object.assign(upload, fields)
}

/**
 * Records written before the owner had its own field (until 2026-11) kept it as the metadata key
 * `owner`, written by the server over any the client sent: there, and only there, it is read.
 * Such uploads resume and finish as before, and expire like any other.
 */
const isOlderRecord = (record: UploadRecord) => !('owner' in record)

/** The admin who created the upload. */
export function ownerOf(record: UploadRecord): string | undefined {
  if (!isOlderRecord(record)) return record.owner
  return record.metadata?.owner ?? undefined
}

/**
 * The Upload-Metadata a HEAD answers: as sent. An older record has only the parsed metadata,
 * answered without the owner key the server added; a file registered from a multipart body has
 * only the metadata the server gave it.
 */
export function metadataHeaderOf(record: UploadRecord): string | undefined {
  if (record.metadataHeader !== undefined) return record.metadataHeader
  if (!record.metadata) return undefined
  const { owner, ...sent } = record.metadata
  return Metadata.stringify(isOlderRecord(record) ? sent : record.metadata)
}
