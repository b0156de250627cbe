// Backup and restore with real sites: a backup of a running site with processed and waiting
// videos restores into an empty embedded DATA_DIR and an empty PostgreSQL database, where a
// server lists the same works, serves the same bytes and signs in with the old passwords.
// Damaged archives, short reads and non-empty targets are refused in one line.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, truncateSync } from 'node:fs'
import { copyFile, mkdtemp, open, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { extract as tarExtract, pack as tarPack } from 'tar-stream'
import { createApp } from '../../src/app.ts'
import type { Manifest } from '../../src/backup/archive.ts'
import { backup } from '../../src/backup/backup.ts'
import { knownSchemas, openStorage } from '../../src/backup/target.ts'
import { type Config, loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/database.ts'
import { KEY_PREFIXES } from '../../src/storage/layout.ts'
import { createTestDatabase, embeddedCopy, type TestDatabase } from '../../testkit/database.ts'
import { makeClip, settled, uploadVideo, watchVideo } from '../../testkit/pipeline.ts'
import {
  bucketKeys,
  dropBucket,
  makeBucket,
  s3Available,
  s3Env,
  unfinishedUploads,
} from '../../testkit/s3.ts'
import { describeSkipIf, testSkipIf } from '../../testkit/skip.ts'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  diskOnly,
  startTestApp,
  type TestApp,
} from '../../testkit/test-app.ts'
import { tusVia } from '../../testkit/videos.ts'

const ROOT = join(import.meta.dir, '..', '..')
const serverUrl = process.env.TEST_DATABASE_URL
const needsServer = !serverUrl && 'needs a PostgreSQL server (TEST_DATABASE_URL)'
const EDITOR_PASSWORD = 'password-123'

type Fetch = (path: string, init?: RequestInit) => Promise<Response>

/** A site on a restored DATA_DIR (and database); its own first-admin settings are never used. */
async function openSite(dataDir: string, databaseUrl: string | undefined, workers = '0') {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ADMIN_EMAIL: 'someone-else@studio.test',
    ADMIN_PASSWORD: 'not-the-old-one-1',
    PUBLIC_URL: 'https://studio.test',
    WEB_DIST: '/nonexistent',
    SSR_DIST: '/nonexistent',
    MEDIA_WORKERS: workers,
    MEDIA_POLL_SECONDS: '1',
  })
  const app = await createApp(config)
  let ip = 0
  const fetch: Fetch = (path, init) =>
    app.fetch(new Request(`http://localhost${path}`, init), `10.1.0.${++ip % 250}`)
  return { app, config, fetch }
}

async function login(fetch: Fetch, email: string, password: string): Promise<string> {
  const res = await fetch('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`)
  return ((await res.json()) as { data: { token: string } }).data.token
}

type Work = {
  _id: string
  title: string
  slug: string
  thumbnailUrl: string
  hlsUrl: string | null
  captions: { language: string; label: string; url: string }[]
}

async function works(fetch: Fetch, token?: string): Promise<Work[]> {
  const path = token ? '/api/videos?limit=100' : '/api/public/videos'
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  const res = await fetch(path, { headers })
  expect(res.status).toBe(200)
  const list = ((await res.json()) as { data: { videos: Work[] } }).data.videos
  return list.toSorted((a, b) => a._id.localeCompare(b._id))
}

/** A work's notes as admins list them. */
async function notesOf(fetch: Fetch, token: string, id: string): Promise<unknown[]> {
  const res = await fetch(`/api/videos/${id}/notes`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(res.status).toBe(200)
  const { notes } = ((await res.json()) as { data: { notes: unknown[] } }).data
  expect(notes).toHaveLength(2)
  return notes
}

const named = (list: Work[]) =>
  list.map(({ _id, title, slug, captions }) => ({ _id, title, slug, captions }))
const sha = (bytes: ArrayBuffer) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

async function storedKeys(config: Config): Promise<string[]> {
  const storage = await openStorage(config)
  const keys: string[] = []
  for (const prefix of KEY_PREFIXES) {
    for await (const item of storage.list(prefix)) keys.push(item.key)
  }
  return keys.sort()
}

/** Starts the command as an operator would; `result` is its exit status and its stderr lines. */
function spawnCli(args: string[], env: Record<string, string | undefined>, stdout?: string) {
  const proc = Bun.spawn(['bun', 'src/backup/cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
    stdout: stdout ? Bun.file(stdout) : 'ignore',
    stderr: 'pipe',
  })
  const result = (async () => {
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
    const lines = stderr.trim().split('\n')
    // Progress lines, then at most one line of failure: never a stack trace.
    expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([])
    return { code, lines }
  })()
  return { proc, result }
}

const cli = (args: string[], env: Record<string, string | undefined>, stdout?: string) =>
  spawnCli(args, env, stdout).result

/** The offset of an entry's data in a tar file, found by walking its headers. */
async function dataOffset(file: string, name: string): Promise<number> {
  const bytes = new Uint8Array(await readFile(file))
  let at = 0
  while (at + 512 <= bytes.length) {
    const header = bytes.subarray(at, at + 512)
    const entryName = new TextDecoder().decode(header.subarray(0, 100)).replace(/\0.*$/s, '')
    const prefix = new TextDecoder().decode(header.subarray(345, 500)).replace(/\0.*$/s, '')
    const size = Number.parseInt(new TextDecoder().decode(header.subarray(124, 136)), 8) || 0
    if ((prefix ? `${prefix}/${entryName}` : entryName) === name) return at + 512
    at += 512 + Math.ceil(size / 512) * 512
  }
  throw new Error(`${name} not in ${file}`)
}

/** The manifest of an archive on disk. */
async function manifestOf(file: string): Promise<Manifest> {
  const extract = tarExtract()
  Readable.from(await readFile(file)).pipe(extract)
  let found: Manifest | undefined
  for await (const entry of extract) {
    const parts: Buffer[] = []
    for await (const chunk of entry) parts.push(chunk as Buffer)
    if (entry.header.name === 'manifest.json') found = JSON.parse(Buffer.concat(parts).toString())
  }
  return found!
}

const byKey = (objects: Manifest['objects']) =>
  objects.toSorted((a, b) => a.key.localeCompare(b.key))

/** An archive's entries in their order, and its manifest, to be changed and written again. */
type Entries = { entries: { name: string; bytes: Buffer }[]; manifest: Manifest }

async function entriesOf(file: string): Promise<Entries> {
  const entries: Entries['entries'] = []
  const extract = tarExtract()
  Readable.from(await readFile(file)).pipe(extract)
  for await (const entry of extract) {
    const parts: Buffer[] = []
    for await (const chunk of entry) parts.push(chunk as Buffer)
    entries.push({ name: entry.header.name, bytes: Buffer.concat(parts) })
  }
  const manifest = JSON.parse(
    entries.find((e) => e.name === 'manifest.json')!.bytes.toString('utf8'),
  ) as Manifest
  return { entries, manifest }
}

/** Writes the entries as a tar, the manifest (as changed) in place of the old one. */
async function writeEntries(to: string, { entries, manifest }: Entries) {
  const pack = tarPack()
  for (const entry of entries) {
    const bytes =
      entry.name === 'manifest.json' ? Buffer.from(JSON.stringify(manifest)) : entry.bytes
    pack.entry({ name: entry.name, size: bytes.byteLength }, bytes)
  }
  pack.finalize()
  const out: Buffer[] = []
  for await (const chunk of pack) out.push(chunk as Buffer)
  await Bun.write(to, Buffer.concat(out))
}

const shaOf = (bytes: Buffer) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
const linesOf = (bytes: Buffer) => bytes.toString('utf8').split('\n').slice(0, -1)
const jsonl = (lines: string[]) => Buffer.from(lines.map((line) => `${line}\n`).join(''))

/** Replaces a table's entry, and its size, SHA-256 and row count (its lines) in the manifest. */
function setTable(archive: Entries, table: string, lines: string[]) {
  const entry = archive.entries.find((e) => e.name === `db/${table}.jsonl`)!
  entry.bytes = jsonl(lines)
  const listed = archive.manifest.tables.find((t) => t.name === table)!
  Object.assign(listed, {
    size: entry.bytes.byteLength,
    sha256: shaOf(entry.bytes),
    rows: lines.length,
  })
}

/** A copy of an archive with one table's text changed, its manifest updated to match. */
async function rewritten(from: string, to: string, name: string, change: (text: string) => string) {
  const archive = await entriesOf(from)
  const table = name.slice('db/'.length, -'.jsonl'.length)
  const text = archive.entries.find((e) => e.name === name)!.bytes.toString('utf8')
  setTable(archive, table, linesOf(Buffer.from(change(text))))
  await writeEntries(to, archive)
}

/** An admin row that is not in the site: a super admin someone slipped into an archive. */
function intruder(row: string, n: number): string {
  const admin = JSON.parse(row) as Record<string, unknown>
  return JSON.stringify({
    ...admin,
    id: crypto.randomUUID(),
    email: `intruder${n}@studio.test`,
    username: `intruder${n}`,
    role: 'super_admin',
  })
}

/**
 * An empty site to restore into, on this run's pairing: an embedded DATA_DIR with media on its
 * disk, or (with TEST_DATABASE_URL) a PostgreSQL database with media in a bucket of its own.
 */
async function emptyTarget(scratch: string, label: string) {
  if (!serverUrl) {
    const dataDir = await mkdtemp(join(scratch, `${label}-`))
    const env = { DATA_DIR: dataDir }
    return { env, config: loadConfig(env), dataDir, bucket: undefined, drop: async () => {} }
  }
  const database = await createTestDatabase()
  const bucket = await makeBucket()
  const env = {
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.databaseUrl,
    ...s3Env(bucket),
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY,
  }
  const drop = async () => {
    await dropBucket(bucket)
    await database.drop()
  }
  return { env, config: loadConfig(env), dataDir: database.dataDir, bucket, drop }
}

type Target = Awaited<ReturnType<typeof emptyTarget>>

/** Every object in the target's store (every key in its bucket) and its tables' non-zero counts. */
async function contents(target: Target): Promise<{ keys: string[]; rows: Record<string, number> }> {
  // An embedded target no restore has opened yet holds nothing; opening it would make it.
  if (!target.bucket && readdirSync(target.dataDir).length === 0) return { keys: [], rows: {} }
  const keys = target.bucket ? await bucketKeys(target.bucket) : await storedKeys(target.config)
  if (!target.bucket) expect(filesIn(join(target.dataDir, 'media'))).toBe(keys.length)
  const database = await openDatabase(target.config)
  try {
    const tables = await database.sql<{ name: string }[]>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'r'`
    const rows: Record<string, number> = {}
    for (const { name } of tables) {
      const [row] = await database.sql.unsafe(`select count(*)::int as n from "${name}"`)
      if (row?.n) rows[name] = row.n as number
    }
    return { keys, rows }
  } finally {
    await database.close()
  }
}

const empty = { keys: [], rows: {} }

/** The files under a folder (none when it does not exist): what a disk store holds, keys or not. */
function filesIn(dir: string): number {
  if (!existsSync(dir)) return 0
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).length
}

describe(`a backup of a running site (${serverUrl ? 'PostgreSQL' : 'embedded'})`, () => {
  let source: TestApp
  let owner: string
  let scratch: string
  let archive: string
  let manifest: Manifest
  let publicBefore: Work[]
  let adminBefore: Work[]
  let waiting: string
  let readyId: string
  let notesBefore: unknown[]
  const targets: TestDatabase[] = []
  const s3 = s3Available()
  const pairing = serverUrl ? 'PostgreSQL, media in a bucket' : 'embedded, media on disk'
  const needsTarget = serverUrl ? s3.reason : undefined
  const keysOf = (m: Manifest) => m.objects.map((o) => o.key).sort()
  const rowsOf = (m: Manifest) =>
    Object.fromEntries(m.tables.filter((t) => t.rows > 0).map((t) => [t.name, t.rows]))

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'backup-test-'))
    source = await startTestApp({ MEDIA_WORKERS: '1', MEDIA_POLL_SECONDS: '1' })
    owner = await source.login()
    await source.createAdmin('Editor', owner)
    const fetch: Fetch = (path, init) => source.fetch(path, init)
    const short = await makeClip(scratch, 'short.mp4', { seconds: 1, width: 320, height: 180 })
    const ready = await uploadVideo(fetch, owner, short, 'Processed work')
    await watchVideo(fetch, owner, ready._id, settled, { timeoutMs: 90_000 })
    // A caption track: its row and file go with the backup, and its master lists it.
    const captions = new FormData()
    captions.append('language', 'en')
    captions.append('label', 'English')
    captions.append('file', new Blob(['WEBVTT\n\n00:00.100 --> 00:00.900\nHello\n']), 'en.vtt')
    const added = await fetch(`/api/videos/${ready._id}/captions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
      body: captions,
    })
    expect(added.status).toBe(201)
    readyId = ready._id
    // A client's notes through a review link, one answered and resolved: they go with the backup.
    const made = await fetch(`/api/videos/${ready._id}/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'Client' }),
    })
    const linkPath = new URL(
      ((await made.json()) as { data: { link: { url: string } } }).data.link.url,
    ).pathname
    const noteIds: string[] = []
    for (const body of [
      { at: 0.2, until: 0.6, text: 'Swell here', name: 'Ada' },
      { at: 0.8, text: 'Logo too loud', name: 'Ada' },
    ]) {
      const res = await fetch(`${linkPath}/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(res.status).toBe(201)
      noteIds.push(((await res.json()) as { data: { note: { id: string } } }).data.note.id)
    }
    const admin = { authorization: `Bearer ${owner}`, 'content-type': 'application/json' }
    const notePath = `/api/videos/${ready._id}/notes/${noteIds[1]}`
    expect(
      (
        await fetch(`${notePath}/replies`, {
          method: 'POST',
          headers: admin,
          body: '{"text":"Fixed"}',
        })
      ).status,
    ).toBe(201)
    expect(
      (
        await fetch(`${notePath}/resolved`, {
          method: 'PUT',
          headers: admin,
          body: '{"resolved":true}',
        })
      ).status,
    ).toBe(200)
    // Taken while this one waits for (or is in) processing, and a tus upload is half sent.
    const longer = await makeClip(scratch, 'longer.mp4', { seconds: 3, width: 320, height: 180 })
    waiting = (await uploadVideo(fetch, owner, longer, 'Waiting work'))._id
    const tus = tusVia(source, owner)
    const bytes = new Uint8Array(await readFile(longer))
    const created = await tus.create(bytes.length, 'video')
    const half = await tus.patch(
      created.headers.get('location')!,
      0,
      bytes.slice(0, bytes.length >> 1),
    )
    expect(half.status).toBe(204)

    archive = join(scratch, 'site.tar')
    manifest = await backup({ config: source.config, file: archive })
    publicBefore = await works(fetch)
    adminBefore = await works(fetch, owner)
    notesBefore = await notesOf(fetch, owner, readyId)
  }, 180_000)

  afterAll(async () => {
    await source?.stop()
    for (const target of targets) await target.drop()
    await rm(scratch, { recursive: true, force: true })
    // The source's worker may be midway through the waiting video, which it finishes first.
  }, 60_000)

  test('the manifest names the rows and every object the rows name, with their hashes', async () => {
    expect(manifest.format).toBe(1)
    expect(manifest.app.schema).toBe(knownSchemas().at(-1)!)
    expect(manifest.database).toBe(serverUrl ? 'postgresql' : 'embedded')
    const rows = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]))
    expect(rows).toMatchObject({
      admins: 2,
      videos: 2,
      video_captions: 1,
      review_links: 1,
      review_notes: 2,
      review_note_replies: 1,
    })
    expect(Object.keys(rows)).not.toContain('sessions')
    expect(Object.keys(rows)).not.toContain('rate_limits')
    expect(manifest.missing).toEqual([])
    expect(manifest.sequences.map((q) => q.name)).toContain('activity_log_id_seq')
    const keys = manifest.objects.map((o) => o.key)
    expect(keys.filter((k) => k.startsWith('masters/'))).toHaveLength(2)
    expect(keys.filter((k) => k.startsWith('captions/'))).toHaveLength(1)
    expect(keys.some((k) => k.endsWith('/master.m3u8'))).toBe(true)
    const storage = await openStorage(source.config)
    for (const object of manifest.objects.slice(0, 5)) {
      const read = await storage.read(object.key)
      expect(sha(await new Response(read!.body).arrayBuffer())).toBe(object.sha256)
    }
    expect(existsSync(`${archive}.partial`)).toBe(false)
  })

  async function restoredSiteMatches(
    dataDir: string,
    databaseUrl: string | undefined,
    workers = '0',
  ) {
    const restored = await cli(['restore', archive], {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
    })
    expect(restored).toMatchObject({ code: 0 })
    const site = await openSite(dataDir, databaseUrl, workers)
    try {
      // The old passwords sign in; the new site's first-admin settings were not used.
      const editor = await login(site.fetch, 'editor@studio.test', EDITOR_PASSWORD)
      await login(site.fetch, ADMIN_EMAIL, ADMIN_PASSWORD)
      expect(named(await works(site.fetch))).toEqual(named(publicBefore))
      expect(named(await works(site.fetch, editor))).toEqual(named(adminBefore))
      // The notes, their replies and resolutions, with the link each came through.
      expect(await notesOf(site.fetch, editor, readyId)).toEqual(notesBefore)
      // Every object, byte for byte, and what visitors load of each processed work.
      const storage = await openStorage(site.config)
      for (const object of manifest.objects) {
        const read = await storage.read(object.key)
        expect({ key: object.key, sha: sha(await new Response(read!.body).arrayBuffer()) }).toEqual(
          {
            key: object.key,
            sha: object.sha256,
          },
        )
      }
      for (const work of await works(site.fetch)) {
        const captions = work.captions.map((track) => track.url)
        for (const url of [work.thumbnailUrl, work.hlsUrl, ...captions].filter((u) => u !== null)) {
          const there = await site.fetch(url)
          const here = await source.fetch(url)
          expect(there.status).toBe(200)
          expect(sha(await there.arrayBuffer())).toBe(sha(await here.arrayBuffer()))
        }
      }
      // The half-sent upload was never part of the site.
      expect(readdirSync(join(dataDir, 'uploads')).filter((n) => !n.startsWith('.'))).toEqual([])
      return { site, editor }
    } catch (error) {
      await site.app.close()
      throw error
    }
  }

  test('restores into an empty embedded DATA_DIR, and the waiting video gets processed there', async () => {
    const dataDir = await mkdtemp(join(scratch, 'embedded-target-'))
    const { site, editor } = await restoredSiteMatches(dataDir, undefined, '1')
    try {
      const done = await watchVideo(site.fetch, editor, waiting, settled, { timeoutMs: 90_000 })
      expect(done.video.status).toBe('ready')
    } finally {
      await site.app.close()
    }
    // A second restore into it is refused in one line, and changes nothing.
    const config = loadConfig({ DATA_DIR: dataDir })
    const keys = await storedKeys(config)
    const again = await cli(['restore', archive], { DATA_DIR: dataDir })
    expect(again.code).toBe(1)
    expect(again.lines.at(-1)).toMatch(/^The target is not empty/)
    expect(await storedKeys(config)).toEqual(keys)
  }, 180_000)

  testSkipIf(needsServer)(
    'restores into an empty PostgreSQL database',
    async () => {
      const target = await createTestDatabase()
      targets.push(target)
      const { site } = await restoredSiteMatches(target.dataDir, target.databaseUrl)
      await site.app.close()
    },
    120_000,
  )

  testSkipIf(s3.reason)(
    'restores into an S3 bucket, and a backup of that site reads the same objects back',
    async () => {
      const bucket = await makeBucket()
      const target = await createTestDatabase()
      targets.push(target)
      const env = {
        DATA_DIR: target.dataDir,
        DATABASE_URL: target.databaseUrl,
        S3_BUCKET: bucket.bucket,
        S3_ENDPOINT: bucket.endpoint,
        S3_REGION: bucket.region,
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
        AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY,
      }
      try {
        const restored = await cli(['restore', archive], env)
        expect(restored.code).toBe(0)
        const config = loadConfig(env)
        expect(await storedKeys(config)).toEqual(manifest.objects.map((o) => o.key).sort())
        const storage = await openStorage(config)
        for (const object of manifest.objects) {
          const read = await storage.read(object.key)
          expect(sha(await new Response(read!.body).arrayBuffer())).toBe(object.sha256)
        }
        const copy = join(scratch, 'from-bucket.tar')
        const taken = await cli(['backup', copy], env)
        expect(taken.code).toBe(0)
        const again = await manifestOf(copy)
        expect(byKey(again.objects)).toEqual(byKey(manifest.objects))
        expect(again.tables.map((t) => [t.name, t.rows])).toEqual(
          manifest.tables.map((t) => [t.name, t.rows]),
        )
      } finally {
        await dropBucket(bucket)
      }
    },
    120_000,
  )

  test('an archive with one flipped byte is refused naming the object, the target untouched', async () => {
    const damaged = join(scratch, 'damaged.tar')
    await copyFile(archive, damaged)
    const key = manifest.objects.find((o) => o.key.startsWith('masters/'))!.key
    const handle = await open(damaged, 'r+')
    const at = (await dataOffset(damaged, `media/${key}`)) + 100
    const byte = Buffer.alloc(1)
    await handle.read(byte, 0, 1, at)
    await handle.write(Buffer.from([byte[0]! ^ 0xff]), 0, 1, at)
    await handle.close()
    const dataDir = await mkdtemp(join(scratch, 'damaged-target-'))
    const result = await cli(['restore', damaged], { DATA_DIR: dataDir })
    expect(result.code).toBe(1)
    expect(result.lines.at(-1)).toContain(key)
    expect(readdirSync(dataDir)).toEqual([])
  })

  test('an archive of an unknown format, or not an archive at all, is refused', async () => {
    const dataDir = await mkdtemp(join(scratch, 'foreign-target-'))
    const notTar = join(scratch, 'notes.tar')
    await Bun.write(notTar, 'just some notes\n')
    const foreign = await cli(['restore', notTar], { DATA_DIR: dataDir })
    expect(foreign.code).toBe(1)
    expect(foreign.lines.at(-1)).toMatch(/notes\.tar/)
    const newer = join(scratch, 'newer.tar')
    await copyFile(archive, newer)
    const at = await dataOffset(newer, 'manifest.json')
    const text = await readFile(newer)
    const formatAt = text.indexOf('"format": 1', at)
    text.write('"format": 9', formatAt)
    await Bun.write(newer, text)
    const refused = await cli(['restore', newer], { DATA_DIR: dataDir })
    expect(refused.code).toBe(1)
    expect(refused.lines.at(-1)).toMatch(/format 9/)
    expect(readdirSync(dataDir)).toEqual([])
  })

  testSkipIf(needsTarget)(
    `a restore that fails midway leaves the target empty, and can be run again (${pairing})`,
    async () => {
      // Rows the database refuses.
      const bad = join(scratch, 'bad-rows.tar')
      await rewritten(archive, bad, 'db/videos.jsonl', (text) =>
        text.replace(/"status":"[a-z]+"/, () => '"status":"bogus"'),
      )
      const target = await emptyTarget(scratch, 'retry-target')
      try {
        const failed = await cli(['restore', bad], target.env)
        expect(failed.code).toBe(1)
        expect(failed.lines.at(-1)).toMatch(/videos_status_check/)
        expect(await contents(target)).toEqual(empty)
        const retried = await cli(['restore', archive], target.env)
        expect(retried.code).toBe(0)
        expect(await contents(target)).toEqual({ keys: keysOf(manifest), rows: rowsOf(manifest) })
      } finally {
        await target.drop()
      }
    },
    240_000,
  )

  testSkipIf(needsTarget)(
    `crafted archives are refused in one line naming what is wrong, before anything is written, and the good archive restores after them (${pairing})`,
    async () => {
      const admins = linesOf(
        (await entriesOf(archive)).entries.find((e) => e.name === 'db/admins.jsonl')!.bytes,
      )
      const folder = manifest.objects.find((o) => o.key.startsWith('streams/'))!.key.split('/')[1]
      // Its owner is a stream folder the rows name, but no store makes keys this deep.
      const badKey = `streams/${folder}/a/b/c.m4s`
      const cases: { name: string; says: RegExp; edit: (a: Entries) => void }[] = [
        {
          // In front of the real one, the same number of rows: super admins of someone else's.
          name: 'duplicate-entry',
          says: /db\/admins\.jsonl.*twice/,
          edit(a) {
            const at = a.entries.findIndex((e) => e.name === 'db/admins.jsonl')
            a.entries.splice(at, 0, { name: 'db/admins.jsonl', bytes: jsonl(admins.map(intruder)) })
          },
        },
        {
          name: 'two-rows-on-a-line',
          says: /db\/admins\.jsonl.*line 1\b/,
          edit(a) {
            setTable(a, 'admins', [`${admins[0]},${intruder(admins[0]!, 0)}`, ...admins.slice(1)])
          },
        },
        {
          // Listed in the manifest with its hash: a live session for the first admin.
          name: 'unexpected-table',
          says: /sessions/,
          edit(a) {
            const owner = JSON.parse(admins[0]!) as { id: string }
            const bytes = jsonl([
              JSON.stringify({
                id: shaOf(Buffer.from('a token nobody was given')),
                user_id: owner.id,
                expires_at: new Date(Date.now() + 86_400_000).toISOString(),
                created_at: new Date().toISOString(),
              }),
            ])
            const at = a.entries.findIndex((e) => e.name === 'manifest.json')
            a.entries.splice(at, 0, { name: 'db/sessions.jsonl', bytes })
            a.manifest.tables.push({
              name: 'sessions',
              columns: ['id', 'user_id', 'expires_at', 'created_at'],
              rows: 1,
              size: bytes.byteLength,
              sha256: shaOf(bytes),
            })
          },
        },
        {
          name: 'bad-key-after-good-objects',
          says: new RegExp(badKey.replaceAll('/', '\\/').replaceAll('.', '\\.')),
          edit(a) {
            const bytes = Buffer.from('not a segment')
            const last = a.entries.findLastIndex((e) => e.name.startsWith('media/'))
            a.entries.splice(last + 1, 0, { name: `media/${badKey}`, bytes })
            a.manifest.objects.push({ key: badKey, size: bytes.byteLength, sha256: shaOf(bytes) })
          },
        },
      ]
      const target = await emptyTarget(scratch, 'crafted-target')
      try {
        for (const { name, says, edit } of cases) {
          const file = join(scratch, `${name}.tar`)
          const crafted = await entriesOf(archive)
          edit(crafted)
          await writeEntries(file, crafted)
          const refused = await cli(['restore', file], target.env)
          expect({ name, code: refused.code }).toEqual({ name, code: 1 })
          expect(refused.lines.at(-1)).toMatch(says)
          expect(refused.lines.at(-1)).toMatch(/nothing was written/i)
          expect({ name, ...(await contents(target)) }).toEqual({ name, ...empty })
        }
        const restored = await cli(['restore', archive], target.env)
        expect(restored.code).toBe(0)
        // Without a key, hashes are checked, and the restore says what it could not check.
        expect(restored.lines.some((line) => /BACKUP_KEY/.test(line))).toBe(true)
        expect(await contents(target)).toEqual({ keys: keysOf(manifest), rows: rowsOf(manifest) })
      } finally {
        await target.drop()
      }
    },
    240_000,
  )

  testSkipIf(needsTarget)(
    `a restore stopped while it writes removes what it wrote before it exits, and the good archive restores after it (${pairing})`,
    async () => {
      // One large master, written last, keeps the restore writing long enough to be stopped.
      const crafted = await entriesOf(archive)
      const master = crafted.manifest.objects.find((o) => o.key.startsWith('masters/'))!
      const at = crafted.entries.findIndex((e) => e.name === `media/${master.key}`)
      const [entry] = crafted.entries.splice(at, 1)
      entry!.bytes = Buffer.alloc(64 * 1024 * 1024, 7)
      master.size = entry!.bytes.byteLength
      master.sha256 = shaOf(entry!.bytes)
      const last = crafted.entries.findLastIndex((e) => e.name.startsWith('media/'))
      crafted.entries.splice(last + 1, 0, entry!)
      const large = join(scratch, 'large.tar')
      await writeEntries(large, crafted)
      const target = await emptyTarget(scratch, 'stopped-target')
      try {
        const started = spawnCli(['restore', large], target.env)
        const media = join(target.dataDir, 'media')
        const stored = async () =>
          target.bucket ? (await bucketKeys(target.bucket)).length : filesIn(media)
        // Stopped with half the objects in: the rest, the large one last, are still to come.
        const half = Math.floor(crafted.manifest.objects.length / 2)
        while (started.proc.exitCode === null && (await stored()) < half) await Bun.sleep(10)
        started.proc.kill('SIGTERM')
        const stopped = await started.result
        expect(stopped.code).toBe(1)
        expect(stopped.lines.at(-1)).toMatch(
          /^Stopped by SIGTERM\. .*removed: the target is empty again\.$/,
        )
        expect(await contents(target)).toEqual(empty)
        if (target.bucket) expect(await unfinishedUploads(target.bucket)).toEqual([])
        else expect(filesIn(join(target.dataDir, 'tmp'))).toBe(0)
        const restored = await cli(['restore', archive], target.env)
        expect(restored.code).toBe(0)
        expect(await contents(target)).toEqual({ keys: keysOf(manifest), rows: rowsOf(manifest) })
      } finally {
        await target.drop()
      }
    },
    240_000,
  )

  testSkipIf(needsTarget)(
    `with BACKUP_KEY, a restore refuses an archive not signed with that key, before anything is written (${pairing})`,
    async () => {
      const key = `${crypto.randomUUID()}${crypto.randomUUID()}`
      const signed = join(scratch, 'signed.tar')
      const taken = await backup({ config: { ...source.config, backupKey: key }, file: signed })
      // Changed after signing, its manifest made to match: consistent, but not what was signed.
      const altered = join(scratch, 'signed-altered.tar')
      await rewritten(signed, altered, 'db/videos.jsonl', (text) =>
        text.replace('Processed work', () => 'Altered work'),
      )
      const target = await emptyTarget(scratch, 'signed-target')
      try {
        const withKey = { ...target.env, BACKUP_KEY: key }
        const unsigned = await cli(['restore', archive], withKey)
        expect(unsigned.code).toBe(1)
        expect(unsigned.lines.at(-1)).toMatch(/not signed/)
        const changed = await cli(['restore', altered], withKey)
        expect(changed.code).toBe(1)
        expect(changed.lines.at(-1)).toMatch(/signature/)
        const otherKey = await cli(['restore', signed], {
          ...target.env,
          BACKUP_KEY: `${crypto.randomUUID()}${crypto.randomUUID()}`,
        })
        expect(otherKey.code).toBe(1)
        expect(otherKey.lines.at(-1)).toMatch(/signature/)
        expect(await contents(target)).toEqual(empty)
        const restored = await cli(['restore', signed], withKey)
        expect(restored.code).toBe(0)
        expect(restored.lines.filter((line) => /warning/.test(line))).toEqual([])
        expect(await contents(target)).toEqual({ keys: keysOf(taken), rows: rowsOf(taken) })
      } finally {
        await target.drop()
      }
    },
    240_000,
  )

  testSkipIf(diskOnly("it changes a stored file in place on the source's disk"))(
    'a short read fails the backup and leaves no file',
    async () => {
      const file = join(scratch, 'short.tar')
      const storage = await openStorage(source.config)
      const master = manifest.objects.find((o) => o.key.startsWith('masters/'))!
      const path = storage.localPath(master.key)!
      const original = await readFile(path)
      try {
        // The file shrinks after the backup listed it, as a store losing bytes would answer.
        const attempt = backup({
          config: source.config,
          file,
          log(line) {
            if (line.includes('objects to copy')) truncateSync(path, 10)
          },
        })
        await expect(attempt).rejects.toThrow(/short read|went missing/)
      } finally {
        await Bun.write(path, original)
      }
      expect(existsSync(file)).toBe(false)
      expect(existsSync(`${file}.partial`)).toBe(false)
    },
    30_000,
  )

  testSkipIf(diskOnly("it moves a stored file away on the source's disk"))(
    'an object a row names but the store lacks is listed as missing, with a warning',
    async () => {
      const storage = await openStorage(source.config)
      const thumbnail = manifest.objects.find((o) => o.key.startsWith('images/'))!
      const path = storage.localPath(thumbnail.key)!
      const original = await readFile(path)
      const lines: string[] = []
      try {
        await rm(path)
        const taken = await backup({
          config: source.config,
          file: join(scratch, 'missing.tar'),
          log: (line) => lines.push(line),
        })
        expect(taken.missing).toContain(thumbnail.key)
        expect(taken.objects.map((o) => o.key)).not.toContain(thumbnail.key)
        expect(lines.some((line) => line.includes(`warning: ${thumbnail.key}`))).toBe(true)
      } finally {
        await Bun.write(path, original)
      }
    },
    30_000,
  )
})

describeSkipIf(needsServer)('from the embedded default to PostgreSQL', () => {
  test('a backup of an embedded site restores into PostgreSQL', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'backup-move-'))
    const from = await embeddedCopy()
    const to = await createTestDatabase()
    try {
      const site = await openSite(from.dataDir, undefined, '1')
      let before: Work[]
      try {
        const token = await login(site.fetch, 'someone-else@studio.test', 'not-the-old-one-1')
        const clip = await makeClip(scratch, 'move.mp4', { seconds: 1, width: 320, height: 180 })
        const video = await uploadVideo(site.fetch, token, clip, 'Moved work')
        await watchVideo(site.fetch, token, video._id, settled, { timeoutMs: 90_000 })
        before = await works(site.fetch, token)
      } finally {
        await site.app.close()
      }
      // With the site stopped, the backup opens DATA_DIR itself; `-` writes to standard output.
      const taken = await cli(
        ['backup', '-'],
        { DATA_DIR: from.dataDir },
        join(scratch, 'move.tar'),
      )
      expect(taken.code).toBe(0)
      expect(taken.lines.at(-1)).toMatch(/^Backup written to standard output/)
      const restored = await cli(['restore', join(scratch, 'move.tar')], {
        DATA_DIR: to.dataDir,
        DATABASE_URL: to.databaseUrl,
      })
      expect(restored.code).toBe(0)
      const moved = await openSite(to.dataDir, to.databaseUrl)
      try {
        const token = await login(moved.fetch, 'someone-else@studio.test', 'not-the-old-one-1')
        const after = await works(moved.fetch, token)
        expect(named(after)).toEqual(named(before))
        expect(after[0]?.hlsUrl).toBe(before[0]?.hlsUrl ?? null)
        const playlist = await moved.fetch(after[0]!.hlsUrl!)
        expect(playlist.status).toBe(200)
      } finally {
        await moved.app.close()
      }
    } finally {
      from.drop()
      await to.drop()
      await rm(scratch, { recursive: true, force: true })
    }
  }, 180_000)
})
