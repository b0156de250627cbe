// A full disk is the server's state, not the client's fault and not a crash: 507 with a message
// saying so, on both upload entries, and nothing half-written is counted as received.
// Real: the app's media, uploads and scratch folders are moved onto a 2 MiB tmpfs (same file
// system for all three, as in a real DATA_DIR). Mounting needs root; without it the filesystem
// tests are skipped with the reason, and the error mapping below still runs.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdir, mkdtemp, readdir, rm, statfs, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDiskFull, STORAGE_FULL, toPublicError } from '../../src/errors.ts'
import { describeSkipIf, testSkipIf } from '../../testkit/skip.ts'
import { diskOnly, startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { bytesOf, type Fixtures, fixtures, form, send, tusVia } from '../../testkit/videos.ts'

const errno = (code: string) => Object.assign(new Error(`${code}: test`), { code })

describe('disk-full errors are mapped once', () => {
  test('ENOSPC, EDQUOT and PostgreSQL 53100 are 507 with one message, also when wrapped', () => {
    for (const code of ['ENOSPC', 'EDQUOT', '53100']) {
      expect(isDiskFull(errno(code))).toBe(true)
      expect(toPublicError(errno(code))).toEqual({ status: 507, message: STORAGE_FULL })
      // As drizzle and tRPC hand it on: the errno error as the cause.
      const wrapped = new Error('Failed query', { cause: errno(code) })
      expect(toPublicError(new Error('outer', { cause: wrapped }))).toEqual({
        status: 507,
        message: STORAGE_FULL,
      })
    }
    expect(isDiskFull(errno('EACCES'))).toBe(false)
    expect(toPublicError(errno('EIO')).status).toBe(500)
  })
})

let t: TestApp
let f: Fixtures
let token: string
let small: string
let mounted = false

/** Mounts a 2 MiB tmpfs on `dir`; the reason it could not, if it could not. */
function mountSmall(dir: string): string | undefined {
  try {
    const mount = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir])
    if (mount.exitCode === 0) return undefined
    return `cannot mount a tmpfs: ${mount.stderr.toString().trim() || `mount exited ${mount.exitCode}`}`
  } catch (e) {
    return `cannot mount a tmpfs: ${(e as Error).message}`
  }
}

/** Known before the tests are declared, so that they are skipped (and say why) rather than pass. */
const cannotMount = await (async () => {
  const probe = await mkdtemp(join(tmpdir(), 'disk-full-probe-'))
  const reason = mountSmall(probe)
  if (!reason) Bun.spawnSync(['umount', probe])
  await rm(probe, { recursive: true, force: true })
  return reason
})()

beforeAll(async () => {
  t = await startTestApp()
  f = await fixtures()
  token = await t.login()
  if (cannotMount) return
  small = join(t.dataDir, 'small-disk')
  await mkdir(small)
  const failed = mountSmall(small)
  if (failed) throw new Error(failed)
  mounted = true
  for (const name of ['media', 'uploads', 'tmp']) {
    await rm(join(t.dataDir, name), { recursive: true, force: true })
    await mkdir(join(small, name))
    await symlink(join(small, name), join(t.dataDir, name))
  }
}, 120_000)
afterAll(async () => {
  if (mounted) Bun.spawnSync(['umount', small])
  await t.stop()
})

const FILLER = () => join(small, 'filler')
/** Fills the small disk until only `leave` bytes are free. */
async function fill(leave: number) {
  const { bavail, bsize } = await statfs(small)
  const free = bavail * bsize
  await writeFile(FILLER(), new Uint8Array(Math.max(0, free - leave)), { flag: 'a' })
}
const freeAll = () => rm(FILLER(), { force: true })

/** A real MP4 head and random bytes: `size` bytes that sniff as a video. */
async function video(size: number) {
  const bytes = new Uint8Array(size)
  crypto.getRandomValues(bytes.subarray(0, 65536))
  bytes.set(await bytesOf(f.mp4))
  return bytes
}

describeSkipIf(cannotMount)('a full disk', () => {
  /** With a bucket, tus uploads are kept there, not on the full disk. */
  const tusOnDisk = testSkipIf(diskOnly('with a bucket tus uploads are not on this disk'))

  tusOnDisk(
    'tus PATCH: 507 with the message; nothing of it counted; it resumes once there is room',
    async () => {
      const tus = tusVia(t, token)
      const bytes = await video(600_000)
      const created = await tus.create(bytes.length, 'video')
      expect(created.status).toBe(201)
      const path = created.headers.get('location')!
      await fill(100_000)
      try {
        const res = await tus.patch(path, 0, bytes)
        expect(res.status).toBe(507)
        expect(await res.text()).toBe(STORAGE_FULL)
        expect((await tus.head(path)).headers.get('upload-offset')).toBe('0')
      } finally {
        await freeAll()
      }
      expect((await tus.patch(path, 0, bytes)).status).toBe(204)
    },
  )

  tusOnDisk('tus creation on a disk with no room left: 507', async () => {
    await fill(0)
    try {
      const res = await tusVia(t, token).create(1000, 'video')
      expect(res.status).toBe(507)
      expect(await res.text()).toBe(STORAGE_FULL)
    } finally {
      await freeAll()
    }
  })

  test('REST multipart upload: 507 with the message, not "Malformed multipart body"; nothing left', async () => {
    const big = join(f.dir, 'big-for-disk-full.mp4')
    await Bun.write(big, await video(600_000))
    await fill(100_000)
    try {
      const res = await send(
        t,
        'POST',
        '/api/videos/upload',
        token,
        form({ title: 'No room' }, { video: big, thumbnail: f.jpg, brandLogo: f.png }),
      )
      expect(res.status).toBe(507)
      expect(res.json).toEqual({ status: 'error', message: STORAGE_FULL })
      expect(await readdir(join(small, 'tmp'))).toEqual([])
      expect(await readdir(join(small, 'media'))).toEqual([])
    } finally {
      await freeAll()
    }
    const again = await send(
      t,
      'POST',
      '/api/videos/upload',
      token,
      form({ title: 'Room again' }, { video: big, thumbnail: f.jpg, brandLogo: f.png }),
    )
    expect(again.status).toBe(201)
  })
})
