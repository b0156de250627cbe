// The media side of the app: the store, the tus endpoint, and their start-up and periodic jobs.
import { join } from 'node:path'
import { createTusEndpoint, type TusEndpoint } from '../uploads/tus.ts'
import { UploadSlots } from '../uploads/upload-slots.ts'
import { ensureDirs, type MediaStore, mediaStore } from './store.ts'

export type Media = { store: MediaStore; tus: TusEndpoint; slots: UploadSlots }

/** DATA_DIR/media (stored files), DATA_DIR/tmp (scratch), DATA_DIR/uploads (incomplete tus). */
export function createMedia(dataDir: string): Media {
  return {
    store: mediaStore(dataDir),
    tus: createTusEndpoint(join(dataDir, 'uploads')),
    slots: new UploadSlots(),
  }
}

/**
 * Start-up, before the first request: media files without a row and expired or stray uploads
 * are removed, then the upload clean-up repeats hourly. Returns the stop for shutdown.
 */
export async function startMedia(
  media: Media,
  sweepOrphans: () => Promise<string[]>,
): Promise<() => void> {
  await ensureDirs(media.store)
  const orphans = await sweepOrphans()
  if (orphans.length > 0) console.log(`[media] removed ${orphans.length} file(s) with no video`)
  await media.tus.cleanUp()
  return media.tus.startCleanup()
}
