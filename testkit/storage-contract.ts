// What every storage engine promises, run against each real engine by its own test file.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Storage } from '../src/storage/types.ts'

const hex = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
const bytes = (n: number) => {
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = (i * 31 + 7) & 0xff
  return out
}
const text = async (body: ReadableStream<Uint8Array>) =>
  new Uint8Array(await new Response(body).arrayBuffer())
const streamOf = (data: Uint8Array<ArrayBuffer>) => new Response(data).body!

async function keysUnder(storage: Storage, prefix: string) {
  const keys: string[] = []
  for await (const item of storage.list(prefix)) keys.push(item.key)
  return keys.sort()
}

/** The engine's promises; `open` makes a fresh, empty store and `close` removes it. */
export function storageContract(
  name: string,
  open: () => Promise<Storage>,
  close: (storage: Storage) => Promise<void>,
) {
  describe(`${name}: the storage contract`, () => {
    let storage: Storage
    let scratch: string
    beforeAll(async () => {
      storage = await open()
      scratch = await mkdtemp(join(tmpdir(), 'storage-contract-'))
    })
    afterAll(async () => {
      await close(storage)
      await rm(scratch, { recursive: true, force: true })
    })

    test('a written stream reads back whole and by range, with its size', async () => {
      const key = `masters/${hex()}.mp4`
      const data = bytes(300_000)
      expect(await storage.write(key, streamOf(data), { type: 'video/mp4' })).toEqual({
        size: data.length,
      })
      const whole = await storage.read(key)
      expect(whole?.size).toBe(data.length)
      expect(await text(whole!.body)).toEqual(data)
      const part = await storage.read(key, { start: 1000, end: 1999 })
      expect(part?.size).toBe(data.length)
      expect(await text(part!.body)).toEqual(data.subarray(1000, 2000))
      const info = await storage.stat(key)
      expect(info?.size).toBe(data.length)
      expect(info?.etag).toMatch(/^".+"$/)
      expect(Math.abs(info!.modified.getTime() - Date.now())).toBeLessThan(120_000)
    })

    test('a local file is taken in whole; the source stays', async () => {
      const source = join(scratch, 'upload.bin')
      const data = bytes(70_000)
      await writeFile(source, data)
      const key = `images/${hex()}.jpg`
      await storage.write(key, { path: source }, { type: 'image/jpeg' })
      expect(await text((await storage.read(key))!.body)).toEqual(data)
      expect(await Bun.file(source).exists()).toBe(true)
    })

    test('missing keys: read and stat say so, delete does not mind', async () => {
      const key = `images/${hex()}.png`
      expect(await storage.read(key)).toBeUndefined()
      expect(await storage.stat(key)).toBeUndefined()
      await storage.delete([key])
    })

    test('a run folder lists under its prefix and is removed key by key', async () => {
      const folder = hex()
      const keys = [
        `streams/${folder}/master.m3u8`,
        `streams/${folder}/video.mp4`,
        `streams/${folder}/360p/index.m3u8`,
        `streams/${folder}/360p/seg_000.m4s`,
      ]
      for (const key of keys) await storage.write(key, streamOf(bytes(100)), { type: 'x' })
      const other = `streams/${hex()}/master.m3u8`
      await storage.write(other, streamOf(bytes(10)), { type: 'x' })
      expect(await keysUnder(storage, `streams/${folder}/`)).toEqual([...keys].sort())
      expect(await keysUnder(storage, 'streams/')).toEqual([...keys, other].sort())
      await storage.delete(keys)
      expect(await keysUnder(storage, `streams/${folder}/`)).toEqual([])
      expect(await keysUnder(storage, 'streams/')).toEqual([other])
    })

    test('lists masters and images apart', async () => {
      const master = `masters/${hex()}.webm`
      const image = `images/${hex()}.svg`
      await storage.write(master, streamOf(bytes(5)), { type: 'video/webm' })
      await storage.write(image, streamOf(bytes(5)), { type: 'image/svg+xml' })
      expect(await keysUnder(storage, 'masters/')).toContain(master)
      expect(await keysUnder(storage, 'masters/')).not.toContain(image)
      expect(await keysUnder(storage, 'images/')).toContain(image)
    })

    test('copy makes a second object with the same bytes', async () => {
      const from = `masters/${hex()}.mp4`
      const to = `masters/${hex()}.mp4`
      const data = bytes(12_345)
      await storage.write(from, streamOf(data), { type: 'video/mp4' })
      await storage.copy(from, to)
      expect(await text((await storage.read(to))!.body)).toEqual(data)
      await storage.delete([from])
      expect(await text((await storage.read(to))!.body)).toEqual(data)
    })

    test('keys the store could not have made are refused', async () => {
      for (const key of ['masters/../x.mp4', 'streams/abc/x', 'other/x', 'masters/a.exe']) {
        await expect(storage.write(key, streamOf(bytes(1)), { type: 'x' })).rejects.toThrow()
      }
    })

    test('check answers for a usable store', async () => {
      await storage.check()
    })
  })
}
