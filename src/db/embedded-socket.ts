// Where the embedded database's Unix socket lives, for the server that serves it and for the
// processes that connect to it (pg-boss's pool, `bun run worker`, `bun run media:reprocess`).
// The socket is `DATA_DIR/run/.s.PGSQL.5432`, in a folder only this user may enter: PGlite has
// no passwords, so whoever reaches the socket is the database's superuser. A socket path may
// hold at most 107 bytes; under a deeper DATA_DIR the socket goes into a private folder made
// with mkdtemp under the OS temp folder, whose path is written to `DATA_DIR/run/socket`.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'

/** What node-postgres and postgres.js look for in a socket folder for port 5432. */
export const SOCKET_PORT = 5432
const SOCKET_FILE = `.s.PGSQL.${SOCKET_PORT}`
const SUN_PATH_MAX = 107
const POINTER = 'socket'
const TEMP_PREFIX = 'studio-pg-'

export class EmbeddedNotServedError extends Error {
  constructor() {
    super('The embedded database is served by the server: start it first, or set DATABASE_URL')
  }
}

const runDir = (dataDir: string) => join(resolve(dataDir), 'run')

/** The socket's folder: `DATA_DIR/run`, or the folder `DATA_DIR/run/socket` names. */
export function socketDirOf(dataDir: string): string {
  try {
    const named = readFileSync(join(runDir(dataDir), POINTER), 'utf8').trim()
    if (named) return named
  } catch {}
  return runDir(dataDir)
}

export const socketPathIn = (dir: string) => join(dir, SOCKET_FILE)

/**
 * Prepares the socket's private folder for the server (which holds DATA_DIR's lock) and returns
 * the socket path and a clean-up for shutdown. A temp folder left by a killed server goes now.
 */
export function prepareSocketDir(dataDir: string): { path: string; cleanup(): void } {
  const run = runDir(dataDir)
  mkdirSync(run, { recursive: true, mode: 0o700 })
  chmodSync(run, 0o700)
  const pointer = join(run, POINTER)
  const previous = socketDirOf(dataDir)
  if (previous !== run && isOurTempDir(previous)) rmSync(previous, { recursive: true, force: true })
  rmSync(pointer, { force: true })
  if (socketPathIn(run).length <= SUN_PATH_MAX) {
    return { path: socketPathIn(run), cleanup: () => rmSync(socketPathIn(run), { force: true }) }
  }
  const dir = mkdtempSync(join(tmpdir(), TEMP_PREFIX)) // 0700
  if (socketPathIn(dir).length > SUN_PATH_MAX) {
    throw new Error(`No folder short enough for the database socket (TMPDIR ${tmpdir()})`)
  }
  writeFileSync(pointer, dir, { mode: 0o600 })
  return {
    path: socketPathIn(dir),
    cleanup() {
      rmSync(dir, { recursive: true, force: true })
      rmSync(pointer, { force: true })
    },
  }
}

const isOurTempDir = (dir: string) =>
  dirname(dir) === resolve(tmpdir()) && basename(dir).startsWith(TEMP_PREFIX)
