// The disk engine: keys map onto DATA_DIR/media in the flat layout older versions wrote
// (`masters/<name>`, `images/<name>` and `captions/<name>` are `<name>`, `streams/<folder>/…` is
// `<folder>/…`), so an existing data folder needs no move.
import { constants, mkdirSync } from 'node:fs'
import {
  access,
  copyFile,
  link,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
} from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { StorageError } from '../errors.ts'
import { checkedKey, keyOfFolder, ownerOfKey, publicParts } from './layout.ts'
import type { ListedObject, Storage, StorageBody } from './types.ts'

// File systems without hard links (some network and FUSE mounts) answer these to link().
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK'])

const code = (error: unknown) => (error as NodeJS.ErrnoException)?.code
const isMissing = (error: unknown) => code(error) === 'ENOENT' || code(error) === 'ENOTDIR'

async function fsync(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

// A read is pulled a chunk at a time as the reader asks for it: a slow reader (a player on a
// phone, a backup to a slow disk) holds the next chunk back, never the rest of the file in memory.
const READ_CHUNK = 1024 * 1024

/** The bytes `start`…`end` (inclusive) of a file, read on demand. */
function fileStream(path: string, start: number, end: number): ReadableStream<Uint8Array> {
  let handle: Awaited<ReturnType<typeof open>> | undefined
  let position = start
  const close = async () => {
    const open = handle
    handle = undefined
    await open?.close()
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        handle ??= await open(path, 'r')
        const length = Math.min(READ_CHUNK, end + 1 - position)
        const chunk = length > 0 ? new Uint8Array(length) : undefined
        const { bytesRead } = chunk
          ? await handle.read(chunk, 0, length, position)
          : { bytesRead: 0 }
        if (!chunk || bytesRead === 0) {
          await close()
          controller.close()
          return
        }
        position += bytesRead
        controller.enqueue(chunk.subarray(0, bytesRead))
      } catch (error) {
        await close().catch(() => {})
        controller.error(error)
      }
    },
    cancel: close,
  })
}

export function diskStorage(root: string, scratch: string): Storage {
  // Made once, when the engine is built at start-up: `check` then reports a folder removed later
  // instead of quietly making an empty one.
  mkdirSync(root, { recursive: true })
  mkdirSync(scratch, { recursive: true })

  /** The path of a key; throws for a key the store could not have made (no `..`, no strays). */
  function pathOf(key: string): string {
    // Public copies exist for a bucket's public address; on disk one would share the original's path.
    if (publicParts(key)) throw new StorageError(`the disk engine keeps no public copies: ${key}`)
    const { owner, below } = checkedKey(key)
    return join(root, owner, ...below)
  }

  const keyOfPath = (path: string) => {
    const parts = relative(root, path).split('/')
    return parts.length === 1 ? undefined : `streams/${parts.join('/')}`
  }

  async function* walk(dir: string): AsyncGenerator<string> {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error) => {
      if (isMissing(error)) return []
      throw error
    })
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) yield* walk(path)
      else if (entry.isFile()) yield path
    }
  }

  async function listed(path: string, key: string): Promise<ListedObject | undefined> {
    const info = await stat(path).catch(() => undefined)
    return info?.isFile() ? { key, size: info.size, modified: info.mtime } : undefined
  }

  /** Removes now-empty folders between a deleted file and the root. */
  async function prune(dir: string): Promise<void> {
    while (dir.startsWith(`${root}/`)) {
      try {
        await rmdir(dir)
      } catch {
        return
      }
      dir = dirname(dir)
    }
  }

  return {
    engine: 'disk',

    async write(key, body: StorageBody) {
      const dest = pathOf(key)
      await mkdir(dirname(dest), { recursive: true })
      if ('path' in body) {
        // A hard link, not a move: the source (an upload) stays whole until the row naming the
        // file has committed. Its bytes are flushed first, so a row never points at a file a
        // power cut could empty.
        await fsync(body.path)
        try {
          await link(body.path, dest)
        } catch (error) {
          if (code(error) === 'EEXIST') throw new StorageError(`already stored: ${key}`)
          if (!NO_HARD_LINKS.has(code(error) ?? '')) throw error
          try {
            await copyFile(body.path, dest, constants.COPYFILE_FICLONE)
            await fsync(dest)
          } catch (copyError) {
            await rm(dest, { force: true })
            throw copyError
          }
        }
      } else {
        await mkdir(scratch, { recursive: true })
        const temp = join(scratch, `write-${crypto.randomUUID()}`)
        try {
          await Bun.write(temp, new Response(body))
          await fsync(temp)
          await rename(temp, dest)
        } catch (error) {
          await rm(temp, { force: true })
          throw error
        }
      }
      await fsync(dirname(dest))
      return { size: (await stat(dest)).size }
    },

    async read(key, range) {
      const path = pathOf(key)
      const info = await stat(path).catch(() => undefined)
      if (!info?.isFile()) return undefined
      const end = range ? Math.min(range.end, info.size - 1) : info.size - 1
      return { body: fileStream(path, range?.start ?? 0, end), size: info.size }
    },

    async stat(key) {
      const info = await stat(pathOf(key)).catch(() => undefined)
      if (!info?.isFile()) return undefined
      const etag = `"${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"`
      return { size: info.size, modified: info.mtime, etag }
    },

    async delete(keys) {
      await Promise.all(
        [...keys].map(async (key) => {
          const path = pathOf(key)
          await unlink(path).catch((error) => {
            if (!isMissing(error)) throw error
          })
          if (key.startsWith('streams/')) await prune(dirname(path))
        }),
      )
    },

    async *list(prefix) {
      const entries = await readdir(root, { withFileTypes: true }).catch((error) => {
        if (isMissing(error)) return []
        throw error
      })
      for (const entry of entries) {
        if (entry.isFile()) {
          const key = ownerKey(entry.name)
          if (key?.startsWith(prefix)) {
            const item = await listed(join(root, entry.name), key)
            if (item) yield item
          }
        } else if (entry.isDirectory() && keyOfFolder(entry.name)) {
          const folderKey = `streams/${entry.name}/`
          if (!folderKey.startsWith(prefix) && !prefix.startsWith(folderKey)) continue
          for await (const path of walk(join(root, entry.name))) {
            const key = keyOfPath(path)
            if (!key?.startsWith(prefix)) continue
            const item = await listed(path, key)
            if (item) yield item
          }
        }
      }
    },

    async copy(from, to) {
      const dest = pathOf(to)
      await mkdir(dirname(dest), { recursive: true })
      await copyFile(pathOf(from), dest, constants.COPYFILE_FICLONE)
      await fsync(dest)
    },

    localPath(key) {
      return pathOf(key)
    },

    async check() {
      for (const dir of [root, scratch]) {
        if (!(await stat(dir)).isDirectory()) {
          throw Object.assign(new StorageError(`${dir} is not a folder`), { code: 'ENOTDIR' })
        }
        await access(dir, constants.R_OK | constants.W_OK | constants.X_OK)
      }
    },
  }
}

/** `masters/<name>`, `images/<name>` or `captions/<name>` for a file at the root, by its name. */
function ownerKey(name: string): string | undefined {
  for (const prefix of ['masters/', 'images/', 'captions/']) {
    if (ownerOfKey(`${prefix}${name}`) === name) return `${prefix}${name}`
  }
  return undefined
}
