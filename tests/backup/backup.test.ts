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
import { KEY_PREFIXES } from '../../src/storage/keys.ts'
import { createTestDatabase, embeddedCopy, type TestDatabase } from '../../testkit/database.ts'
import { dropBucket, makeBucket, s3Available } from '../../testkit/s3.ts'
import { describeSkipIf, testSkipIf } from '../../testkit/skip.ts'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  diskOnly,
  startTestApp,
  type TestApp,
} from '../../testkit/test-app.ts'
import { makeClip, settled, uploadVideo, watchVideo } from '../pipeline/support.ts'
import { tusVia } from '../videos/support.ts'

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

/** Runs the command as an operator would; its exit status and what it printed on stderr. */
async function cli(args: string[], env: Record<string, string | undefined>, stdout?: string) {
  const proc = Bun.spawn(['bun', 'src/backup/cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
    stdout: stdout ? Bun.file(stdout) : 'ignore',
    stderr: 'pipe',
  })
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  const lines = stderr.trim().split('\n')
  // Progress lines, then at most one line of failure: never a stack trace.
  expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([])
  return { code, lines }
}

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

/** A copy of an archive with one entry changed, its manifest updated to match. */
async function rewritten(from: string, to: string, name: string, change: (text: string) => string) {
  const entries: { name: string; bytes: Buffer }[] = []
  const extract = tarExtract()
  Readable.from(await readFile(from)).pipe(extract)
  for await (const entry of extract) {
    const parts: Buffer[] = []
    for await (const chunk of entry) parts.push(chunk as Buffer)
    entries.push({ name: entry.header.name, bytes: Buffer.concat(parts) })
  }
  const changed = entries.find((e) => e.name === name)!
  changed.bytes = Buffer.from(change(changed.bytes.toString('utf8')))
  const manifestEntry = entries.find((e) => e.name === 'manifest.json')!
  const manifest = JSON.parse(manifestEntry.bytes.toString('utf8')) as Manifest
  const table = manifest.tables.find((t) => `db/${t.name}.jsonl` === name)!
  table.size = changed.bytes.byteLength
  table.sha256 = sha(changed.bytes.buffer.slice(0) as ArrayBuffer)
  manifestEntry.bytes = Buffer.from(JSON.stringify(manifest))
  const pack = tarPack()
  for (const entry of entries) {
    pack.entry({ name: entry.name, size: entry.bytes.byteLength }, entry.bytes)
  }
  pack.finalize()
  const out: Buffer[] = []
  for await (const chunk of pack) out.push(chunk as Buffer)
  await Bun.write(to, Buffer.concat(out))
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
  const targets: TestDatabase[] = []

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
  }, 180_000)

  afterAll(async () => {
    await source?.stop()
    for (const target of targets) await target.drop()
    await rm(scratch, { recursive: true, force: true })
  })

  test('the manifest names the rows and every object the rows name, with their hashes', async () => {
    expect(manifest.format).toBe(1)
    expect(manifest.app.schema).toBe(knownSchemas().at(-1)!)
    expect(manifest.database).toBe(serverUrl ? 'postgresql' : 'embedded')
    const rows = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]))
    expect(rows).toMatchObject({ admins: 2, videos: 2, video_captions: 1 })
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

  const s3 = s3Available()
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

  test('a restore that fails midway leaves the target empty, and can be run again', async () => {
    // Rows the database refuses: the objects are in by then, and must go again.
    const bad = join(scratch, 'bad-rows.tar')
    await rewritten(archive, bad, 'db/videos.jsonl', (text) =>
      text.replace(/"status":"[a-z]+"/, '"status":"bogus"'),
    )
    const dataDir = await mkdtemp(join(scratch, 'retry-target-'))
    const failed = await cli(['restore', bad], { DATA_DIR: dataDir })
    expect(failed.code).toBe(1)
    expect(failed.lines.at(-1)).toMatch(/videos_status_check/)
    const config = loadConfig({ DATA_DIR: dataDir })
    expect(await storedKeys(config)).toEqual([])
    const retried = await cli(['restore', archive], { DATA_DIR: dataDir })
    expect(retried.code).toBe(0)
    expect((await storedKeys(config)).length).toBe(manifest.objects.length)
  }, 60_000)

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
