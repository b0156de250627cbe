// The media store: verified files and the folders of derived outputs (streams, MP4, preview),
// named by generated ids, never by a client, kept through one `Storage` (disk or S3,
// docs/storage.md). A name or folder becomes a key only through layout.ts: its patterns are the
// one way from a URL to a stored object. The store never touches the media folder itself.
import { mkdir, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { diskStorage } from './disk.ts'
import {
  derivedFile,
  JOB_ID_RE,
  JOB_SCRATCH_PREFIX,
  KEY_PREFIXES,
  keyOfFolder,
  keyOfName,
  newFolderName,
  newName,
  OUTPUT_FILES,
  ownerOfKey,
  RENDITION_FILES,
  type StoredType,
  scratchJobId,
  typeOfName,
} from './layout.ts'
import type { Storage } from './types.ts'

export type MediaStore = {
  /** Where stored files and run folders live. */
  readonly storage: Storage
  /** Local scratch space (conversions, a run's outputs before they are stored); emptied at start-up. */
  readonly tmpDir: string
}

/** The store of a data folder: `storage` when given, otherwise the disk under DATA_DIR/media. */
export function mediaStore(dataDir: string, storage?: Storage): MediaStore {
  const tmpDir = join(dataDir, 'tmp')
  return { storage: storage ?? diskStorage(join(dataDir, 'media'), tmpDir), tmpDir }
}

export async function ensureDirs(store: MediaStore): Promise<void> {
  await mkdir(store.tmpDir, { recursive: true })
}

/**
 * One job's scratch folder: its outputs until they are stored, and the master when the storage
 * keeps it elsewhere. A retry of the job starts by emptying it; the start-up sweep keeps it only
 * while the job is active.
 */
export function jobScratch(store: MediaStore, jobId: string): string {
  if (!JOB_ID_RE.test(jobId)) throw new Error(`not a job id: ${jobId}`)
  return join(store.tmpDir, `${JOB_SCRATCH_PREFIX}${jobId}`)
}

/** Every file under a local folder, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
}

// Enough to keep an object store busy without a queue of open files.
const PUBLISH_IN_FLIGHT = 4

/**
 * Stores a run's finished outputs (a local folder) under a new folder name and returns the name.
 * Playlists go last, the master playlist at the very end: a player that finds a playlist finds
 * everything it lists. Only files /media would serve are stored. On failure what was stored goes.
 */
export async function publishFolder(store: MediaStore, outDir: string): Promise<string> {
  const folder = newFolderName()
  const files = (await filesUnder(outDir)).flatMap((path) => {
    const file = derivedFile([folder, ...path.split('/')])
    return file ? [{ path, ...file }] : []
  })
  const rank = (path: string) =>
    path === OUTPUT_FILES.master ? 2 : path.endsWith(RENDITION_FILES.playlist) ? 1 : 0
  try {
    for (const stage of [0, 1, 2]) {
      const queue = files.filter((file) => rank(file.path) === stage)
      const writer = async () => {
        for (let file = queue.shift(); file; file = queue.shift()) {
          await store.storage.write(
            file.key,
            { path: join(outDir, file.path) },
            { type: file.type },
          )
        }
      }
      await Promise.all(Array.from({ length: PUBLISH_IN_FLIGHT }, writer))
    }
  } catch (error) {
    await removeFolders(store, [folder]).catch((cleanUp) =>
      // The start-up sweep removes it: no row names it.
      console.error('[media] could not remove a half-stored folder', cleanUp),
    )
    throw error
  }
  return folder
}

/** Removes derived folders; names that are not folder names are ignored, missing ones too. */
export async function removeFolders(store: MediaStore, names: Iterable<string>): Promise<void> {
  await Promise.all(
    [...names].map(async (name) => {
      const prefix = keyOfFolder(name)
      if (!prefix) return
      const keys: string[] = []
      for await (const item of store.storage.list(prefix)) keys.push(item.key)
      await store.storage.delete(keys)
    }),
  )
}

/**
 * Takes a verified file into the store under a new name and returns the name. The storage keeps
 * the source (an upload) whole until the change naming the file has committed, so a crash at any
 * step leaves the upload usable, and the start-up sweep removes the copy no row names; the new
 * object is durable before this returns, so a row written later never points at bytes a power
 * cut could lose.
 */
export async function adopt(
  store: MediaStore,
  src: string | ((key: string) => Promise<void>),
  type: StoredType,
): Promise<string> {
  const name = newName(type)
  const key = keyOfName(name)!
  // A function stores the bytes itself (an upload in the bucket copies itself there).
  if (typeof src === 'function') await src(key)
  else await store.storage.write(key, { path: src }, { type })
  return name
}

/** Removes stored files; a name already gone is not an error (removal runs after commits). */
export async function removeNames(store: MediaStore, names: Iterable<string>): Promise<void> {
  const keys = [...names].flatMap((name) => (typeOfName(name) && keyOfName(name)) || [])
  if (keys.length > 0) await store.storage.delete(keys)
}

// Owners of stored files other than the videos (the site's images): the sweep keeps theirs too.
const holders = new WeakMap<MediaStore, (() => Promise<Iterable<string>>)[]>()

/** Registers another owner of stored files; `names` lists every name it still needs. */
export function addHolder(store: MediaStore, names: () => Promise<Iterable<string>>): void {
  holders.set(store, [...(holders.get(store) ?? []), names])
}

/** How long an unnamed object is left alone by the sweep, by engine (see `sweep`). */
export const SWEEP_MIN_AGE_MS: Record<Storage['engine'], number> = {
  // One server process owns a data folder, and its worker processes are asked about (`keep`).
  disk: 0,
  // Other servers share the bucket and may be storing a run no row names yet.
  s3: 24 * 60 * 60 * 1000,
}

export type SweepOptions = {
  /** Objects changed more recently than this are kept, named or not. */
  minAgeMs?: number
  /** The time ages are measured at (ms since the epoch; default: now). */
  now?: number
}

/**
 * Start-up clean-up: removes every stored file and run folder not in `keep` (taken in by a change
 * a crash stopped before its row committed, left by a crash before a delete's removal ran), and
 * empties the scratch space but for the `job-<id>` folders `keep` names (runs still going in
 * worker processes). Returns the names removed. `keep` may be computed from what was listed (the
 * stored names and folders, then the scratch's job folders), after the listing: an entry made
 * later is then never judged on rows read before it. An owner with any object younger than
 * `minAgeMs` stays. On s3, unfinished multipart uploads to the store's keys begun more than
 * `minAgeMs` ago are aborted.
 */
export async function sweep(
  store: MediaStore,
  keep: ReadonlySet<string> | ((listed: string[]) => Promise<ReadonlySet<string>>),
  options: SweepOptions = {},
): Promise<string[]> {
  await ensureDirs(store)
  const keys = new Map<string, { keys: string[]; newest: number }>()
  for (const prefix of KEY_PREFIXES) {
    for await (const item of store.storage.list(prefix)) {
      const owner = ownerOfKey(item.key)
      if (!owner) continue
      const entry = keys.get(owner) ?? { keys: [], newest: 0 }
      entry.keys.push(item.key)
      entry.newest = Math.max(entry.newest, item.modified.getTime())
      keys.set(owner, entry)
    }
  }
  const scratch = await readdir(store.tmpDir)
  const jobs = scratch.filter((name) => scratchJobId(name))
  const listed = [...keys.keys(), ...jobs]
  const kept = new Set(typeof keep === 'function' ? await keep(listed) : keep)
  for (const names of holders.get(store) ?? []) for (const name of await names()) kept.add(name)

  const minAgeMs = options.minAgeMs ?? SWEEP_MIN_AGE_MS[store.storage.engine]
  const now = options.now ?? Date.now()
  const cutoff = now - minAgeMs
  const orphans = [...keys].filter(
    ([owner, entry]) => !kept.has(owner) && (minAgeMs === 0 || entry.newest < cutoff),
  )
  await store.storage.delete(orphans.flatMap(([, entry]) => entry.keys))
  // Writes a crash stopped mid-way, for stores without a lifecycle rule that aborts them; a
  // write in progress on another server is younger than the minimum age.
  const aborted = (await store.storage.abortUploads?.(new Date(now - minAgeMs))) ?? []
  if (aborted.length > 0) {
    console.log(`[media] aborted ${aborted.length} unfinished upload(s) to the store`)
  }
  const leftJobs = jobs.filter((name) => !kept.has(name))
  for (const entry of scratch) {
    if (scratchJobId(entry) && kept.has(entry)) continue
    await rm(join(store.tmpDir, entry), { recursive: true, force: true })
  }
  return [...orphans.map(([owner]) => owner), ...leftJobs]
}
