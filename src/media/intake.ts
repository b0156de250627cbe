// The one way a file becomes media: a finished upload is checked (real type from its first
// bytes, size for its kind) and only then moved into the store under a generated name.
import { AppError } from '../errors.ts'
import { type FileKind, type MediaType, maxBytes } from '../schemas/limits.ts'
import { kindAccepts, sniffFile } from './sniff.ts'
import { adopt, giveBack, type MediaStore } from './store.ts'
import { type TusEndpoint, tooLargeMessage, wrongTypeMessage } from './tus.ts'

export type Mode = 'create' | 'edit'

export type Verified = {
  kind: FileKind
  uploadId: string
  path: string
  size: number
  type: MediaType
}

export type Adopted = Verified & { name: string }

type Uploads = Pick<TusEndpoint, 'finished' | 'release'>

/** A finished upload of `ownerId`, checked for `kind`; throws the SPEC answer when it fails. */
export async function verifyUpload(
  uploads: Uploads,
  ownerId: string,
  kind: FileKind,
  uploadId: string,
  mode: Mode,
): Promise<Verified> {
  const found = await uploads.finished(uploadId, ownerId)
  if (!found.ok) {
    const message =
      found.reason === 'incomplete'
        ? 'The file has not finished uploading'
        : 'The uploaded file was not found or has expired. Please upload it again'
    throw new AppError('BAD_REQUEST', message, kind)
  }
  const { path, size } = found.upload
  if (size > maxBytes(kind, mode)) {
    throw new AppError('PAYLOAD_TOO_LARGE', tooLargeMessage(kind, mode), kind)
  }
  const type = await sniffFile(path)
  if (!kindAccepts(kind, type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', wrongTypeMessage(kind), kind)
  }
  return { kind, uploadId, path, size, type }
}

/** Moves every verified file into the store; if one move fails, the others are given back. */
export async function adoptAll(store: MediaStore, files: Verified[]): Promise<Adopted[]> {
  const adopted: Adopted[] = []
  try {
    for (const file of files)
      adopted.push({ ...file, name: await adopt(store, file.path, file.type) })
  } catch (error) {
    await giveBackAll(store, adopted)
    throw error
  }
  return adopted
}

/** Puts adopted files back where their uploads were, after the row could not be written. */
export async function giveBackAll(store: MediaStore, adopted: Adopted[]): Promise<void> {
  await Promise.all(
    adopted.map((file) =>
      giveBack(store, file.name, file.path).catch((error) =>
        // The start-up sweep removes it; the client uploads again.
        console.error('[media] could not give back', file.name, error),
      ),
    ),
  )
}

/** After the row committed: the uploads are spent. */
export async function releaseAll(uploads: Uploads, adopted: Adopted[]): Promise<void> {
  await Promise.all(adopted.map((file) => uploads.release(file.uploadId)))
}
