// The tRPC procedures with tus uploads, and the tus endpoint itself, through the real app.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { TRPCError } from '@trpc/server'
import type { S3Config } from '../../src/config.ts'
import { limits } from '../../src/contract/limits.ts'
import { msg } from '../../src/contract/messages.ts'
import { s3Client } from '../../src/storage/s3-client.ts'
import { callerAs } from '../../testkit/caller.ts'
import { bucketKeys, unfinishedUploads } from '../../testkit/s3.ts'
import { testSkipIf } from '../../testkit/skip.ts'
import { diskOnly, startTestApp, type TestApp } from '../../testkit/test-app.ts'
import {
  bytesOf,
  type Fixtures,
  fixtures,
  mediaAndRows,
  tusVia,
  uploadTrio,
} from '../../testkit/videos.ts'

let t: TestApp
let f: Fixtures
let token: string

beforeAll(async () => {
  t = await startTestApp()
  f = await fixtures()
}, 120_000)
afterAll(() => t.stop())
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

const caller = (as: string | null = token) => callerAs(t.app.services, as)

/** tus uploads kept in the app's bucket (under uploads/): their names there, and their age. */
function uploadRecords(s3: S3Config) {
  return {
    names: async () =>
      (await bucketKeys(s3))
        .filter((key) => key.startsWith('uploads/'))
        .map((key) => key.slice('uploads/'.length)),
    async age(id: string, created: string) {
      const client = s3Client(s3)
      const Key = `uploads/${id}.info`
      try {
        const got = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key }))
        const record = JSON.parse(await got.Body!.transformToString())
        record.creation_date = created
        const Body = JSON.stringify(record)
        await client.send(
          new PutObjectCommand({ Bucket: s3.bucket, Key, Body, Metadata: got.Metadata }),
        )
      } finally {
        client.destroy()
      }
    },
  }
}

/** The thrown error's HTTP status, message and field, as the web app reads them. */
async function refusal(work: Promise<unknown>) {
  try {
    await work
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error
    const { toPublicError } = await import('../../src/errors.ts')
    return toPublicError(error)
  }
  throw new Error('expected a refusal')
}

describe('videos.create from tus uploads', () => {
  test('creates the video and consumes the uploads', async () => {
    const uploads = await uploadTrio(t, token, f)
    const { video } = await (await caller()).videos.create({ title: 'Via tus', uploads })
    expect(video.title).toBe('Via tus')
    const served = await t.fetch(video.videoUrl)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(await bytesOf(f.mp4))
    expect((await tusVia(t, token).head(`/uploads/${uploads.video}`)).status).toBe(404)
    expect(await readdir(join(t.dataDir, 'uploads'))).toEqual([])
    const again = await refusal((await caller()).videos.create({ title: 'Reuse', uploads }))
    expect(again).toMatchObject({ status: 400, field: 'video' })
  })

  test('wrong kinds by content: 415 with the kind’s message and nothing moved', async () => {
    const tus = tusVia(t, token)
    const uploads = await uploadTrio(t, token, f)
    // A real PNG uploaded as a thumbnail, then offered as the video.
    const swapped = { ...uploads, video: uploads.thumbnail, thumbnail: uploads.video }
    expect(
      await refusal((await caller()).videos.create({ title: 'Swapped', uploads: swapped })),
    ).toEqual({
      status: 415,
      message: msg.videoType,
      field: 'video',
    })
    expect(await mediaAndRows(t)).toEqual({ files: [], keys: [] })
    expect((await tus.head(`/uploads/${uploads.video}`)).status).toBe(200)
  })

  test("an incomplete upload, someone else's upload, or a made-up id: 400 on the file's field", async () => {
    const tus = tusVia(t, token)
    const uploads = await uploadTrio(t, token, f)
    const partial = await tus.create(1000, 'video')
    const partialId = partial.headers.get('location')!.split('/').pop()!
    const other = await t.createAdmin('other_admin', token)
    const theirs = await tusVia(t, other.token).upload(await bytesOf(f.mp4), 'video')
    for (const video of [partialId, theirs, 'f'.repeat(32)]) {
      const res = await refusal(
        (await caller()).videos.create({ title: 'X', uploads: { ...uploads, video } }),
      )
      expect(res).toMatchObject({ status: 400, field: 'video' })
    }
    const traversal = { ...uploads, video: '../../etc/passwd' }
    expect(
      (await refusal((await caller()).videos.create({ title: 'X', uploads: traversal }))).status,
    ).toBe(400)
  })

  test('two creates racing for one title: one wins, the loser keeps its uploads', async () => {
    const a = await uploadTrio(t, token, f)
    const b = await uploadTrio(t, token, f)
    const c = await caller()
    const results = await Promise.allSettled([
      c.videos.create({ title: 'Race', uploads: a }),
      c.videos.create({ title: 'race', uploads: b }),
    ])
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(1)
    expect(await refusal(Promise.reject(lost!.reason))).toMatchObject({
      status: 409,
      message: msg.titleTaken,
      field: 'title',
    })
    const loser = results[0]!.status === 'rejected' ? a : b
    const retry = await c.videos.create({ title: 'Race two', uploads: loser })
    expect(retry.video.title).toBe('Race two')
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
  })

  test('unauthenticated calls: 401', async () => {
    const anon = await caller(null)
    expect((await refusal(anon.videos.list({}))).status).toBe(401)
    expect((await refusal(anon.videos.stats())).status).toBe(401)
    expect((await anon.videos.publicList()).videos).toEqual([])
  })
})

describe('videos.update, stats, checkTitle', () => {
  test('replacing files with tus uploads; old files removed after the commit', async () => {
    const c = await caller()
    const { video } = await c.videos.create({
      title: 'Replace me',
      uploads: await uploadTrio(t, token, f),
    })
    const thumb = await tusVia(t, token).upload(await bytesOf(f.webp), 'thumbnail')
    const { video: after } = await c.videos.update({
      id: video._id,
      description: 'new',
      uploads: { thumbnail: thumb },
    })
    expect(after.thumbnailUrl).not.toBe(video.thumbnailUrl)
    expect(after.thumbnailUrl).toMatch(/\.webp$/)
    expect(after.description).toBe('new')
    expect((await t.fetch(video.thumbnailUrl)).status).toBe(404)
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
  })

  test('brand logo over 5 MB is refused on edit', async () => {
    const c = await caller()
    const { video } = await c.videos.create({
      title: 'Logo edit',
      uploads: await uploadTrio(t, token, f),
    })
    const big = new Uint8Array(6_000_000)
    big.set(await bytesOf(f.png))
    const logo = await tusVia(t, token).upload(big, 'brandLogo')
    expect(await refusal(c.videos.update({ id: video._id, uploads: { brandLogo: logo } }))).toEqual(
      {
        status: 413,
        message: msg.brandLogoSizeEdit,
        field: 'brandLogo',
      },
    )
  })

  test('stats count; checkTitle ignores the video being edited', async () => {
    const c = await caller()
    const { video } = await c.videos.create({
      title: 'Counted',
      uploads: await uploadTrio(t, token, f),
    })
    expect(await c.videos.stats()).toEqual({ totalVideos: 1 })
    expect(await c.videos.checkTitle({ title: 'COUNTED' })).toEqual({ available: false })
    expect(await c.videos.checkTitle({ title: 'counted', excludeId: video._id })).toEqual({
      available: true,
    })
  })
})

describe('the tus endpoint in the app', () => {
  test('no session: 401; OPTIONS passes for the preflight', async () => {
    expect((await tusVia(t, null).create(10, 'video')).status).toBe(401)
    expect((await tusVia(t, 'not-a-real-token').create(10, 'video')).status).toBe(401)
    const preflight = await t.fetch('/uploads/', {
      method: 'OPTIONS',
      headers: { Origin: 'http://elsewhere', 'Access-Control-Request-Method': 'POST' },
    })
    expect(preflight.status).toBe(204)
  })

  test('foreign origins get no CORS headers from the tus endpoint', async () => {
    const cors = (res: Response) =>
      [...res.headers.keys()].filter((name) => name.startsWith('access-control-'))
    const preflight = await t.fetch('/uploads/', {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'PATCH' },
    })
    expect(cors(preflight)).toEqual([])
    const created = await tusVia(t, token).create(10, 'video', { Origin: 'https://evil.example' })
    expect(created.status).toBe(201)
    expect(cors(created)).toEqual([])
  })

  test('uploads expire after 24 h, finished or not, from tus or from a multipart body', async () => {
    const dir = join(t.dataDir, 'uploads')
    const tus = tusVia(t, token)
    const finished = await tus.upload(await bytesOf(f.jpg), 'thumbnail')
    const unfinished = (await tus.create(1000, 'video')).headers.get('location')!.split('/').pop()!
    // What the REST multipart path leaves when the process dies inside videos.create.
    const part = join(t.dataDir, 'tmp', 'left-by-a-crash')
    await Bun.write(part, await bytesOf(f.mp4))
    const me = (await t.call('GET', '/api/auth/me', { token })).json.data.user._id as string
    const registered = await t.app.services.uploads.tus.register(part, 'video', me)
    const fresh = await tus.upload(await bytesOf(f.png), 'brandLogo')
    // A day and a minute pass for the first three: their recorded creation moves back. tus
    // uploads are in the bucket when the app has one; a registered multipart part is on disk.
    const dayAgo = new Date(Date.now() - 24 * 3600_000 - 60_000).toISOString()
    const bucket = t.config.s3 && uploadRecords(t.config.s3)
    for (const id of [finished, unfinished]) {
      if (bucket) await bucket.age(id, dayAgo)
    }
    for (const id of bucket ? [registered] : [finished, unfinished, registered]) {
      const info = JSON.parse(await Bun.file(join(dir, `${id}.json`)).text())
      info.creation_date = dayAgo
      await Bun.write(join(dir, `${id}.json`), JSON.stringify(info))
    }
    // Expired uploads are refused at once, before any clean-up runs.
    const c = await caller()
    const late = await refusal(
      c.videos.create({
        title: 'Too late',
        uploads: { video: registered, thumbnail: finished, brandLogo: fresh },
      }),
    )
    expect(late).toMatchObject({ status: 400, field: 'video' })
    // The start-up clean-up removes them; the fresh one stays.
    await t.restart()
    const left = bucket ? [...(await readdir(dir)), ...(await bucket.names())] : await readdir(dir)
    for (const id of [finished, unfinished, registered]) {
      expect(left.filter((name) => name.startsWith(id))).toEqual([])
    }
    const freshOnes = bucket ? [fresh, `${fresh}.info`] : [fresh, `${fresh}.json`]
    expect(left.filter((name) => name.startsWith(fresh)).sort()).toEqual(freshOnes)
    // The unfinished one's multipart upload is aborted (other tests' uploads may still be open).
    if (bucket) expect(await unfinishedUploads(t.config.s3!)).not.toContain(`uploads/${unfinished}`)
  })

  test('over-size Upload-Length: 413 and nothing written', async () => {
    const before = await readdir(join(t.dataDir, 'uploads'))
    const res = await tusVia(t, token).create(limits.videoBytes + 1, 'video')
    expect(res.status).toBe(413)
    expect(await res.text()).toBe(msg.videoSize)
    expect(await readdir(join(t.dataDir, 'uploads'))).toEqual(before)
  })

  test('a renamed HTML file as a thumbnail: 415', async () => {
    await expect(tusVia(t, token).upload(await bytesOf(f.fakePng), 'thumbnail')).rejects.toThrow(
      'patch: 415',
    )
  })

  test('ids with .., %2F or an absolute path reach nothing; deeper paths are 404', async () => {
    const secret = join(t.dataDir, 'secret')
    await Bun.write(secret, 'keep')
    const tus = tusVia(t, token)
    const paths = [
      '/uploads/..%2Fsecret',
      `/uploads/${encodeURIComponent(secret)}`,
      '/uploads/a/..%2F..%2Fsecret',
      // URL parsing turns this one into "/", which is not an upload path at all.
      '/uploads/%2E%2E',
    ]
    for (const path of paths) {
      const head = await tus.head(path)
      expect(head.headers.get('upload-offset')).toBeNull()
      expect((await tus.patch(path, 0, new Uint8Array(4))).status).not.toBe(204)
    }
    expect(await Bun.file(secret).text()).toBe('keep')
  })

  testSkipIf(
    diskOnly('a stray file is swept at once; on s3 the sweep keeps keys younger than a day'),
  )('start-up sweeps media files with no row and leaves the others', async () => {
    const { video } = await (await caller()).videos.create({
      title: 'Survivor',
      uploads: await uploadTrio(t, token, f),
    })
    const orphan = join(t.dataDir, 'media', `${'0'.repeat(32)}.mp4`)
    await Bun.write(orphan, 'left by a crash')
    await t.restart()
    expect(await Bun.file(orphan).exists()).toBe(false)
    const { files, keys } = await mediaAndRows(t)
    expect(files).toEqual(keys)
    expect((await t.fetch(video.videoUrl)).status).toBe(200)
  })
})
