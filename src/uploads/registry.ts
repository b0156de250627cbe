// Which uploads exist, whose they are and whether they are finished, as the rest of the app sees
// them: the lookup before a video change takes an upload's file, the claim that keeps one change
// alone with it, the release once that change has committed, and the registration of a file
// received as a multipart part, so both entries end in the same hand-over (intake.ts).
// The records are @tus/file-store's `<id>.json` files (record.ts), read through its configstore;
// with a bucket, tus uploads are there instead (bucket-store.ts), and only the multipart parts a
// request registers for itself stay in DATA_DIR/uploads.
import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Configstore } from '@tus/file-store'
import { Upload } from '@tus/server'
import type { Storage } from '../storage/types.ts'
import type { BucketUploadStore } from './bucket-store.ts'
import { isExpired } from './expiry.ts'
import { asUploadKind, type UploadKind } from './kinds.ts'
import { ownerOf, stampRecord, type UploadRecord } from './record.ts'
import { SNIFF_BYTES } from './sniff.ts'
import { isUploadId, newUploadId } from './upload-ids.ts'

export type FinishedUpload = {
  id: string
  kind: UploadKind
  size: number
  /** Its first bytes, for the type check. */
  head(): Promise<Uint8Array>
  /** All its bytes: for small uploads only (caption files), whose size was checked first. */
  bytes(): Promise<Uint8Array>
  /**
   * Stores its bytes as `key`, leaving the upload whole until it is released: a hard link or a
   * streamed write from a local file, a copy inside the bucket (no byte through this server)
   * for an upload kept there. A missing upload throws ENOENT.
   */
  storeAs(storage: Storage, key: string, type: string): Promise<void>
}

/** A finished upload whose bytes are the local file `path`. */
const localUpload = (id: string, kind: UploadKind, size: number, path: string): FinishedUpload => ({
  id,
  kind,
  size,
  head: () => Bun.file(path).slice(0, SNIFF_BYTES).bytes(),
  bytes: () => Bun.file(path).slice(0, size).bytes(),
  storeAs: async (storage, key, type) => {
    await storage.write(key, { path }, { type })
  },
})

/** A finished upload kept in the bucket, which is also the storage's (both are S3_BUCKET). */
const bucketUpload = (
  id: string,
  kind: UploadKind,
  size: number,
  bucket: BucketUploadStore,
): FinishedUpload => ({
  id,
  kind,
  size,
  head: () => bucket.head(id),
  bytes: () => bucket.bytes(id, size),
  storeAs: (_storage, key) => bucket.copyTo(id, key),
})

export type UploadLookup =
  | { ok: true; upload: FinishedUpload }
  | { ok: false; reason: 'missing' | 'incomplete' }

export type UploadRegistry = {
  /** A finished, unexpired upload that `ownerId` created, ready for the media store to take. */
  finished(id: string, ownerId: string): Promise<UploadLookup>
  /**
   * Marks an upload as being taken by one video change; false when another change holds it.
   * While claimed, it cannot be changed or deleted over tus and the clean-up leaves it alone.
   */
  claim(id: string): boolean
  unclaim(id: string): void
  isClaimed(id: string): boolean
  /** Forgets an upload once the change that took its file has committed. */
  release(id: string): Promise<void>
  /** Registers a file already on disk (a streamed multipart part) as a finished upload. */
  register(path: string, kind: UploadKind, ownerId: string): Promise<string>
}

/**
 * `bucket`, when given, holds the tus uploads; `configstore` (DATA_DIR/uploads) then holds only
 * registered multipart parts, which are looked up first.
 */
export function createUploadRegistry(
  dir: string,
  configstore: Configstore,
  expiryMs: number,
  bucket?: BucketUploadStore,
): UploadRegistry {
  const claimed = new Set<string>()
  return {
    async finished(id, ownerId) {
      if (!isUploadId(id)) return { ok: false, reason: 'missing' }
      const local: UploadRecord | undefined = await configstore.get(id)
      const info = local ?? (await bucket?.record(id))
      const kind = asUploadKind(info?.metadata?.kind)
      if (!info || !kind || ownerOf(info) !== ownerId || isExpired(info, expiryMs))
        return { ok: false, reason: 'missing' }
      const path = join(dir, id)
      if (local || !bucket) {
        const size = await stat(path).then(
          (s) => s.size,
          () => undefined,
        )
        if (size === undefined) return { ok: false, reason: 'missing' }
        if (size !== info.size) return { ok: false, reason: 'incomplete' }
        return { ok: true, upload: localUpload(id, kind, size, path) }
      }
      // In the bucket, the object exists only once its multipart upload is complete.
      const size = await bucket.finishedSize(id)
      if (size === undefined || size !== info.size) return { ok: false, reason: 'incomplete' }
      return { ok: true, upload: bucketUpload(id, kind, size, bucket) }
    },

    claim(id) {
      if (claimed.has(id)) return false
      claimed.add(id)
      return true
    },

    unclaim(id) {
      claimed.delete(id)
    },

    isClaimed: (id) => claimed.has(id),

    async release(id) {
      if (!isUploadId(id)) return
      const local = await configstore.get(id)
      if (local || !bucket) {
        // The info file first: without it the upload is gone at once, whatever a crash leaves.
        await configstore.delete(id).catch(() => undefined)
        await rm(join(dir, id), { force: true })
        return
      }
      await bucket.remove(id).catch((error) => {
        // Already gone (another server's clean-up, a DELETE): nothing left to release.
        if ((error as { status_code?: number }).status_code !== 404) throw error
      })
    },

    async register(path, kind, ownerId) {
      const id = newUploadId()
      const size = (await stat(path)).size
      await rename(path, join(dir, id))
      const upload = new Upload({ id, size, offset: size, metadata: { kind } })
      stampRecord(upload, { owner: ownerId })
      await configstore.set(id, upload)
      return id
    },
  }
}
