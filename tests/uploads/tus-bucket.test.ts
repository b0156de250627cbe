// tus uploads kept in the bucket (S3_BUCKET set), through the whole app on a real S3 server: an
// upload in several PATCHes resumes from the offset HEAD gives, becomes a video by a copy inside
// the bucket and leaves nothing under uploads/; an expired one goes with its multipart upload.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import type { S3Config } from '../../src/config.ts'
import { s3Client } from '../../src/storage/s3-client.ts'
import { fixtures } from '../../testkit/media.ts'
import {
  bucketKeys,
  dropBucket,
  makeBucket,
  s3Available,
  s3Env,
  unfinishedUploads,
} from '../../testkit/s3.ts'
import { describeSkipIf } from '../../testkit/skip.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

const MiB = 1024 * 1024
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const inUploads = async (bucket: S3Config) =>
  (await bucketKeys(bucket)).filter((key) => key.startsWith('uploads/'))

describeSkipIf(s3Available().reason)('tus uploads in the bucket', () => {
  let bucket: S3Config
  let t: TestApp
  let token: string
  let video: Uint8Array<ArrayBuffer>

  const tus = (path: string, method: string, headers: Record<string, string>, body?: BodyInit) =>
    t.fetch(path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', ...headers },
      body,
    })
  const create = async (length: number, kind: string) => {
    const meta = `kind ${btoa(kind)},filename ${btoa(`${kind}.bin`)}`
    const res = await tus('/uploads/', 'POST', {
      'upload-length': String(length),
      'upload-metadata': meta,
    })
    expect(res.status).toBe(201)
    return new URL(res.headers.get('location')!, 'http://localhost').pathname
  }
  const patch = (path: string, offset: number, bytes: Uint8Array<ArrayBuffer>) =>
    tus(
      path,
      'PATCH',
      { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      bytes,
    )
  const offsetOf = async (path: string) => {
    const res = await tus(path, 'HEAD', {})
    expect(res.status).toBe(200)
    return Number(res.headers.get('upload-offset'))
  }
  const whole = async (path: string, bytes: Uint8Array<ArrayBuffer>) => {
    expect((await patch(path, 0, bytes)).status).toBe(204)
    return path.split('/').at(-1)!
  }

  beforeAll(async () => {
    bucket = await makeBucket()
    t = await startTestApp(s3Env(bucket))
    token = await t.login()
    const clip = await Bun.file((await fixtures()).mp4).bytes()
    // 19.5 MiB: three PATCHes of 6 MiB (each a whole part) and a short last one.
    const padding = crypto.getRandomValues(new Uint8Array(65536))
    video = new Uint8Array(19.5 * MiB)
    for (let at = 0; at < video.length; at += padding.length) video.set(padding, at)
    video.set(clip, 0)
  }, 120_000)
  afterAll(async () => {
    await t?.stop()
    if (bucket) await dropBucket(bucket)
  })

  test('an upload in four PATCHes resumes from HEAD, becomes a video served byte-identical, and leaves nothing under uploads/', async () => {
    const f = await fixtures()
    const path = await create(video.length, 'video')
    const cuts = [0, 6 * MiB, 12 * MiB, 18 * MiB, video.length]
    for (let i = 0; i + 1 < cuts.length; i++) {
      // The offset to send comes from HEAD, as a client resuming would ask.
      const offset = await offsetOf(path)
      expect(offset).toBe(cuts[i]!)
      const res = await patch(path, offset, video.subarray(offset, cuts[i + 1]))
      expect(res.status).toBe(204)
      expect(Number(res.headers.get('upload-offset'))).toBe(cuts[i + 1]!)
    }
    expect(await offsetOf(path)).toBe(video.length)
    // Nothing of it on this server's disk: the bucket holds the upload.
    expect(await readdir(join(t.dataDir, 'uploads')).catch(() => [])).toEqual([])
    const jpg = await Bun.file(f.jpg).bytes()
    const png = await Bun.file(f.png).bytes()
    const uploads = {
      video: path.split('/').at(-1)!,
      thumbnail: await whole(await create(jpg.length, 'thumbnail'), jpg),
      brandLogo: await whole(await create(png.length, 'brandLogo'), png),
    }
    const res = await t.call('POST', '/trpc/videos.create', {
      token,
      body: { title: 'Through the bucket', description: '', uploads },
    })
    expect(res.status).toBe(200)
    // biome-ignore lint/suspicious/noExplicitAny: a tRPC answer read by path
    const made = (res.json as any).result.data.video as { videoUrl: string; thumbnailUrl: string }
    const served = await t.fetch(made.videoUrl)
    expect(served.status).toBe(200)
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(video))
    const thumb = await t.fetch(made.thumbnailUrl)
    expect(sha256(new Uint8Array(await thumb.arrayBuffer()))).toBe(sha256(jpg))
    expect(await inUploads(bucket)).toEqual([])
    expect(await unfinishedUploads(bucket)).toEqual([])
    // A spent upload is gone for its client too.
    expect((await tus(path, 'HEAD', {})).status).toBe(404)
  }, 120_000)

  test('a PATCH shorter than a part is kept as the tail and counted by HEAD', async () => {
    const path = await create(8 * MiB, 'video')
    expect((await patch(path, 0, video.subarray(0, 2 * MiB))).status).toBe(204)
    expect(await offsetOf(path)).toBe(2 * MiB)
    expect((await patch(path, 2 * MiB, video.subarray(2 * MiB, 8 * MiB))).status).toBe(204)
    expect(await offsetOf(path)).toBe(8 * MiB)
    // Once whole, an empty PATCH changes nothing, and a byte more is refused.
    const again = await patch(path, 8 * MiB, new Uint8Array(0))
    expect(again.status).toBe(204)
    expect(again.headers.get('upload-offset')).toBe(String(8 * MiB))
    expect((await patch(path, 8 * MiB, new Uint8Array(1))).status).toBe(413)
    const client = s3Client(bucket)
    try {
      const id = path.split('/').at(-1)!
      const got = await client.send(
        new GetObjectCommand({ Bucket: bucket.bucket, Key: `uploads/${id}` }),
      )
      expect(sha256(await got.Body!.transformToByteArray())).toBe(
        sha256(video.subarray(0, 8 * MiB)),
      )
    } finally {
      client.destroy()
    }
    expect((await tus(path, 'DELETE', {})).status).toBe(204)
    expect(await inUploads(bucket)).toEqual([])
  }, 60_000)

  test('creation with upload and a length declared late work on the bucket; the owner and metadata stay', async () => {
    const png = await Bun.file((await fixtures()).png).bytes()
    const meta = `kind ${btoa('brandLogo')},filename ${btoa('logo.png')}`
    const withBody = await tus(
      '/uploads/',
      'POST',
      {
        'upload-length': String(png.length),
        'upload-metadata': meta,
        'content-type': 'application/offset+octet-stream',
      },
      png,
    )
    expect(withBody.status).toBe(201)
    expect(withBody.headers.get('upload-offset')).toBe(String(png.length))

    const deferred = await tus('/uploads/', 'POST', {
      'upload-defer-length': '1',
      'upload-metadata': meta,
    })
    expect(deferred.status).toBe(201)
    const path = new URL(deferred.headers.get('location')!, 'http://localhost').pathname
    const declared = await tus(
      path,
      'PATCH',
      {
        'upload-offset': '0',
        'upload-length': String(png.length),
        'content-type': 'application/offset+octet-stream',
      },
      png,
    )
    expect(declared.status).toBe(204)
    const head = await tus(path, 'HEAD', {})
    // Still its creator's (others get 404), with the metadata as it was sent.
    expect(head.status).toBe(200)
    expect(head.headers.get('upload-length')).toBe(String(png.length))
    expect(head.headers.get('upload-metadata')).toBe(meta)
    // No checksum extension on the bucket: not offered, and a PATCH asking for one is refused.
    const options = await t.fetch('/uploads/', { method: 'OPTIONS' })
    expect(options.headers.get('tus-extension')).not.toContain('checksum')
    expect(options.headers.has('tus-checksum-algorithm')).toBe(false)
    const sum = `sha1 ${Buffer.from(await crypto.subtle.digest('SHA-1', png)).toString('base64')}`
    const refused = await create(png.length, 'brandLogo')
    const checked = await tus(
      refused,
      'PATCH',
      {
        'upload-offset': '0',
        'upload-checksum': sum,
        'content-type': 'application/offset+octet-stream',
      },
      png,
    )
    expect(checked.status).toBe(400)
    const withBodyPath = new URL(withBody.headers.get('location')!, 'http://x').pathname
    for (const at of [path, withBodyPath, refused]) {
      expect((await tus(at, 'DELETE', {})).status).toBe(204)
    }
  }, 60_000)

  test('an expired upload is removed with its multipart upload, finished or not', async () => {
    const unfinished = await create(video.length, 'video')
    expect((await patch(unfinished, 0, video.subarray(0, 6 * MiB))).status).toBe(204)
    const png = await Bun.file((await fixtures()).png).bytes()
    const finished = await create(png.length, 'brandLogo')
    await whole(finished, png)
    expect(await unfinishedUploads(bucket)).toHaveLength(1)
    expect(await inUploads(bucket)).toHaveLength(3)
    const fresh = await create(png.length, 'brandLogo')
    // Two days old, as its record says.
    const client = s3Client(bucket)
    try {
      for (const path of [unfinished, finished]) {
        const Key = `uploads/${path.split('/').at(-1)}.info`
        const got = await client.send(new GetObjectCommand({ Bucket: bucket.bucket, Key }))
        const record = JSON.parse(await got.Body!.transformToString())
        record.creation_date = new Date(Date.now() - 48 * 3600_000).toISOString()
        await client.send(
          new PutObjectCommand({
            Bucket: bucket.bucket,
            Key,
            Body: JSON.stringify(record),
            Metadata: got.Metadata,
          }),
        )
      }
    } finally {
      client.destroy()
    }
    expect((await patch(unfinished, 6 * MiB, video.subarray(6 * MiB, 7 * MiB))).status).toBe(410)
    expect(await t.app.services.uploads.tus.cleanUp()).toBeGreaterThanOrEqual(2)
    // The fresh upload, not yet expired, is all that is left.
    const freshId = fresh.split('/').at(-1)!
    expect(await unfinishedUploads(bucket)).toEqual([`uploads/${freshId}`])
    expect(await inUploads(bucket)).toEqual([`uploads/${freshId}.info`])
    for (const path of [unfinished, finished])
      expect((await tus(path, 'HEAD', {})).status).toBe(404)
    expect(await offsetOf(fresh)).toBe(0)
  }, 60_000)
})
