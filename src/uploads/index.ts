// Receiving files: the tus endpoint (with the registry a video change takes uploads from) and the
// per-session limit on uploads at once, with their start-up and periodic clean-up.
import { join } from 'node:path'
import type { S3Config } from '../config.ts'
import { UPLOAD_EXPIRY_MS } from './expiry.ts'
import { PgLocker } from './pg-locker.ts'
import { createTusEndpoint, type TusEndpoint } from './tus.ts'
import { UploadSlots } from './upload-slots.ts'

export type Uploads = { tus: TusEndpoint; slots: UploadSlots; locker?: PgLocker }

/**
 * DATA_DIR/uploads: tus uploads and registered multipart parts until a change takes them; with
 * `s3`, tus uploads are in the bucket instead. With `databaseUrl` (servers that may share it),
 * upload locks are taken in that database.
 */
export function createUploads(dataDir: string, databaseUrl?: string, s3?: S3Config): Uploads {
  const locker = databaseUrl ? PgLocker.connect(databaseUrl) : undefined
  const tus = createTusEndpoint(join(dataDir, 'uploads'), UPLOAD_EXPIRY_MS, locker, s3)
  return { tus, slots: new UploadSlots(), locker }
}

/**
 * Start-up: expired or stray uploads go, then the clean-up repeats hourly. Returns its stop,
 * which also closes the locker's connections.
 */
export async function startUploads(uploads: Uploads): Promise<() => Promise<void>> {
  await uploads.tus.cleanUp()
  const stopCleanup = uploads.tus.startCleanup()
  return async () => {
    stopCleanup()
    await uploads.locker?.close()
  }
}
