// Start-up as an operator meets it: the real server process against a data folder another
// process owns, one it may not write, a database that is not there (yet) or mistyped, and the
// modes of what it leaves on disk.
import { afterAll, describe, expect, test } from 'bun:test'
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { ADMIN_EMAIL, startServer } from '../e2e/support/server.ts'
import { openDatabase } from '../src/database.ts'
import { acquireDirLock } from '../src/db-lock.ts'
import { fixtures } from './fixtures/media.ts'
import { multipartStream } from './fixtures/multipart-stream.ts'
import { tusRaw } from './fixtures/tus.ts'
import { createTestDatabase, embeddedCopy, type TestDatabase } from './helpers/database.ts'
import { asOtherUser, bunForOtherUser, canRunAsOtherUser, otherUid } from './helpers/other-user.ts'
import { runServer, traceLines } from './helpers/run-server.ts'

const serverUrl = process.env.TEST_DATABASE_URL
const cleanups: (() => unknown)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A fresh database for a server that must never reach it (or may, harmlessly). */
async function databaseEnv(): Promise<Record<string, string>> {
  if (!serverUrl) return {}
  const db: TestDatabase = await createTestDatabase()
  cleanups.push(() => db.drop())
  return { DATABASE_URL: db.databaseUrl! }
}

const lines = (text: string) => text.trim().split('\n').filter(Boolean)

describe('one process per data folder', () => {
  test('a second server on the same DATA_DIR is refused in one line; the first keeps its upload', async () => {
    const first = await startServer()
    try {
      const token = (await first.apiLogin()).token
      const f = await fixtures()
      // ~6 s of upload, paced: the second start happens while it streams into DATA_DIR/tmp.
      const { body, contentType, length } = multipartStream(
        [
          { name: 'title', value: 'In flight' },
          { name: 'video', filename: 'v.mp4', head: await Bun.file(f.mp4).bytes(), size: 12e6 },
          { name: 'thumbnail', filename: 't.jpg', head: await Bun.file(f.jpg).bytes(), size: 2e3 },
          { name: 'brandLogo', filename: 'l.png', head: await Bun.file(f.png).bytes(), size: 2e3 },
        ],
        2e6,
      )
      const upload = fetch(`${first.url}/api/videos/upload`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': contentType,
          'content-length': String(length),
        },
        body,
      })
      await Bun.sleep(500)
      const env: Record<string, string> = { DATA_DIR: first.dataDir }
      if (serverUrl) env.DATABASE_URL = (await databaseEnv()).DATABASE_URL!
      const second = await runServer(env)

      expect(second.code).toBe(1)
      expect(lines(second.stderr)).toEqual([
        expect.stringContaining(`is in use by process ${first.pid}`),
      ])
      expect(second.stderr).toContain(first.dataDir)
      expect(traceLines(second.stderr + second.stdout)).toEqual([])
      const res = await upload
      expect(res.status).toBe(201)
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200)
    } finally {
      await first.stop()
    }
  }, 90_000)
})

describe('the lock file', () => {
  test("an older version's pid file is respected while its process lives, taken over after", () => {
    const dir = tempDir('studio-lock-')
    const older = Bun.spawn(['sleep', '30'])
    cleanups.push(() => older.kill())
    // Earlier versions wrote a bare pid with O_EXCL and took no flock.
    writeFileSync(join(dir, 'db.lock'), String(older.pid))
    expect(() => acquireDirLock(join(dir, 'db.lock'))).toThrow(
      `DATA_DIR ${dir} is in use by process ${older.pid}`,
    )
    const dead = Bun.spawnSync(['true']).pid
    writeFileSync(join(dir, 'db.lock'), String(dead))
    const release = acquireDirLock(join(dir, 'db.lock'))
    expect(() => acquireDirLock(join(dir, 'db.lock'))).toThrow('already open in this process')
    release()
    acquireDirLock(join(dir, 'db.lock'))()
  })
})

describe.skipIf(!canRunAsOtherUser)('a DATA_DIR the server may not write (as nobody)', () => {
  test('is explained in one line with the uid and the fix, no stack trace', async () => {
    const bun = bunForOtherUser()
    cleanups.push(bun.cleanup)
    const parent = tempDir('studio-rootowned-')
    chmodSync(parent, 0o755)
    // As a root-owned host folder bind-mounted on /data, and as a DATA_DIR that cannot be made.
    const mounted = join(parent, 'data')
    mkdirSync(mounted)
    chmodSync(mounted, 0o755) // explicit: this process's umask may be 077 by now
    const cases = [mounted, join(parent, 'missing', 'data')]
    if (!serverUrl) {
      // A data folder of the right owner whose database folder was left by a run as root.
      const owned = join(parent, 'owned')
      mkdirSync(join(owned, 'db'), { recursive: true })
      chmodSync(join(owned, 'db'), 0o755)
      chmodSync(owned, 0o700)
      const uid = otherUid()
      chownSync(owned, uid, uid)
      cases.push(owned)
    }
    const uid = otherUid()
    for (const dataDir of cases) {
      const r = await runServer(
        { DATA_DIR: dataDir, ...(await databaseEnv()) },
        { wrap: asOtherUser, bun: bun.path },
      )
      expect({ dataDir, code: r.code }).toEqual({ dataDir, code: 1 })
      const [line, ...more] = lines(r.stderr)
      expect(more).toEqual([])
      expect(line).toContain(dataDir)
      expect(line).toContain(`uid ${uid}`)
      expect(line).toContain(`chown -R ${uid}`)
      expect(line).toContain('named volume')
      expect(traceLines(r.stderr + r.stdout)).toEqual([])
    }
  }, 60_000)
})

/** Entries under `dir` with any group or other bit, as "path mode". */
function openEntries(dir: string): string[] {
  const open: string[] = []
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name)
      const st = lstatSync(p)
      if (st.mode & 0o077) open.push(`${relative(dir, p)} ${(st.mode & 0o777).toString(8)}`)
      if (st.isDirectory()) walk(p)
    }
  }
  walk(dir)
  return open
}

describe('private data on disk', () => {
  test('what an older version left open is made private at the next start; foreign files stay', async () => {
    const copy = await embeddedCopy()
    cleanups.push(copy.drop)
    const dataDir = copy.dataDir
    mkdirSync(join(dataDir, 'media'))
    writeFileSync(join(dataDir, 'media', `${'a'.repeat(32)}.mp4`), 'x')
    writeFileSync(join(dataDir, 'notes.txt'), 'the operator keeps this here')
    // As the previous version made them: folders 0755, database files 0666, media 0644.
    Bun.spawnSync(['chmod', '-R', 'u=rwX,go=rX', dataDir])
    Bun.spawnSync(['find', join(dataDir, 'db'), '-type', 'f', '-exec', 'chmod', '666', '{}', '+'])
    expect(openEntries(dataDir).length).toBeGreaterThan(100)

    const database = await openDatabase({ databaseUrl: undefined, dataDir })
    try {
      expect(openEntries(dataDir)).toEqual(['notes.txt 644'])
    } finally {
      await database.close()
    }
  }, 60_000)

  test('nothing the server creates under DATA_DIR is open to group or others', async () => {
    const dataDir = join(tempDir('studio-modes-'), 'data')
    const server = await startServer({ DATA_DIR: dataDir })
    try {
      const token = (await server.apiLogin()).token
      const f = await fixtures()
      const form = new FormData()
      form.append('title', 'Modes')
      form.append('video', Bun.file(f.mp4), 'v.mp4')
      form.append('thumbnail', Bun.file(f.jpg), 't.jpg')
      form.append('brandLogo', Bun.file(f.png), 'l.png')
      const created = await fetch(`${server.url}/api/videos/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
      expect(created.status).toBe(201)
      // An unfinished tus upload (DATA_DIR/uploads) and a reset mail (DATA_DIR/outbox).
      const tus = tusRaw(server.url, token)
      const path = (await tus.create(100_000, { kind: 'video' })).headers.get('location')!
      expect((await tus.patch(path, 0, new Uint8Array(1000))).status).toBe(204)
      await fetch(`${server.url}/api/auth/reset-password/request`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN_EMAIL }),
      })
      // (server.outboxLinks() reads the helper's own folder, not this DATA_DIR.)
      const outbox = () => readdirSync(join(dataDir, 'outbox'))
      for (let i = 0; i < 100 && !existsSync(join(dataDir, 'outbox')); i++) await Bun.sleep(50)
      expect(outbox()).toHaveLength(1)

      const entries: string[] = []
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          entries.push(relative(dataDir, join(dir, name)))
          if (lstatSync(join(dir, name)).isDirectory()) walk(join(dir, name))
        }
      }
      walk(dataDir)
      expect(openEntries(dataDir)).toEqual([])
      expect(lstatSync(dataDir).mode & 0o777).toBe(0o700)
      // The walk saw what it is meant to check.
      const top = readdirSync(dataDir)
      for (const name of ['db.lock', 'media', 'tmp', 'uploads', 'outbox']) {
        expect(top).toContain(name)
      }
      if (!serverUrl) {
        expect(entries).toContain(join('db', 'PG_VERSION'))
        expect(entries).toContain(join('db', 'postgresql.conf'))
      }
      expect(entries.filter((e) => e.startsWith('media/')).length).toBeGreaterThanOrEqual(3)
    } finally {
      await server.stop()
    }
  }, 90_000)
})
