// The one way a file becomes media: finished uploads are claimed for one change, checked (real
// type from their first bytes, size for their kind), taken into the store under generated names,
// and released only once the row that names them has committed.

import {
  type FileKind,
  type FileMode,
  fileKinds,
  kindAccepts,
  type MediaType,
  maxBytes,
  tooLargeMessage,
  wrongTypeMessage,
} from '../contract/file-rules.ts'
import { AppError } from '../errors.ts'
import { adopt, type MediaStore, removeNames } from '../storage/store.ts'
import { crashPoint } from './crash-points.ts'
import type { FinishedUpload, UploadRegistry } from './registry.ts'
import { sniff } from './sniff.ts'

export type UploadIds = Partial<Record<FileKind, string>>

export type Verified = {
  kind: FileKind
  uploadId: string
  upload: FinishedUpload
  size: number
  type: MediaType
}

export type Adopted = Verified & { name: string }

type Uploads = Pick<UploadRegistry, 'finished' | 'release' | 'claim' | 'unclaim'>
export type IntakeDeps = { uploads: Uploads; store: MediaStore }

export const SAME_UPLOAD_TWICE = 'The same upload cannot be used for two files'
export const UPLOAD_BUSY = 'This upload is already being saved with another request'
export const UPLOAD_GONE = 'The uploaded file was not found or has expired. Please upload it again'

/** A finished upload of `ownerId`, checked for `kind`; throws the refusal when it fails. */
export async function verifyUpload(
  uploads: Pick<Uploads, 'finished'>,
  ownerId: string,
  kind: FileKind,
  uploadId: string,
  mode: FileMode,
): Promise<Verified> {
  const found = await uploads.finished(uploadId, ownerId)
  if (!found.ok) {
    const message =
      found.reason === 'incomplete' ? 'The file has not finished uploading' : UPLOAD_GONE
    throw new AppError('BAD_REQUEST', message, kind)
  }
  const { upload } = found
  const { size } = upload
  if (size > maxBytes(kind, mode)) {
    throw new AppError('PAYLOAD_TOO_LARGE', tooLargeMessage(kind, mode), kind)
  }
  // The first bytes only: a ranged read when the upload is in the bucket.
  const type = sniff(await upload.head())
  if (!kindAccepts(kind, type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', wrongTypeMessage(kind), kind)
  }
  return { kind, uploadId, upload, size, type }
}

/**
 * Claims each upload for this change alone, in kind order; throws 400 for one id given for two
 * kinds and 409 for an upload another change holds, claiming nothing. Returns the unclaim.
 */
function claimAll(uploads: Uploads, ids: [FileKind, string][]): () => void {
  const seen = new Set<string>()
  for (const [kind, id] of ids) {
    if (seen.has(id)) throw new AppError('BAD_REQUEST', SAME_UPLOAD_TWICE, kind)
    seen.add(id)
  }
  const held: string[] = []
  const unclaim = () => {
    for (const id of held) uploads.unclaim(id)
  }
  for (const [kind, id] of ids) {
    if (!uploads.claim(id)) {
      unclaim()
      throw new AppError('CONFLICT', UPLOAD_BUSY, kind)
    }
    held.push(id)
  }
  return unclaim
}

/** Takes every verified file into the store; if one fails, the others' names are dropped. */
async function adoptAll(store: MediaStore, files: Verified[]): Promise<Adopted[]> {
  const adopted: Adopted[] = []
  try {
    for (const file of files) {
      const put = (key: string) => file.upload.storeAs(store.storage, key, file.type)
      const name = await adopt(store, put, file.type).catch((error) => {
        // Deleted or expired between its check and now.
        if ((error as NodeJS.ErrnoException)?.code !== 'ENOENT') throw error
        throw new AppError('BAD_REQUEST', UPLOAD_GONE, file.kind)
      })
      adopted.push({ ...file, name })
      crashPoint('intake:linked')
    }
  } catch (error) {
    await dropAll(store, adopted)
    throw error
  }
  crashPoint('intake:flushed')
  return adopted
}

/** Removes the store's new names after the row could not be written; the uploads still hold the bytes. */
async function dropAll(store: MediaStore, adopted: Adopted[]): Promise<void> {
  await removeNames(
    store,
    adopted.map((file) => file.name),
  ).catch((error) =>
    // The start-up sweep removes them.
    console.error('[media] could not drop', error),
  )
}

// A PostgreSQL error class (SQLSTATE): the server answered, so nothing was committed.
const SQLSTATE = /^([0-9]{2}|F0|HV|P0|XX)[0-9A-Z]{3}$/

/** False when `error` proves the row change did not commit: our own refusal or a server error. */
export function mayHaveCommitted(error: unknown): boolean {
  if (error instanceof AppError) return false
  for (let e = error, depth = 0; e instanceof Object && depth < 8; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && SQLSTATE.test(code)) return false
    e = (e as { cause?: unknown }).cause
  }
  return true
}

/** After the row committed: the uploads are spent. A failure here only delays their expiry. */
async function releaseAll(uploads: Uploads, adopted: Adopted[]): Promise<void> {
  for (const file of adopted) {
    await uploads
      .release(file.uploadId)
      .catch((error) => console.error('[media] could not release', file.uploadId, error))
    crashPoint('intake:released')
  }
}

/**
 * Runs one video change with the given uploads: claims them, verifies each for its kind, takes
 * their files into the store and runs `write` with them (the row change). Nothing is taken
 * unless every file passes; if `write` fails, the new names go and the uploads stay usable; the
 * uploads are released only after `write` committed. A crash at any step leaves the uploads
 * usable or the change committed (see `adopt`).
 */
export async function withUploads<T>(
  { uploads, store }: IntakeDeps,
  ownerId: string,
  ids: UploadIds,
  mode: FileMode,
  write: (adopted: Adopted[]) => Promise<T>,
): Promise<T> {
  const given = fileKinds.flatMap((kind): [FileKind, string][] => {
    const id = ids[kind]
    return id ? [[kind, id]] : []
  })
  const unclaim = claimAll(uploads, given)
  try {
    const verified: Verified[] = []
    for (const [kind, id] of given) {
      verified.push(await verifyUpload(uploads, ownerId, kind, id, mode))
    }
    crashPoint('intake:verified')
    const adopted = await adoptAll(store, verified)
    let result: T
    try {
      result = await write(adopted)
    } catch (error) {
      // A lost connection may have lost only the answer to a commit: then the names stay, and
      // the start-up sweep removes them if no row holds them.
      if (!mayHaveCommitted(error)) await dropAll(store, adopted)
      throw error
    }
    crashPoint('videos:written')
    await releaseAll(uploads, adopted)
    return result
  } finally {
    unclaim()
  }
}
