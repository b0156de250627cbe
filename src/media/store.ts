// The media store: verified files under DATA_DIR/media, named by generated ids, never by a client,
// and the folders of derived outputs (streams, MP4, preview) the media pipeline writes beside them.
import { constants } from 'node:fs'
import { copyFile, link, mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { MediaType } from '../schemas/file-rules.ts'

const EXTENSIONS: Record<MediaType, string> = {
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/ogg': 'ogv',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
}
const TYPES = new Map(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type as MediaType]))

// 128 random bits per stored file: a replaced file gets a new name, so its URL can be cached
// immutable, and a name never reveals or depends on anything a client sent.
const NAME_RE = /^[0-9a-f]{32}\.(mp4|webm|ogv|jpg|png|webp)$/

export type MediaStore = {
  /** Where stored files live. */
  readonly dir: string
  /** Scratch space on the same file system (so moves are renames); emptied at start-up. */
  readonly tmpDir: string
}

export function mediaStore(dataDir: string): MediaStore {
  return { dir: join(dataDir, 'media'), tmpDir: join(dataDir, 'tmp') }
}

export async function ensureDirs(store: MediaStore): Promise<void> {
  await mkdir(store.dir, { recursive: true })
  await mkdir(store.tmpDir, { recursive: true })
}

/** The stored type of a name, or undefined when the name is not one the store could have made. */
export function typeOfName(name: string): MediaType | undefined {
  if (!NAME_RE.test(name)) return undefined
  return TYPES.get(name.slice(name.lastIndexOf('.') + 1))
}

/** A stored file's path; undefined for anything that is not a store name (so no `..`, no `/`). */
export function pathOfName(store: MediaStore, name: string): string | undefined {
  return typeOfName(name) ? join(store.dir, name) : undefined
}

export const mediaUrl = (name: string) => `/media/${name}`

const randomHex = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')

function newName(type: MediaType): string {
  return `${randomHex()}.${EXTENSIONS[type]}`
}

// Derived outputs: one folder per processing run, named by 128 random bits like the files (a
// reprocess makes a new folder, so every URL inside one can be cached immutable). The folder is
// written under `.partial-<job id>` and renamed into place only once complete.
const FOLDER_RE = /^[0-9a-f]{32}$/
const PARTIAL_PREFIX = '.partial-'
const JOB_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The files at a derived folder's top (src/processing/transcode.ts writes them). */
export const DERIVED_FILES = { master: 'master.m3u8', mp4: 'video.mp4', preview: 'preview.mp4' }

// Inside a folder: the top files, and one level of renditions (`1080p`…`360p`, a source-sized
// rung such as `240p`, and `audio`) holding a playlist, init segments and media segments. Each
// level has its own pattern, so no request can name anything else (no `..`, no dot files).
const TOP_FILE_RE = /^(master\.m3u8|video\.mp4|preview\.mp4)$/
const RENDITION_RE = /^(audio|\d{1,4}p)$/
const RENDITION_FILE_RE = /^(index\.m3u8|init(_\d{1,2})?\.mp4|seg_\d{3,6}\.m4s)$/

const PLAYLIST = 'application/vnd.apple.mpegurl'
const DERIVED_TYPES: Record<string, string> = {
  m3u8: PLAYLIST,
  m4s: 'video/iso.segment',
  mp4: 'video/mp4',
}

export const newFolderName = randomHex

export const isFolderName = (name: string) => FOLDER_RE.test(name)

/** URLs of a derived folder's outputs, as the video answers carry them. */
export const streamsUrls = (folder: string) => ({
  hls: `/media/${folder}/${DERIVED_FILES.master}`,
  mp4: `/media/${folder}/${DERIVED_FILES.mp4}`,
  preview: `/media/${folder}/${DERIVED_FILES.preview}`,
})

/**
 * A derived file's path and type from the parts of a URL after /media/ (folder, then one or two
 * names); undefined for anything the pipeline does not write.
 */
export function derivedFile(
  store: MediaStore,
  parts: string[],
): { path: string; type: string } | undefined {
  const [folder = '', first = '', second] = parts
  if (!FOLDER_RE.test(folder) || parts.length > 3) return undefined
  const ok =
    second === undefined
      ? TOP_FILE_RE.test(first)
      : RENDITION_RE.test(first) && RENDITION_FILE_RE.test(second)
  if (!ok) return undefined
  const file = second ?? first
  const type = DERIVED_TYPES[file.slice(file.lastIndexOf('.') + 1)]
  return type ? { path: join(store.dir, ...parts), type } : undefined
}

/** Where one job writes its outputs until they are complete (same file system: renamed in). */
export function partialDir(store: MediaStore, jobId: string): string {
  if (!JOB_ID_RE.test(jobId)) throw new Error(`not a job id: ${jobId}`)
  return join(store.dir, `${PARTIAL_PREFIX}${jobId}`)
}

/** The job id of a `.partial-<job id>` entry, or undefined for any other name. */
export function partialJobId(name: string): string | undefined {
  if (!name.startsWith(PARTIAL_PREFIX)) return undefined
  const id = name.slice(PARTIAL_PREFIX.length)
  return JOB_ID_RE.test(id) ? id : undefined
}

/** Renames a complete partial folder into place under a new folder name; returns the name. */
export async function publishFolder(store: MediaStore, partial: string): Promise<string> {
  const folder = newFolderName()
  await rename(partial, join(store.dir, folder))
  return folder
}

/** Removes derived folders; names that are not folder names are ignored, missing ones too. */
export async function removeFolders(store: MediaStore, names: Iterable<string>): Promise<void> {
  await Promise.all(
    [...names]
      .filter((name) => FOLDER_RE.test(name))
      .map((name) => rm(join(store.dir, name), { recursive: true, force: true })),
  )
}

async function fsync(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

// File systems without hard links (some network and FUSE mounts) answer these to link().
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK'])

/**
 * Takes a verified file into the store under a new name and returns the name. A hard link, not a
 * move: the source (an upload) stays whole until the change naming the file has committed, so a
 * crash at any step leaves the upload usable, and the start-up sweep removes the link no row
 * names. The bytes are flushed first so a row written later never points at a file a power cut
 * could empty; `flushStore` then makes the new names durable, once for all of a change's files.
 */
export async function adopt(store: MediaStore, src: string, type: MediaType): Promise<string> {
  const name = newName(type)
  await fsync(src)
  // Cheap, and a store folder removed by hand is then not a failed upload.
  await mkdir(store.dir, { recursive: true })
  const dest = join(store.dir, name)
  try {
    await link(src, dest)
  } catch (error) {
    if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException)?.code ?? '')) throw error
    // The same guarantee at the cost of a copy (a clone where the file system can).
    try {
      await copyFile(src, dest, constants.COPYFILE_FICLONE)
      await fsync(dest)
    } catch (copyError) {
      await rm(dest, { force: true })
      throw copyError
    }
  }
  return name
}

/** Makes the names `adopt` added durable before a row may point at them. */
export const flushStore = (store: MediaStore) => fsync(store.dir)

/** Removes stored files; a name already gone is not an error (removal runs after commits). */
export async function removeNames(store: MediaStore, names: Iterable<string>): Promise<void> {
  await Promise.all(
    [...names].map(async (name) => {
      const path = pathOfName(store, name)
      if (path) await unlink(path).catch(ignoreMissing)
    }),
  )
}

export async function listNames(store: MediaStore): Promise<string[]> {
  return readdir(store.dir).catch((error) => {
    if (isMissing(error)) return []
    throw error
  })
}

/**
 * Start-up clean-up: removes every entry of the store not in `keep` (a file or derived folder no
 * row names: taken in by a change a crash stopped before its row committed, left by a crash
 * before a delete's removal ran; a `.partial-*` folder of a job that will not resume), and
 * empties the scratch space. Returns the names removed. `keep` may be computed from the names
 * listed, after the listing: an entry made later is then never judged on rows read before it.
 */
export async function sweep(
  store: MediaStore,
  keep: ReadonlySet<string> | ((listed: string[]) => Promise<ReadonlySet<string>>),
): Promise<string[]> {
  await ensureDirs(store)
  const listed = await listNames(store)
  const kept = typeof keep === 'function' ? await keep(listed) : keep
  const orphans = listed.filter((name) => !kept.has(name))
  await Promise.all(
    orphans.map((name) => rm(join(store.dir, name), { recursive: true, force: true })),
  )
  for (const entry of await readdir(store.tmpDir)) {
    await rm(join(store.tmpDir, entry), { recursive: true, force: true })
  }
  return orphans
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT'
function ignoreMissing(error: unknown): void {
  if (!isMissing(error)) throw error
}
