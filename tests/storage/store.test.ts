import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdir, mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mediaUrl, storedFile, typeOfName } from '../../src/storage/layout.ts'
import {
  adopt,
  ensureDirs,
  jobScratch,
  type MediaStore,
  mediaStore,
  publishFolder,
  removeFolders,
  removeNames,
  sweep,
} from '../../src/storage/store.ts'

let dataDir: string
let store: MediaStore
const mediaDir = () => join(dataDir, 'media')
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'store-'))
  store = mediaStore(dataDir)
  await ensureDirs(store)
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

const scratch = async (content: string) => {
  const path = join(store.tmpDir, crypto.randomUUID())
  await Bun.write(path, content)
  return path
}
const pathOf = (name: string) => join(mediaDir(), name)

describe('media store', () => {
  test('adopt links a file in under a fresh generated name with its type; the source stays', async () => {
    const src = await scratch('video bytes')
    const name = await adopt(store, src, 'video/ogg')
    expect(name).toMatch(/^[0-9a-f]{32}\.ogv$/)
    expect(typeOfName(name)).toBe('video/ogg')
    // The source (an upload) stays whole until its change commits; the store's name is a link.
    expect(await Bun.file(src).text()).toBe('video bytes')
    expect((await stat(src)).ino).toBe((await stat(pathOf(name))).ino)
    expect(await Bun.file(pathOf(name)).text()).toBe('video bytes')
    expect(mediaUrl(name)).toBe(`/media/${name}`)
    const again = await adopt(store, await scratch('video bytes'), 'video/ogg')
    expect(again).not.toBe(name)
  })

  test('only names the store makes resolve to a key', () => {
    const good = `${'a'.repeat(32)}.png`
    expect(storedFile(good)).toEqual({ key: `images/${good}`, type: 'image/png' })
    expect(storedFile(`${'a'.repeat(32)}.webm`)).toEqual({
      key: `masters/${'a'.repeat(32)}.webm`,
      type: 'video/webm',
    })
    for (const bad of [
      '../secret',
      `../${good}`,
      `${'a'.repeat(32)}.html`,
      `${'A'.repeat(32)}.png`,
      '/etc/passwd',
      `${'a'.repeat(31)}.png`,
      `${good}/`,
      '',
    ]) {
      expect(storedFile(bad)).toBeUndefined()
    }
  })

  test('removeNames removes and tolerates names already gone', async () => {
    const name = await adopt(store, await scratch('x'), 'image/png')
    await removeNames(store, [name, `${'b'.repeat(32)}.png`, '../nope'])
    expect(await Bun.file(pathOf(name)).exists()).toBe(false)
  })

  test('publishFolder stores a run under a new folder, only what /media serves; removeFolders takes it away', async () => {
    const out = join(store.tmpDir, 'run-out')
    await Bun.write(join(out, 'master.m3u8'), '#EXTM3U\n')
    await Bun.write(join(out, 'video.mp4'), 'mp4')
    await Bun.write(join(out, '360p', 'index.m3u8'), '#EXTM3U\n')
    await Bun.write(join(out, '360p', 'init.mp4'), 'init')
    await Bun.write(join(out, '360p', 'seg_000.m4s'), 'seg')
    await Bun.write(join(out, '360p', 'notes.txt'), 'not a stream file')
    const folder = await publishFolder(store, out)
    expect(folder).toMatch(/^[0-9a-f]{32}$/)
    const stored = await readdir(join(mediaDir(), folder), { recursive: true })
    expect(stored.sort()).toEqual(
      [
        '360p',
        '360p/index.m3u8',
        '360p/init.mp4',
        '360p/seg_000.m4s',
        'master.m3u8',
        'video.mp4',
      ].sort(),
    )
    expect(await Bun.file(join(mediaDir(), folder, '360p', 'seg_000.m4s')).text()).toBe('seg')
    await removeFolders(store, [folder, 'not-a-folder'])
    expect(await readdir(mediaDir())).not.toContain(folder)
  })

  test('sweep removes what no row names, keeps what it is told to, and empties the scratch space', async () => {
    // Its own data dir, so files other tests adopted do not count.
    dataDir = await mkdtemp(join(dataDir, 'sweep-'))
    store = mediaStore(dataDir)
    await ensureDirs(store)
    const kept = await adopt(store, await scratch('kept'), 'image/jpeg')
    const orphan = await adopt(store, await scratch('orphan'), 'image/jpeg')
    const folder = 'f'.repeat(32)
    await Bun.write(join(mediaDir(), folder, '360p', 'index.m3u8'), '#EXTM3U\n')
    // Not a key of the store: left alone
    // (docs/decisions/068-media-through-the-storage-runs-made-in-scratch.md).
    await Bun.write(join(mediaDir(), 'stray.txt'), 'left by hand')
    await scratch('half a multipart upload')
    await mkdir(join(store.tmpDir, 'mp-dir'), { recursive: true })
    const running = jobScratch(store, crypto.randomUUID())
    const finished = jobScratch(store, crypto.randomUUID())
    for (const dir of [running, finished]) await Bun.write(join(dir, 'out', 'x'), 'x')
    const runningEntry = running.slice(store.tmpDir.length + 1)
    const finishedEntry = finished.slice(store.tmpDir.length + 1)
    let listed: string[] = []
    const removed = await sweep(store, async (names) => {
      listed = names
      return new Set([kept, runningEntry])
    })
    expect(listed.sort()).toEqual([kept, orphan, folder, runningEntry, finishedEntry].sort())
    expect(removed.sort()).toEqual([orphan, folder, finishedEntry].sort())
    expect((await readdir(mediaDir())).sort()).toEqual([kept, 'stray.txt'].sort())
    expect(await readdir(store.tmpDir)).toEqual([runningEntry])
  })

  test('with minAgeMs, what changed more recently stays, named or not', async () => {
    const young = await adopt(store, await scratch('young'), 'image/png')
    const old = await adopt(store, await scratch('old'), 'image/png')
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000)
    await utimes(pathOf(old), twoDaysAgo, twoDaysAgo)
    const removed = await sweep(store, new Set(), { minAgeMs: 24 * 60 * 60 * 1000 })
    expect(removed).toContain(old)
    expect(removed).not.toContain(young)
    expect(await Bun.file(pathOf(young)).exists()).toBe(true)
    expect(await Bun.file(pathOf(old)).exists()).toBe(false)
  })
})
