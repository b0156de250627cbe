// The media side of the app: the store of verified files (a `Storage`, docs/storage.md) and its
// start-up sweep. Files come in through src/uploads/ (intake.ts); /media serving is http.ts.
import { ensureDirs, type MediaStore } from './store.ts'

/** Start-up, before the first request: media files without a row are removed. */
export async function startMedia(
  store: MediaStore,
  sweepOrphans: () => Promise<string[]>,
): Promise<void> {
  await ensureDirs(store)
  const orphans = await sweepOrphans()
  if (orphans.length > 0)
    console.log(`[media] removed ${orphans.length} file(s) or folder(s) no video names`)
}
