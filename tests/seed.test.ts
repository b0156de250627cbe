// `bun run db:seed` as an operator runs it (a separate process on a stopped instance), on the
// embedded database or on TEST_DATABASE_URL's server, as the Docker image does with its volume.
import { afterEach, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { createTestDatabase, type TestDatabase } from '../testkit/database.ts'

const ROOT = join(import.meta.dir, '..')
const ADMIN_PASSWORD = 'seed-pass-1'

let testDb: TestDatabase | undefined
const emptyDirs: string[] = []
afterEach(async () => {
  await testDb?.drop()
  testDb = undefined
  for (const d of emptyDirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function seed(db: TestDatabase, args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, 'db/seed.ts', ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production', // as in the image: ADMIN_PASSWORD makes the first admin
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.databaseUrl ?? '',
      ADMIN_PASSWORD,
      ...env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const code = await proc.exited
  return {
    code,
    out: await new Response(proc.stdout).text(),
    err: await new Response(proc.stderr).text(),
  }
}

async function withApp<T>(
  db: TestDatabase,
  use: (fetch: (path: string) => Promise<Response>) => Promise<T>,
) {
  const app = await createApp(
    loadConfig({
      DATA_DIR: db.dataDir,
      NODE_ENV: 'test',
      ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    }),
  )
  try {
    return await use((path) => app.fetch(new Request(`http://localhost${path}`)))
  } finally {
    await app.close()
  }
}

/** A PATH on which bun runs but no ffmpeg is found (an image built without it). */
function pathWithoutFfmpeg(): string {
  const dir = mkdtempSync(join(tmpdir(), 'studio-no-ffmpeg-'))
  emptyDirs.push(dir)
  return dir
}

test('db:seed fills an empty instance once; the videos are served publicly', async () => {
  testDb = await createTestDatabase()
  const db = testDb
  const first = await seed(db, ['2', '--once'])
  expect(first.err).toBe('')
  expect(first.code).toBe(0)
  expect(first.out).toContain('Seeded 2 sample videos.')
  expect(existsSync(join(db.dataDir, '.seeded'))).toBe(true)
  const again = await seed(db, ['2', '--once'])
  expect(again.code).toBe(0)
  expect(again.out).not.toContain('Seeded')
  // Without --once an instance that has videos is left as it is.
  const plain = await seed(db, ['2'])
  expect(plain.code).toBe(0)
  expect(plain.out).toContain('already has 2 video(s); nothing seeded.')

  await withApp(db, async (fetch) => {
    const body = await (await fetch('/api/public/videos')).json()
    expect(body.data.videos).toHaveLength(2)
    expect(body.data.videos.map((v: { title: string }) => v.title).sort()).toEqual([
      'First Light',
      'Night Run',
    ])
    const [video] = body.data.videos
    const thumb = await fetch(video.thumbnailUrl)
    expect(thumb.headers.get('content-type')).toBe('image/jpeg')
    const logo = await fetch(video.brandLogoUrl)
    expect(logo.headers.get('content-type')).toBe('image/png')
    // Processed before the seed returned: visitors get streams at once, and the MP4, not the master.
    for (const v of body.data.videos) {
      expect(v.status).toBe('ready')
      expect(v.hlsUrl).toMatch(/^\/media\/[0-9a-f]{32}\/master\.m3u8$/)
      expect(v.videoUrl).toBe(v.mp4Url)
      expect((await fetch(v.hlsUrl)).status).toBe(200)
    }
    expect(first.out).toContain('processing: 2 of 2 ready')
    const clip = await fetch(video.videoUrl)
    expect(clip.status).toBe(200)
    // The shared 12-second clip: an MP4 (ftyp box) of real size, not an empty file.
    const bytes = new Uint8Array(await clip.arrayBuffer())
    expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe('ftyp')
    expect(bytes.length).toBeGreaterThan(20_000)
  })
}, 120_000)

test('without ffmpeg the seed says what to install in one line and changes nothing', async () => {
  testDb = await createTestDatabase()
  const db = testDb
  const noFfmpeg = { PATH: pathWithoutFfmpeg() }
  const run = await seed(db, ['2'], noFfmpeg)
  expect(run.code).toBe(1)
  expect(run.err.trim().split('\n')).toHaveLength(1)
  expect(run.err).toContain('ffmpeg, which is not installed')
  expect(run.err).not.toMatch(/^\s+at /m)

  // The quick start goes on without samples and tries again next time: no marker.
  const quick = await seed(db, ['2', '--once'], noFfmpeg)
  expect(quick.code).toBe(0)
  expect(quick.err).toContain('No sample videos:')
  expect(existsSync(join(db.dataDir, '.seeded'))).toBe(false)
  await withApp(db, async (fetch) => {
    const body = await (await fetch('/api/public/videos')).json()
    expect(body.data.videos).toHaveLength(0)
  })
}, 120_000)
