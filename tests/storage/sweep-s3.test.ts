// The start-up sweep on a real S3 bucket aborts what a crash mid-write leaves (an unfinished
// multipart upload to a store key) once it is older than the sweep's minimum age, for stores
// without a lifecycle rule; tus uploads in progress under `uploads/` are never its to touch.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3'
import type { S3Config } from '../../src/config.ts'
import { s3Storage } from '../../src/storage/s3.ts'
import { s3Client } from '../../src/storage/s3-client.ts'
import { mediaStore, SWEEP_MIN_AGE_MS, sweep } from '../../src/storage/store.ts'
import { dropBucket, makeBucket, s3Available, unfinishedUploads } from '../../testkit/s3.ts'
import { describeSkipIf } from '../../testkit/skip.ts'

const DAY = 24 * 60 * 60 * 1000

describeSkipIf(s3Available().reason)('the sweep on s3', () => {
  let bucket: S3Config
  let dir: string

  beforeAll(async () => {
    bucket = await makeBucket()
    dir = mkdtempSync(join(tmpdir(), 'sweep-s3-'))
  })
  afterAll(async () => {
    if (bucket) await dropBucket(bucket)
    rmSync(dir, { recursive: true, force: true })
  })

  test('aborts a store key’s unfinished upload older than a day, never one under uploads/', async () => {
    const client = s3Client(bucket)
    const begin = async (Key: string) => {
      const made = await client.send(
        new CreateMultipartUploadCommand({ Bucket: bucket.bucket, Key }),
      )
      await client.send(
        new UploadPartCommand({
          Bucket: bucket.bucket,
          Key,
          UploadId: made.UploadId,
          PartNumber: 1,
          Body: new Uint8Array(1024),
        }),
      )
    }
    const master = `masters/${'a'.repeat(32)}.mp4`
    const segment = `streams/${'b'.repeat(32)}/720p/seg_000.m4s`
    const tus = `uploads/${'c'.repeat(32)}`
    try {
      for (const key of [master, segment, tus]) await begin(key)
    } finally {
      client.destroy()
    }
    const store = mediaStore(dir, s3Storage(bucket))
    expect(SWEEP_MIN_AGE_MS.s3).toBe(DAY)

    // Just begun: younger than a day, so another server may still be writing it.
    await sweep(store, new Set())
    expect((await unfinishedUploads(bucket)).sort()).toEqual([master, segment, tus].sort())

    // A day and a minute later, the store's own are aborted; the tus upload is left to tus.
    await sweep(store, new Set(), { now: Date.now() + DAY + 60_000 })
    expect(await unfinishedUploads(bucket)).toEqual([tus])
  })
})
