// Where the embedded database's socket lives: DATA_DIR/run, or a private temp folder named in
// DATA_DIR/run/socket when DATA_DIR is too deep for a socket path (107 bytes).
import { afterEach, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectDatabase, openDatabase } from '../../src/db/database.ts'
import { prepareSocketDir, socketDirOf } from '../../src/db/embedded-socket.ts'
import { embeddedCopy } from '../../testkit/database.ts'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const mode = (path: string) => statSync(path).mode & 0o777

test('a short DATA_DIR keeps its socket in run/, a private folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sock-'))
  made.push(dataDir)
  const socket = prepareSocketDir(dataDir)
  expect(socket.path).toBe(join(dataDir, 'run', '.s.PGSQL.5432'))
  expect(mode(join(dataDir, 'run'))).toBe(0o700)
  expect(socketDirOf(dataDir)).toBe(join(dataDir, 'run'))
})

test('a deep DATA_DIR gets a private temp folder, named in run/socket, replaced at each start', async () => {
  const root = mkdtempSync(join(tmpdir(), 'sock-deep-'))
  made.push(root)
  const dataDir = join(root, 'a-rather-long-folder-name-for-data'.repeat(3))
  mkdirSync(dataDir, { recursive: true })
  const first = prepareSocketDir(dataDir)
  const dir = socketDirOf(dataDir)
  expect(first.path).toBe(join(dir, '.s.PGSQL.5432'))
  expect(first.path.length).toBeLessThanOrEqual(107)
  expect(dir.startsWith(tmpdir())).toBe(true)
  expect(mode(dir)).toBe(0o700)
  expect(mode(join(dataDir, 'run', 'socket'))).toBe(0o600)
  // A server killed without its clean-up: the next start removes the old folder.
  const second = prepareSocketDir(dataDir)
  expect(existsSync(dir)).toBe(false)
  expect(socketDirOf(dataDir)).not.toBe(dir)
  second.cleanup()
  expect(existsSync(join(dataDir, 'run', 'socket'))).toBe(false)

  // And the database is served there for processes beside the server.
  const copy = await embeddedCopy()
  cpSync(join(copy.dataDir, 'db'), join(dataDir, 'db'), { recursive: true })
  copy.drop()
  const database = await openDatabase({ databaseUrl: undefined, dataDir })
  try {
    const beside = await connectDatabase({ databaseUrl: undefined, dataDir })
    expect([...(await beside.sql`select 1 as one`)]).toEqual([{ one: 1 }])
    await beside.close()
  } finally {
    await database.close()
  }
  expect(existsSync(join(dataDir, 'run', 'socket'))).toBe(false)
}, 60_000)
