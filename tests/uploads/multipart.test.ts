import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { kindAccepts } from '../../src/contract/file-rules.ts'
import { type FileRule, receiveMultipart } from '../../src/uploads/multipart.ts'
import { sniff } from '../../src/uploads/sniff.ts'
import { type Fixtures, fixtures } from '../../testkit/media.ts'
import { multipartStream } from '../../testkit/multipart-stream.ts'

let dir: string
let f: Fixtures
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'multipart-'))
  f = await fixtures()
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const videoRule: FileRule = {
  maxBytes: 1_000_000,
  tooLarge: 'Video too big',
  checkHead: (head) => (kindAccepts('video', sniff(head)) ? undefined : 'Not a video'),
}
const imageRule: FileRule = {
  maxBytes: 2_000,
  tooLarge: 'Image too big',
  checkHead: (head) => (kindAccepts('thumbnail', sniff(head)) ? undefined : 'Not an image'),
}
const options = () => ({ dir, files: { video: videoRule, thumbnail: imageRule } })

const post = (body: BodyInit, headers?: HeadersInit) =>
  new Request('http://test/upload', { method: 'POST', body, headers })

const sha = async (path: string) =>
  new Bun.CryptoHasher('sha256').update(await Bun.file(path).arrayBuffer()).digest('hex')

const scratchIsEmpty = async () => expect(await readdir(dir)).toEqual([])

describe('receiveMultipart', () => {
  test('fields and files land on disk byte for byte, under generated names', async () => {
    const form = new FormData()
    form.append('title', 'Hello')
    form.append('video', Bun.file(f.mp4), '../../etc/passwd')
    form.append('description', 'x'.repeat(1000))
    const result = await receiveMultipart(post(form), options())
    if (!result.ok) throw new Error(result.failure.message)
    expect(result.fields).toEqual({ title: 'Hello', description: 'x'.repeat(1000) })
    const video = result.files.video!
    expect(video.path.startsWith(dir)).toBe(true)
    expect(video.path).not.toContain('passwd')
    expect(video.size).toBe(Bun.file(f.mp4).size)
    expect(await sha(video.path)).toBe(await sha(f.mp4))
    expect(result.files.thumbnail).toBeUndefined()
    await result.cleanup()
    await scratchIsEmpty()
  })

  test('a file over its limit is refused with 413 and its field; nothing stays on disk', async () => {
    const form = new FormData()
    form.append(
      'thumbnail',
      new Blob([await Bun.file(f.png).bytes(), new Uint8Array(5000)]),
      'a.png',
    )
    const result = await receiveMultipart(post(form), options())
    expect(result).toEqual({
      ok: false,
      failure: { status: 413, message: 'Image too big', field: 'thumbnail' },
    })
    await scratchIsEmpty()
  })

  test('a renamed text file is refused with 415 from its first bytes', async () => {
    const form = new FormData()
    form.append('video', Bun.file(f.fakeMp4), 'clip.mp4')
    const result = await receiveMultipart(post(form), options())
    expect(result).toEqual({
      ok: false,
      failure: { status: 415, message: 'Not a video', field: 'video' },
    })
    await scratchIsEmpty()
  })

  test('a file shorter than the sniff window is still checked', async () => {
    const form = new FormData()
    form.append('thumbnail', new Blob(['<html>']), 'x.png')
    const result = await receiveMultipart(post(form), options())
    expect(result.ok ? 0 : result.failure.status).toBe(415)
  })

  test('an empty file input means absent; unknown file fields are discarded', async () => {
    const form = new FormData()
    form.append('video', new Blob([]), '')
    form.append('other', Bun.file(f.mp4), 'x.mp4')
    form.append('title', 't')
    const result = await receiveMultipart(post(form), options())
    if (!result.ok) throw new Error(result.failure.message)
    expect(result.files).toEqual({})
    expect(result.fields).toEqual({ title: 't' })
    await result.cleanup()
  })

  test('not multipart, no boundary, or garbage: 400', async () => {
    const json = await receiveMultipart(
      post('{}', { 'content-type': 'application/json' }),
      options(),
    )
    expect(json.ok ? 0 : json.failure.status).toBe(400)
    const noBoundary = await receiveMultipart(
      post('x', { 'content-type': 'multipart/form-data' }),
      options(),
    )
    expect(noBoundary.ok ? 0 : noBoundary.failure.status).toBe(400)
    const truncated = await receiveMultipart(
      post('--b\r\ncontent-disposition: form-data; name="video"; filename="a"\r\n\r\nabc', {
        'content-type': 'multipart/form-data; boundary=b',
      }),
      options(),
    )
    expect(truncated.ok ? 0 : truncated.failure.status).toBe(400)
    await scratchIsEmpty()
  })

  test('a body that ends inside a discarded part: 400, and no stray error escapes', async () => {
    const stray: unknown[] = []
    const onError = (error: unknown) => stray.push(error)
    process.on('uncaughtException', onError)
    try {
      // An unknown file field, a file input left empty, and a repeated field: all are read and
      // discarded, and the body ends inside each of them.
      for (const part of [
        'name="other"; filename="x.mp4"',
        'name="video"; filename=""',
        'name="video"; filename="a.mp4"\r\n\r\nabc\r\n--b\r\ncontent-disposition: form-data; name="video"; filename="b.mp4"',
      ]) {
        const result = await receiveMultipart(
          post(`--b\r\ncontent-disposition: form-data; ${part}\r\n\r\nabc`, {
            'content-type': 'multipart/form-data; boundary=b',
          }),
          options(),
        )
        expect(result.ok ? 0 : result.failure.status).toBe(400)
      }
      await Bun.sleep(20)
    } finally {
      process.off('uncaughtException', onError)
    }
    expect(stray).toEqual([])
    await scratchIsEmpty()
  })

  test('a declared length that cannot fit is refused before reading', async () => {
    let pulled = 0
    const body = new ReadableStream({
      pull(controller) {
        pulled++
        controller.enqueue(new Uint8Array(1024))
      },
    })
    const result = await receiveMultipart(
      post(body, {
        'content-type': 'multipart/form-data; boundary=b',
        'content-length': String(50_000_000),
      }),
      options(),
    )
    expect(result.ok ? 0 : result.failure.status).toBe(413)
    expect(pulled).toBeLessThanOrEqual(1)
  })

  test('too many fields: 400', async () => {
    const form = new FormData()
    for (let i = 0; i < 30; i++) form.append(`f${i}`, 'v')
    const result = await receiveMultipart(post(form), options())
    expect(result.ok ? 0 : result.failure.status).toBe(400)
  })
})

describe('receiveMultipart streams', () => {
  test('several hundred MB pass through with flat memory', async () => {
    const head = (await Bun.file(f.mp4).bytes()).subarray(0, 4096)
    const size = 300 * 1024 * 1024
    const { body, contentType } = multipartStream([
      { name: 'title', value: 'Big' },
      { name: 'video', filename: 'big.mp4', head, size },
    ])
    Bun.gc(true)
    const before = process.memoryUsage.rss()
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss())
    }, 20)
    const result = await receiveMultipart(post(body, { 'content-type': contentType }), {
      dir,
      files: { video: { ...videoRule, maxBytes: size } },
    })
    clearInterval(sampler)
    if (!result.ok) throw new Error(result.failure.message)
    expect(result.files.video!.size).toBe(size)
    expect(Bun.file(result.files.video!.path).size).toBe(size)
    // Buffering the body would grow RSS by ~300 MB; streaming stays within a few chunk buffers.
    console.log(
      `RSS growth while 300 MB streamed through receiveMultipart: ${((peak - before) / 1e6).toFixed(1)} MB`,
    )
    expect(peak - before).toBeLessThan(100 * 1024 * 1024)
    await result.cleanup()
  })

  test('a file passing its limit stops the read early', async () => {
    const head = (await Bun.file(f.mp4).bytes()).subarray(0, 4096)
    const { body, contentType } = multipartStream([
      { name: 'video', filename: 'big.mp4', head, size: 200 * 1024 * 1024 },
    ])
    let read = 0
    const counting = body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          read += chunk.length
          controller.enqueue(chunk)
        },
      }),
    )
    const result = await receiveMultipart(
      post(counting, { 'content-type': contentType }),
      options(),
    )
    expect(result.ok ? 0 : result.failure.status).toBe(413)
    expect(read).toBeLessThan(20 * 1024 * 1024)
    await scratchIsEmpty()
  })
})
