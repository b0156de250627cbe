// Receiving files: the tus endpoint (with the registry a video change takes uploads from) and the
// per-session limit on uploads at once, with their start-up and periodic clean-up.
import { join } from 'node:path'
import { createTusEndpoint, type TusEndpoint } from './tus.ts'
import { UploadSlots } from './upload-slots.ts'

export type Uploads = { tus: TusEndpoint; slots: UploadSlots }

/** DATA_DIR/uploads: tus uploads and registered multipart parts until a change takes them. */
export function createUploads(dataDir: string): Uploads {
  return { tus: createTusEndpoint(join(dataDir, 'uploads')), slots: new UploadSlots() }
}

/** Start-up: expired or stray uploads go, then the clean-up repeats hourly. Returns its stop. */
export async function startUploads(uploads: Uploads): Promise<() => void> {
  await uploads.tus.cleanUp()
  return uploads.tus.startCleanup()
}
