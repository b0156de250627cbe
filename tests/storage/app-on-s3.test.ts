// The whole app on a real S3 bucket: uploads (multipart and tus) land in the bucket, /media serves
// them from it with Range, the media worker reads the master from it and stores every output
// there, and deleting a work removes its objects. Nothing of the media stays on the local disk.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand, DeleteBucketCommand } from '@aws-sdk/client-s3'
import type { S3Config } from '../../src/config.ts'
import { s3Client } from '../../src/storage/s3-client.ts'
import { fixtures, plainMediaUrl } from '../../testkit/media.ts'
import {
  makeClip,
  settled,
  uploadVideo,
  type VideoAnswer,
  watchVideo,
} from '../../testkit/pipeline.ts'
import { bucketKeys, dropBucket, makeBucket, s3Available, s3Env } from '../../testkit/s3.ts'
import { describeSkipIf } from '../../testkit/skip.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const keyOfUrl = (url: string) => {
  const name = plainMediaUrl(url).slice('/media/'.length)
  return name.includes('/')
    ? `streams/${name}`
    : /\.(mp4|webm|ogv)$/.test(name)
      ? `masters/${name}`
      : `images/${name}`
}

describeSkipIf(s3Available().reason)('the app on an S3 bucket', () => {
  let bucket: S3Config
  let t: TestApp
  let token: string
  let dir: string
  let clip: string
  let made: VideoAnswer
  const fetch = (path: string, init?: RequestInit) => t.fetch(path, init)

  beforeAll(async () => {
    bucket = await makeBucket()
    dir = mkdtempSync(join(tmpdir(), 'app-on-s3-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html lang="en"><title>Studio</title>')
    t = await startTestApp({
      ...s3Env(bucket),
      WEB_DIST: dir,
      MEDIA_WORKERS: '1',
      MEDIA_POLL_SECONDS: '1',
    })
    token = await t.login()
    clip = await makeClip(dir, 'clip.mp4', { seconds: 2, width: 320, height: 180 })
  }, 120_000)
  afterAll(async () => {
    await t?.stop()
    if (bucket) await dropBucket(bucket)
    rmSync(dir, { recursive: true, force: true })
  })

  test('a multipart upload lands in the bucket and is served from it, whole and by range', async () => {
    made = await uploadVideo(fetch, token, clip, 'On the bucket')
    const keys = await bucketKeys(bucket)
    for (const url of [made.videoUrl, made.thumbnailUrl, made.brandLogoUrl]) {
      expect(keys).toContain(keyOfUrl(url))
    }
    const original = await Bun.file(clip).bytes()
    const whole = await t.fetch(made.videoUrl)
    expect(whole.status).toBe(200)
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(original))
    const part = await t.fetch(made.videoUrl, { headers: { range: 'bytes=100-1099' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${original.length}`)
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(original.subarray(100, 1100))
    const thumb = await t.fetch(made.thumbnailUrl)
    // Without MEDIA_PUBLIC_URL every file streams through the app, public ones too.
    expect([thumb.status, thumb.headers.get('location')]).toEqual([200, null])
    expect(new Uint8Array(await thumb.arrayBuffer())).toEqual(
      await Bun.file((await fixtures()).jpg).bytes(),
    )
    // The local media folder holds nothing: the bucket is the only home of the files.
    const local = await readdir(join(t.dataDir, 'media')).catch(() => [] as string[])
    expect(local).toEqual([])
  })

  test('the worker reads the master from the bucket and stores every output there', async () => {
    const { video } = await watchVideo(fetch, token, made._id, settled, { timeoutMs: 240_000 })
    expect(video.status).toBe('ready')
    const folder = plainMediaUrl(video.hlsUrl!).split('/')[2]!
    const outputs = (await bucketKeys(bucket)).filter((key) => key.startsWith(`streams/${folder}/`))
    expect(outputs).toContain(`streams/${folder}/master.m3u8`)
    expect(outputs).toContain(`streams/${folder}/video.mp4`)
    expect(outputs.some((key) => key.endsWith('.m4s'))).toBe(true)
    const master = await t.fetch(video.hlsUrl!)
    expect(master.status).toBe(200)
    const playlist = await master.text()
    const rendition = playlist.split('\n').find((line) => line.endsWith('.m3u8'))!
    const base = video.hlsUrl!.slice(0, video.hlsUrl!.lastIndexOf('/') + 1)
    const index = await (await t.fetch(`${base}${rendition}`)).text()
    const segment = index.split('\n').find((line) => line.endsWith('.m4s'))!
    const dirOf = `${base}${rendition.slice(0, rendition.lastIndexOf('/') + 1)}`
    const seg = await t.fetch(`${dirOf}${segment}`, { headers: { range: 'bytes=0-9' } })
    expect(seg.status).toBe(206)
    expect(seg.headers.get('cache-control')).toContain('immutable')
    expect((await seg.arrayBuffer()).byteLength).toBe(10)
    // The job's scratch folder is gone once the outputs are stored.
    expect((await readdir(join(t.dataDir, 'tmp'))).filter((n) => n.startsWith('job-'))).toEqual([])
    made = video
  }, 300_000)

  test('a tus upload and videos.create put the files in the bucket', async () => {
    const f = await fixtures()
    const send = async (path: string, kind: string, type: string) => {
      const bytes = await Bun.file(path).bytes()
      const meta = `kind ${btoa(kind)},filename ${btoa(`${kind}.bin`)},filetype ${btoa(type)}`
      const auth = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' }
      const created = await t.fetch('/uploads/', {
        method: 'POST',
        headers: { ...auth, 'upload-length': String(bytes.length), 'upload-metadata': meta },
      })
      expect(created.status).toBe(201)
      const location = new URL(created.headers.get('location')!, 'http://localhost').pathname
      const patched = await t.fetch(location, {
        method: 'PATCH',
        headers: {
          ...auth,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        body: bytes,
      })
      expect(patched.status).toBe(204)
      return location.split('/').at(-1)!
    }
    const uploads = {
      video: await send(clip, 'video', 'video/mp4'),
      thumbnail: await send(f.jpg, 'thumbnail', 'image/jpeg'),
      brandLogo: await send(f.png, 'brandLogo', 'image/png'),
    }
    const res = await t.call('POST', '/trpc/videos.create', {
      token,
      body: { title: 'Through tus', description: '', uploads },
    })
    expect(res.status).toBe(200)
    // biome-ignore lint/suspicious/noExplicitAny: a tRPC answer read by path
    const video = (res.json as any).result.data.video as VideoAnswer
    expect(await bucketKeys(bucket)).toContain(keyOfUrl(video.videoUrl))
    const served = await t.fetch(video.videoUrl)
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(
      sha256(await Bun.file(clip).bytes()),
    )
    const removed = await t.call('DELETE', `/api/videos/${video._id}`, { token })
    expect(removed.status).toBe(200)
  })

  test('deleting a work removes its master, images and streams from the bucket', async () => {
    const before = await bucketKeys(bucket)
    const folder = plainMediaUrl(made.hlsUrl!).split('/')[2]!
    expect(before.some((key) => key.startsWith(`streams/${folder}/`))).toBe(true)
    const removed = await t.call('DELETE', `/api/videos/${made._id}`, { token })
    expect(removed.status).toBe(200)
    const deadline = Date.now() + 10_000
    let after = await bucketKeys(bucket)
    while (after.length > 0 && Date.now() < deadline) {
      await Bun.sleep(200)
      after = await bucketKeys(bucket)
    }
    expect(after).toEqual([])
    expect((await t.fetch(made.thumbnailUrl)).status).toBe(404)
  })

  test('/healthz names the storage while the bucket is gone, and is well again once it is back', async () => {
    const health = async () => {
      const res = await t.fetch('/healthz')
      return { status: res.status, body: (await res.json()) as HealthBody }
    }
    expect((await health()).status).toBe(200)
    const client = s3Client(bucket)
    try {
      await client.send(new DeleteBucketCommand({ Bucket: bucket.bucket }))
      const gone = await health()
      expect(gone.status).toBe(503)
      expect(gone.body.failing).toEqual(['storage'])
      expect(gone.body.checks.storage).toMatchObject({
        status: 'error',
        error: 'failed: NO_SUCH_BUCKET',
      })
      expect(JSON.stringify(gone.body)).not.toContain(bucket.bucket)
    } finally {
      await client.send(new CreateBucketCommand({ Bucket: bucket.bucket }))
      client.destroy()
    }
    expect((await health()).status).toBe(200)
  })
})

type HealthBody = {
  failing?: string[]
  checks: Record<string, { status: string; error?: string }>
}
