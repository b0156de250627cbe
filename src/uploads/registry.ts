// Which uploads exist, whose they are and whether they are finished, as the rest of the app sees
// them: the lookup before a video change takes an upload's file, the claim that keeps one change
// alone with it, the release once that change has committed, and the registration of a file
// received as a multipart part, so both entries end in the same hand-over (intake.ts).
// The records are @tus/file-store's `<id>.json` files (record.ts), read through its configstore.
import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Configstore } from '@tus/file-store'
import { Upload } from '@tus/server'
import { asFileKind, type FileKind } from '../schemas/file-rules.ts'
import { isExpired } from './expiry.ts'
import { ownerOf, stampRecord, type UploadRecord } from './record.ts'
import { isUploadId, newUploadId } from './upload-ids.ts'

export type FinishedUpload = { id: string; kind: FileKind; path: string; size: number }

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
  register(path: string, kind: FileKind, ownerId: string): Promise<string>
}

export function createUploadRegistry(
  dir: string,
  configstore: Configstore,
  expiryMs: number,
): UploadRegistry {
  const claimed = new Set<string>()
  return {
    async finished(id, ownerId) {
      if (!isUploadId(id)) return { ok: false, reason: 'missing' }
      const info: UploadRecord | undefined = await configstore.get(id)
      const kind = asFileKind(info?.metadata?.kind)
      if (!info || !kind || ownerOf(info) !== ownerId || isExpired(info, expiryMs))
        return { ok: false, reason: 'missing' }
      const path = join(dir, id)
      const size = await stat(path).then(
        (s) => s.size,
        () => undefined,
      )
      if (size === undefined) return { ok: false, reason: 'missing' }
      if (size !== info.size) return { ok: false, reason: 'incomplete' }
      return { ok: true, upload: { id, kind, path, size } }
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
      // The info file first: without it the upload is gone at once, whatever a crash leaves.
      if (isUploadId(id)) await configstore.delete(id).catch(() => undefined)
      if (isUploadId(id)) await rm(join(dir, id), { force: true })
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
