import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  adopt,
  ensureDirs,
  type MediaStore,
  mediaStore,
  mediaUrl,
  pathOfName,
  removeNames,
  sweep,
  typeOfName,
} from '../../src/media/store.ts'

let dataDir: string
let store: MediaStore
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

describe('media store', () => {
  test('adopt links a file in under a fresh generated name with its type; the source stays', async () => {
    const src = await scratch('video bytes')
    const name = await adopt(store, src, 'video/ogg')
    expect(name).toMatch(/^[0-9a-f]{32}\.ogv$/)
    expect(typeOfName(name)).toBe('video/ogg')
    // The source (an upload) stays whole until its change commits; the store's name is a link.
    expect(await Bun.file(src).text()).toBe('video bytes')
    expect((await stat(src)).ino).toBe((await stat(pathOfName(store, name)!)).ino)
    expect(await Bun.file(pathOfName(store, name)!).text()).toBe('video bytes')
    expect(mediaUrl(name)).toBe(`/media/${name}`)
    const again = await adopt(store, await scratch('video bytes'), 'video/ogg')
    expect(again).not.toBe(name)
  })

  test('only names the store makes resolve to a path', () => {
    const good = `${'a'.repeat(32)}.png`
    expect(pathOfName(store, good)).toBe(join(store.dir, good))
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
      expect(pathOfName(store, bad)).toBeUndefined()
    }
  })

  test('removeNames removes and tolerates names already gone', async () => {
    const name = await adopt(store, await scratch('x'), 'image/png')
    await removeNames(store, [name, `${'b'.repeat(32)}.png`, '../nope'])
    expect(await Bun.file(pathOfName(store, name)!).exists()).toBe(false)
  })

  test('sweep removes files no row names and empties the scratch space', async () => {
    // Its own data dir, so files other tests adopted do not count.
    store = mediaStore(await mkdtemp(join(dataDir, 'sweep-')))
    await ensureDirs(store)
    const kept = await adopt(store, await scratch('kept'), 'image/jpeg')
    const orphan = await adopt(store, await scratch('orphan'), 'image/jpeg')
    await Bun.write(join(store.dir, 'stray.txt'), 'left by hand')
    await scratch('half a multipart upload')
    await mkdir(join(store.tmpDir, 'mp-dir'), { recursive: true })
    const removed = await sweep(store, new Set([kept]))
    expect(removed.sort()).toEqual([orphan, 'stray.txt'].sort())
    expect(await readdir(store.dir)).toEqual([kept])
    expect(await readdir(store.tmpDir)).toEqual([])
  })
})
