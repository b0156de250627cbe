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
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/database.ts'
import { acquireDirLock } from '../../src/db/lock.ts'
import { createTestDatabase, embeddedCopy, type TestDatabase } from '../../testkit/database.ts'
import { fixtures } from '../../testkit/media.ts'
import { multipartStream } from '../../testkit/multipart-stream.ts'
import {
  asOtherUser,
  bunForOtherUser,
  describeAsOtherUser,
  otherUid,
} from '../../testkit/other-user.ts'
import { runServer, traceLines } from '../../testkit/run-server.ts'
import { ADMIN_EMAIL, startServer } from '../../testkit/server.ts'
import { testSkipIf } from '../../testkit/skip.ts'
import { tusRaw } from '../../testkit/tus.ts'

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

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

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

describeAsOtherUser('a DATA_DIR the server may not write (as nobody)', () => {
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

describe('DATABASE_URL', () => {
  test('unreachable: each wait is logged in one line, then one line with the host and the cause', async () => {
    const port = freePort() // nothing listens there
    const r = await runServer({
      DATA_DIR: join(tempDir('studio-unreachable-'), 'data'),
      DATABASE_URL: `postgres://studio:secret-pw@127.0.0.1:${port}/studio`,
      DATABASE_WAIT: '3',
    })
    expect(r.code).toBe(1)
    const out = lines(r.stderr)
    const last = out.at(-1) ?? ''
    const waits = out.slice(0, -1)
    expect(waits.length).toBeGreaterThanOrEqual(2)
    for (const w of waits) {
      expect(w).toMatch(
        new RegExp(
          `^Database at 127\\.0\\.0\\.1:${port} not reachable \\(ECONNREFUSED\\); retrying in [\\d.]+ s$`,
        ),
      )
    }
    expect(last).toContain(`127.0.0.1:${port}`)
    expect(last).toContain('ECONNREFUSED')
    expect(last).toContain('3 s')
    expect(r.stderr + r.stdout).not.toContain('secret-pw')
    expect(traceLines(r.stderr + r.stdout)).toEqual([])
    expect(r.ms).toBeGreaterThanOrEqual(3000)
    expect(r.ms).toBeLessThan(15_000)
  }, 30_000)

  testSkipIf(!serverUrl && 'needs a PostgreSQL server (TEST_DATABASE_URL)')(
    'a database that comes up during the wait is used',
    async () => {
      const env = await databaseEnv()
      const target = new URL(env.DATABASE_URL!)
      const port = freePort()
      const late = new URL(target)
      late.port = String(port)
      // The database "comes up" 2 s after the server starts: a forwarder to the real one opens then.
      const forwarder = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname)
        client.pipe(upstream).pipe(client)
        client.on('error', () => upstream.destroy())
        upstream.on('error', () => client.destroy())
      })
      cleanups.push(() => new Promise((r) => forwarder.close(r)))
      setTimeout(() => forwarder.listen(port, '127.0.0.1'), 2000)
      const r = await runServer({
        DATA_DIR: join(tempDir('studio-late-'), 'data'),
        DATABASE_URL: late.toString(),
        DATABASE_WAIT: '30',
      })
      expect(r.code).toBe('started')
      expect(lines(r.stderr)[0]).toMatch(/^Database at 127\.0\.0\.1:\d+ not reachable/)
    },
    60_000,
  )

  test('the forms postgres.js reads are accepted', () => {
    for (const url of [
      'postgres://studio:p%40ss%23word@db:5432/studio',
      'postgresql://db/studio?sslmode=require',
      'postgres://studio@h1:5432,h2:5433/studio',
      'postgres://studio@[::1]:5432/studio',
      'postgres://localhost/studio',
    ]) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url)
    }
    expect(loadConfig({}).databaseWaitSeconds).toBe(30)
    expect(() => loadConfig({ DATABASE_WAIT: '-1' })).toThrow('DATABASE_WAIT')
  })

  test('invalid: one line naming the setting, never its password', async () => {
    const dataDir = join(tempDir('studio-invalid-'), 'data')
    for (const url of [
      'postgres://studio:s3cret@db-host:notaport/studio',
      'postgres://studio:s3cret%zz@db-host/studio',
      'mysql://studio:s3cret@db-host/studio',
    ]) {
      const r = await runServer({ DATA_DIR: dataDir, DATABASE_URL: url })
      expect({ url, code: r.code }).toEqual({ url, code: 1 })
      expect(lines(r.stderr)).toEqual([
        expect.stringMatching(/^Invalid configuration: DATABASE_URL /),
      ])
      expect(r.stderr).not.toContain('s3cret')
      expect(traceLines(r.stderr + r.stdout)).toEqual([])
    }
  }, 30_000)
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
      // The mail is written after the answer, and its folder is made just before the file.
      const outbox = () =>
        existsSync(join(dataDir, 'outbox')) ? readdirSync(join(dataDir, 'outbox')) : []
      for (let i = 0; i < 100 && outbox().length === 0; i++) await Bun.sleep(50)
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
