// Backup and restore of a work with versions, on this run's pairing (embedded + disk, or
// PostgreSQL + a bucket): the archive holds every version's row and files, a restored site lists
// the same versions and can make the older one current again (its streams play), and an archive
// whose version rows were taken out is refused, since its files then belong to no row.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { extract as tarExtract, pack as tarPack } from 'tar-stream'
import { createApp } from '../../src/app.ts'
import type { Manifest } from '../../src/backup/archive.ts'
import { backup } from '../../src/backup/backup.ts'
import { openStorage } from '../../src/backup/target.ts'
import { loadConfig } from '../../src/config.ts'
import { createTestDatabase } from '../../testkit/database.ts'
import { prepareOutputs, readyVersion, readyWorks } from '../../testkit/ready.ts'
import { dropBucket, makeBucket, s3Env } from '../../testkit/s3.ts'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type Json,
  startTestApp,
  type TestApp,
} from '../../testkit/test-app.ts'
import { bytesOf, type Fixtures, fixtures, form, send, tusVia } from '../../testkit/videos.ts'

const serverUrl = process.env.TEST_DATABASE_URL
let t: TestApp
let f: Fixtures
let scratch: string
let archive: string
let manifest: Manifest
let videoId: string
let before: { number: number; current: boolean; status: string }[]
const drops: (() => Promise<void>)[] = []

beforeAll(async () => {
  t = await startTestApp()
  f = await fixtures()
  scratch = await mkdtemp(join(tmpdir(), 'versions-backup-'))
  await Promise.all([prepareOutputs(f.mp4), prepareOutputs(f.webm)])
  const token = await t.login()
  const res = await send(
    t,
    'POST',
    '/api/videos/upload',
    token,
    form({ title: 'Cut Work' }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
  )
  videoId = res.json.data.video._id
  await readyWorks(t, [videoId])
  const tus = tusVia(t, token)
  for (const path of [f.webm, f.mp4]) {
    const upload = await tus.upload(await bytesOf(path), 'video')
    const r = await t.call('POST', `/api/videos/${videoId}/versions`, { token, body: { upload } })
    expect(r.status).toBe(201)
    // Version 2 is processed (and current); version 3 waits in the queue.
    if (r.json.data.version.number === 2) await readyVersion(t, r.json.data.version._id)
  }
  before = (await t.call('GET', `/api/videos/${videoId}/versions`, { token })).json.data.versions
  archive = join(scratch, 'site.tar')
  manifest = await backup({ config: t.config, file: archive })
}, 180_000)

afterAll(async () => {
  await t?.stop()
  for (const drop of drops) await drop()
  await rm(scratch, { recursive: true, force: true })
})

/** `bun run restore` as an operator runs it, in a process of its own. */
async function restore(env: Record<string, string | undefined>, file: string) {
  const proc = Bun.spawn(['bun', 'src/backup/cli.ts', 'restore', file], {
    cwd: join(import.meta.dir, '..', '..'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  return { code, stderr }
}

/** An empty site on this run's pairing (its environment: a server on it runs no worker). */
async function emptyTarget(label: string) {
  const site = { NODE_ENV: 'test', WEB_DIST: '/nonexistent', SSR_DIST: '/nonexistent' }
  if (!serverUrl) {
    const dataDir = await mkdtemp(join(scratch, `${label}-`))
    const env = { DATA_DIR: dataDir }
    return { env, config: loadConfig({ ...site, MEDIA_WORKERS: '0', ...env }) }
  }
  const database = await createTestDatabase()
  const bucket = await makeBucket()
  drops.push(async () => {
    await dropBucket(bucket)
    await database.drop()
  })
  const env = {
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.databaseUrl,
    ...s3Env(bucket),
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY,
  }
  return { env, config: loadConfig({ ...site, MEDIA_WORKERS: '0', ...env }) }
}

const shape = (list: { number: number; current: boolean; status: string }[]) =>
  list.map(({ number, current, status }) => ({ number, current, status }))

test('the archive holds every version’s row and files', () => {
  const rows = Object.fromEntries(manifest.tables.map((table) => [table.name, table.rows]))
  expect(rows).toMatchObject({ videos: 1, video_versions: 3 })
  expect(manifest.missing).toEqual([])
  const keys = manifest.objects.map((object) => object.key)
  // Three masters (one per version), and the stream folders of versions 1 and 2.
  expect(keys.filter((key) => key.startsWith('masters/'))).toHaveLength(3)
  const folders = new Set(keys.filter((k) => k.startsWith('streams/')).map((k) => k.split('/')[1]))
  expect(folders.size).toBe(2)
})

test('a restored site lists the same versions and plays the older one made current again', async () => {
  const { env, config } = await emptyTarget('restored')
  expect(await restore(env, archive)).toMatchObject({ code: 0 })
  const app = await createApp(config)
  try {
    let ip = 0
    const call = async (method: string, path: string, token?: string, body?: unknown) => {
      const res = await app.fetch(
        new Request(`http://localhost${path}`, {
          method,
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
        `10.2.0.${++ip}`,
      )
      return { status: res.status, json: (await res.json()) as Json }
    }
    const login = await call('POST', '/api/auth/login', undefined, {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    })
    const token = login.json.data.token as string
    const listed = await call('GET', `/api/videos/${videoId}/versions`, token)
    const versions = listed.json.data.versions as ((typeof before)[number] & { _id: string })[]
    expect(shape(versions)).toEqual(shape(before))
    const v1 = versions.find((v) => v.number === 1)!
    const made = await call('PUT', `/api/videos/${videoId}/versions/${v1._id}/current`, token)
    expect(made.status).toBe(200)
    const video = (await call('GET', `/api/videos/${videoId}`, token)).json.data.video as {
      version: number
      hlsUrl: string
    }
    expect(video.version).toBe(1)
    const master = await app.fetch(new Request(`http://localhost${video.hlsUrl}`), '10.2.1.1')
    expect(master.status).toBe(200)
    // Every object of the archive is in the restored store.
    const storage = await openStorage(config)
    for (const object of manifest.objects) expect(await storage.stat(object.key)).toBeTruthy()
  } finally {
    await app.close()
  }
}, 120_000)

test('an archive whose version rows were taken out is refused: their files belong to no row', async () => {
  const entries: { name: string; bytes: Buffer }[] = []
  const extract = tarExtract()
  Readable.from(await readFile(archive)).pipe(extract)
  for await (const entry of extract) {
    const parts: Buffer[] = []
    for await (const chunk of entry) parts.push(chunk as Buffer)
    entries.push({ name: entry.header.name, bytes: Buffer.concat(parts) })
  }
  const copy = JSON.parse(
    entries.find((e) => e.name === 'manifest.json')!.bytes.toString('utf8'),
  ) as Manifest
  const table = entries.find((e) => e.name === 'db/video_versions.jsonl')!
  table.bytes = Buffer.from('')
  Object.assign(copy.tables.find((t) => t.name === 'video_versions')!, {
    rows: 0,
    size: 0,
    sha256: new Bun.CryptoHasher('sha256').update('').digest('hex'),
  })
  const pack = tarPack()
  for (const entry of entries) {
    const bytes = entry.name === 'manifest.json' ? Buffer.from(JSON.stringify(copy)) : entry.bytes
    pack.entry({ name: entry.name, size: bytes.byteLength }, bytes)
  }
  pack.finalize()
  const out: Buffer[] = []
  for await (const chunk of pack) out.push(chunk as Buffer)
  const tampered = join(scratch, 'tampered.tar')
  await Bun.write(tampered, Buffer.concat(out))
  const { env } = await emptyTarget('refused')
  const refused = await restore(env, tampered)
  expect(refused.code).not.toBe(0)
  expect(refused.stderr).toContain('belongs to no work or image')
}, 120_000)
