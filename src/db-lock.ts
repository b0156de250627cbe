// One process owns the embedded database directory: PGlite has no locking of its own, and two
// processes writing the same files corrupt them. A pid file taken with O_EXCL; a stale one (its
// process gone, e.g. after SIGKILL) is taken over so a restart works at once.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { resolve } from 'node:path'

export class DatabaseLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

// Paths this process holds: a lock file with our own pid may be a dead predecessor's (a
// container restarts as pid 1 every time), so in-process double opens are caught here instead.
const held = new Set<string>()

export function acquireDirLock(path: string): () => void {
  const lockPath = resolve(path)
  if (held.has(lockPath)) {
    throw new DatabaseLockedError(
      `The embedded database for ${lockPath} is already open in this process.`,
    )
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      held.add(lockPath)
      return () => {
        held.delete(lockPath)
        try {
          if (readFileSync(lockPath, 'utf8') === String(process.pid)) rmSync(lockPath)
        } catch {}
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10)
      if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
        throw new DatabaseLockedError(
          `The embedded database in ${lockPath.replace(/\/[^/]+$/, '')} is in use by process ${holder}; stop it first or use another DATA_DIR.`,
        )
      }
      rmSync(lockPath, { force: true })
    }
  }
  throw new DatabaseLockedError(`Could not lock ${lockPath}`)
}
