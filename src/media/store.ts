// The media store: verified files under DATA_DIR/media, named by generated ids, never by a client.
import { constants } from 'node:fs'
import { copyFile, link, mkdir, open, readdir, rm, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { MediaType } from '../schemas/file-rules.ts'

/** What the store keeps: the video kinds' types, and the site's converted images (AVIF, SVG). */
export type StoredType = MediaType | 'image/avif' | 'image/svg+xml'

const EXTENSIONS: Record<StoredType, string> = {
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/ogg': 'ogv',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
}
const TYPES = new Map(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type as StoredType]))

// 128 random bits per stored file: a replaced file gets a new name, so its URL can be cached
// immutable, and a name never reveals or depends on anything a client sent.
const NAME_RE = /^[0-9a-f]{32}\.(mp4|webm|ogv|jpg|png|webp|avif|svg)$/

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
export function typeOfName(name: string): StoredType | undefined {
  if (!NAME_RE.test(name)) return undefined
  return TYPES.get(name.slice(name.lastIndexOf('.') + 1))
}

/** A stored file's path; undefined for anything that is not a store name (so no `..`, no `/`). */
export function pathOfName(store: MediaStore, name: string): string | undefined {
  return typeOfName(name) ? join(store.dir, name) : undefined
}

export const mediaUrl = (name: string) => `/media/${name}`

function newName(type: StoredType): string {
  const id = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
  return `${id}.${EXTENSIONS[type]}`
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
export async function adopt(store: MediaStore, src: string, type: StoredType): Promise<string> {
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

// Owners of stored files other than the videos (the site's images): the sweep keeps theirs too.
const holders = new WeakMap<MediaStore, (() => Promise<Iterable<string>>)[]>()

/** Registers another owner of stored files; `names` lists every name it still needs. */
export function addHolder(store: MediaStore, names: () => Promise<Iterable<string>>): void {
  holders.set(store, [...(holders.get(store) ?? []), names])
}

/**
 * Start-up clean-up: removes every file in the store that no row names (taken in by a change a
 * crash stopped before its row committed, whose upload still holds the bytes, or left by a crash
 * before a delete's removal ran), and empties the scratch space. Returns the names removed.
 */
export async function sweep(store: MediaStore, referenced: ReadonlySet<string>): Promise<string[]> {
  await ensureDirs(store)
  const kept = new Set(referenced)
  for (const names of holders.get(store) ?? []) for (const name of await names()) kept.add(name)
  const orphans = (await listNames(store)).filter((name) => !kept.has(name))
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
