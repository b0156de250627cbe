// One process owns a DATA_DIR, in both database modes: PGlite has no locking of its own (two
// processes writing the same files corrupt them), and with DATABASE_URL a second server would
// still empty DATA_DIR/tmp under the first one's uploads and both would serve stale caches.
//
// flock(2) on DATA_DIR/db.lock: the kernel releases it however the process ends (a restart after
// SIGKILL works at once), and it holds across containers sharing a volume, where a pid from
// another pid namespace means nothing. Where libc cannot be loaded or the file system has no
// flock, a pid file taken with O_EXCL and taken over once its process is gone.
import { dlopen, FFIType, type Pointer, read } from 'bun:ffi'
import {
  closeSync,
  constants,
  ftruncateSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { dirname, resolve } from 'node:path'

export class DatabaseLockedError extends Error {}

const LOCK_EX = 2
const LOCK_NB = 4
// Written after the pid by the flock path, so a bare pid is known to come from a pid-file holder
// (an earlier version, or a platform without flock), which does not take the flock.
const FLOCK_MARK = ' flock'

/** 'busy': another open file holds it; 'unsupported': this file system has no flock. */
type TryLock = (fd: number) => 'locked' | 'busy' | 'unsupported'

function loadFlock(): TryLock | undefined {
  // libc, its errno accessor, and EWOULDBLOCK's number there.
  const libs: Partial<Record<NodeJS.Platform, [string, string, number]>> = {
    linux: ['libc.so.6', '__errno_location', 11],
    darwin: ['libSystem.B.dylib', '__error', 35],
  }
  const entry = libs[process.platform]
  if (!entry) return undefined
  const [lib, errnoFn, EWOULDBLOCK] = entry
  try {
    const libc = dlopen(lib, {
      flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      [errnoFn]: { args: [], returns: FFIType.ptr },
    })
    const errno = libc.symbols[errnoFn] as () => Pointer | null
    return (fd) => {
      if (libc.symbols.flock(fd, LOCK_EX | LOCK_NB) === 0) return 'locked'
      const at = errno()
      // Some network and virtual file systems have no flock (ENOLCK, EOPNOTSUPP): a pid file then.
      return at && read.i32(at, 0) === EWOULDBLOCK ? 'busy' : 'unsupported'
    }
  } catch {
    return undefined
  }
}

const flock = loadFlock()

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

// Paths this process holds: a second open in the same process gets a message that says so.
const held = new Set<string>()

const inUse = (lockPath: string, pid: number) =>
  new DatabaseLockedError(
    `DATA_DIR ${dirname(lockPath)} is in use by ${Number.isInteger(pid) ? `process ${pid}` : 'another process'}; stop it first or use another DATA_DIR.`,
  )

function readHolder(lockPath: string): string {
  try {
    return readFileSync(lockPath, 'utf8')
  } catch {
    return ''
  }
}

function withFlock(lockPath: string, tryLock: TryLock): (() => void) | undefined {
  const fd = openSync(lockPath, constants.O_RDWR | constants.O_CREAT, 0o600)
  const result = tryLock(fd)
  if (result !== 'locked') {
    closeSync(fd)
    if (result === 'unsupported') return undefined
    throw inUse(lockPath, Number.parseInt(readHolder(lockPath), 10))
  }
  const previous = readHolder(lockPath)
  const pid = Number.parseInt(previous, 10)
  if (!previous.includes(FLOCK_MARK) && pid > 0 && pid !== process.pid && alive(pid)) {
    closeSync(fd)
    throw inUse(lockPath, pid)
  }
  ftruncateSync(fd, 0)
  writeSync(fd, `${process.pid}${FLOCK_MARK}\n`, 0)
  // The file stays: removing it would let a later process lock a new file while another still
  // holds the old one.
  return () => closeSync(fd)
}

function withPidFile(lockPath: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => {
        try {
          if (readFileSync(lockPath, 'utf8') === String(process.pid)) rmSync(lockPath)
        } catch {}
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      const holder = Number.parseInt(readHolder(lockPath), 10)
      // A lock file with our own pid is a dead predecessor's (a container restarts as pid 1).
      if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
        throw inUse(lockPath, holder)
      }
      rmSync(lockPath, { force: true })
    }
  }
  throw new DatabaseLockedError(`Could not lock ${lockPath}`)
}

/** Takes the lock at `path` (in an existing folder) or throws DatabaseLockedError; returns the release. */
export function acquireDirLock(path: string): () => void {
  const lockPath = resolve(path)
  if (held.has(lockPath)) {
    throw new DatabaseLockedError(`DATA_DIR ${dirname(lockPath)} is already open in this process.`)
  }
  const release = (flock && withFlock(lockPath, flock)) || withPidFile(lockPath)
  held.add(lockPath)
  return () => {
    held.delete(lockPath)
    release()
  }
}
