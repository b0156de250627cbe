// DATA_DIR holds password hashes, sessions, unpublished media and reset links: it belongs to one
// process (src/db/lock.ts) and to its user only. A folder the process may not write is
// explained in one line with what to do, not left to a stack trace from deep inside start-up.
import { accessSync, chmodSync, constants, lstatSync, mkdirSync, readdirSync } from 'node:fs'
import { join, resolve, sep } from 'node:path'
import { acquireDirLock } from './lock.ts'

export class DataDirError extends Error {}

/** What the app keeps in DATA_DIR (the rest of a DATA_DIR is the operator's and left alone). */
const OWN_ENTRIES = ['db', 'db.lock', 'media', 'tmp', 'uploads', 'outbox', '.seeded']

const uid = process.getuid?.()
const asUser = uid === undefined ? 'this user' : `uid ${uid}`

/** The one-line explanation of a file-system error met under `dataDir`, if it is one. */
export function explainDataDirError(error: unknown, dataDir: string): DataDirError | undefined {
  if (error instanceof DataDirError) return error
  const e = error as NodeJS.ErrnoException
  const dir = resolve(dataDir)
  if (typeof e?.path !== 'string') return undefined
  // A path inside DATA_DIR, or a parent that `mkdir -p DATA_DIR` could not create.
  const path = resolve(e.path)
  if (!(inside(path, dir) || inside(dir, path))) return undefined
  const where = `${e.code} on ${e.path}`
  switch (e.code) {
    case 'EACCES':
    case 'EPERM':
      return new DataDirError(
        `DATA_DIR ${dir} is not writable as ${asUser} (${where}). Use a named volume for it, or give it to that user: chown -R ${uid ?? '<user>'} ${dir} (for a bind mount, on the host folder).`,
      )
    case 'EROFS':
      return new DataDirError(
        `DATA_DIR ${dir} is on a read-only file system (${where}). Mount a writable volume there (a named volume, or a folder owned by ${asUser}).`,
      )
    case 'ENOSPC':
      return new DataDirError(
        `DATA_DIR ${dir} is full (${where}). Free some space and start again.`,
      )
    case 'ENOTDIR':
    case 'EEXIST':
      return new DataDirError(`DATA_DIR ${dir} must be a folder (${where}).`)
    default:
      return undefined
  }
}

/**
 * Creates DATA_DIR (0700) if needed and takes its lock; returns the release. From here on the
 * process creates files for its own user only (umask 077). Throws DataDirError or
 * DatabaseLockedError with a one-line message.
 */
export function openDataDir(dataDir: string, needs: string[] = []): () => void {
  // Process-wide on purpose: media, uploads, the outbox and the database's files are all made by
  // this process under DATA_DIR, in code that should not each have to pass a mode.
  process.umask(0o077)
  const dir = resolve(dataDir)
  let release: (() => void) | undefined
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    release = acquireDirLock(join(dir, 'db.lock'))
    for (const name of OWN_ENTRIES) tightenOlderInstall(join(dir, name))
    for (const name of ['media', 'tmp', 'uploads', 'outbox', ...needs]) {
      const path = join(dir, name)
      if (exists(path)) accessSync(path, constants.W_OK | constants.X_OK)
    }
    return release
  } catch (error) {
    release?.()
    throw explainDataDirError(error, dir) ?? error
  }
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(`${dir}${sep}`)

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

/**
 * Earlier versions left group and other bits on what they made (the embedded database's files
 * were 0666). An entry of ours that still has them is made private, its contents first, so a
 * walk cut short is done again at the next start. Entries of another owner are left alone.
 */
function tightenOlderInstall(path: string): void {
  let st: ReturnType<typeof lstatSync>
  try {
    st = lstatSync(path)
  } catch {
    return
  }
  if (!(st.mode & 0o077) || st.isSymbolicLink() || (uid !== undefined && st.uid !== uid)) return
  if (st.isDirectory()) {
    for (const name of readdirSync(path)) tightenOlderInstall(join(path, name))
  }
  chmodSync(path, st.mode & 0o700)
}
