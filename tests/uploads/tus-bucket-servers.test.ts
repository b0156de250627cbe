// tus uploads in the bucket, on two real server processes sharing one PostgreSQL database and one
// bucket, each with its own DATA_DIR, behind a real round-robin proxy (nginx with
// deploy/nginx.conf, testkit/nginx.ts): a PATCH gone silent on one server is given up when the
// other asks for the upload, with what arrived kept; an upload's PATCHes land on both servers in
// turn, and when the server taking a PATCH dies in mid-body (SIGKILL), the client goes on through
// the other one from the offset HEAD gives, and the video it makes is byte-identical to the file
// sent.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GetObjectCommand } from '@aws-sdk/client-s3'
import type { S3Config } from '../../src/config.ts'
import { s3Client } from '../../src/storage/s3-client.ts'
import { fixtures } from '../../testkit/media.ts'
import { type Balancer, NGINX, startProxy } from '../../testkit/nginx.ts'
import {
  bucketKeys,
  dropBucket,
  makeBucket,
  s3Available,
  s3Env,
  unfinishedUploads,
} from '../../testkit/s3.ts'
import { type E2EServer, startServer } from '../../testkit/server.ts'
import { describeSkipIf } from '../../testkit/skip.ts'
import { patchAndStall, tusRaw } from '../../testkit/tus.ts'

/** Bytes in the files under `dir`: where a server keeps a PATCH body on its way to the bucket. */
const heldIn = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).reduce((n, name) => {
    const stat = statSync(join(dir, name), { throwIfNoEntry: false })
    return stat?.isFile() ? n + stat.size : n
  }, 0)

const MiB = 1024 * 1024
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

const reason =
  (!process.env.TEST_DATABASE_URL &&
    'needs TEST_DATABASE_URL: only a database server is shared by several servers') ||
  s3Available().reason

describeSkipIf(reason)('tus uploads in the bucket, two servers behind a round-robin proxy', () => {
  let bucket: S3Config
  let a: E2EServer
  let b: E2EServer
  let proxy: Balancer | undefined
  let work: string
  let token: string
  const temp: Record<number, string> = {}
  /** Where requests go: the proxy, or (without nginx) the two servers in turn. */
  let turn = 0
  const base = () => proxy?.url ?? [a, b][turn++ % 2]!.url

  beforeAll(async () => {
    bucket = await makeBucket()
    work = mkdtempSync(join(tmpdir(), 'tus-servers-'))
    // Each server's parts wait in their own temporary folder: the test sees who holds a PATCH.
    const server = (name: string) => {
      const dir = join(work, name)
      Bun.spawnSync(['mkdir', '-p', dir])
      return { ...s3Env(bucket), MEDIA_WORKERS: '0', TMPDIR: dir }
    }
    a = await startServer(server('a'))
    b = await startServer(server('b'), { databaseOf: a })
    temp[a.port] = join(work, 'a')
    temp[b.port] = join(work, 'b')
    if (NGINX) proxy = await startProxy(work, [a.port, b.port])
    token = (await a.apiLogin()).token
  }, 180_000)
  afterAll(async () => {
    await proxy?.stop()
    // The server sharing the other's database first: the first one's stop drops that database.
    await b?.stop()
    await a?.stop()
    if (bucket) await dropBucket(bucket)
    rmSync(work, { recursive: true, force: true })
  }, 60_000)

  test('a PATCH gone silent on one server is given up within seconds when the other asks, and what arrived is kept', async () => {
    const clip = await Bun.file((await fixtures()).mp4).bytes()
    const video = new Uint8Array(12 * MiB)
    video.set(crypto.getRandomValues(new Uint8Array(65536)), 0)
    video.set(clip, 0)
    const onA = tusRaw(a.url, token)
    const onB = tusRaw(b.url, token)
    const path = new URL(
      (await onA.create(video.length, { kind: 'video' })).headers.get('location')!,
      'http://x',
    ).pathname
    const sent = 3 * MiB
    const stalled = await patchAndStall(a.url, path, token, 0, video, sent)
    await Bun.sleep(500)
    const started = performance.now()
    const head = await onB.head(path)
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(head.status).toBe(200)
    // The bytes A had read when it let go are in the bucket (as the tail: less than a part).
    const kept = Number(head.headers.get('upload-offset'))
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThanOrEqual(sent)
    await Promise.race([stalled.closed, Bun.sleep(10_000)])
    await stalled.drop()
    const rest = await onB.patch(path, kept, video.subarray(kept))
    expect(rest.status).toBe(204)
    expect(Number(rest.headers.get('upload-offset'))).toBe(video.length)
    const id = path.split('/').at(-1)!
    const client = s3Client(bucket)
    try {
      const got = await client.send(
        new GetObjectCommand({ Bucket: bucket.bucket, Key: `uploads/${id}` }),
      )
      expect(sha256(await got.Body!.transformToByteArray())).toBe(sha256(video))
    } finally {
      client.destroy()
    }
    expect((await onA.remove(path)).status).toBe(204)
  }, 60_000)

  test(`PATCHes alternate servers; a server killed mid-PATCH leaves an upload the other finishes byte-identical${NGINX ? '' : ' (no nginx here: the test alternates the two servers itself)'}`, async () => {
    const f = await fixtures()
    const clip = await Bun.file(f.mp4).bytes()
    const video = new Uint8Array(30 * MiB)
    const noise = crypto.getRandomValues(new Uint8Array(65536))
    for (let at = 0; at < video.length; at += noise.length) video.set(noise, at)
    video.set(clip, 0)

    const created = await tusRaw(base(), token).create(video.length, { kind: 'video' })
    expect(created.status).toBe(201)
    const path = new URL(created.headers.get('location')!, 'http://x').pathname
    // Three PATCHes of 6 MiB, one after the other, each where the balancer sends it.
    let offset = 0
    for (let i = 0; i < 3; i++) {
      const res = await tusRaw(base(), token).patch(
        path,
        offset,
        video.subarray(offset, offset + 6 * MiB),
      )
      expect(res.status).toBe(204)
      offset = Number(res.headers.get('upload-offset'))
    }
    expect(offset).toBe(18 * MiB)
    if (proxy) expect(new Set(await proxy.served('PATCH', 3))).toEqual(new Set([a.port, b.port]))

    // The rest in one PATCH that stops after 7 MiB; the server taking it is killed mid-body.
    const target = base()
    const stalled = await patchAndStall(
      target,
      path,
      token,
      offset,
      video.subarray(offset),
      7 * MiB,
    )
    const holding = async () => {
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; await Bun.sleep(50)) {
        for (const server of [a, b]) {
          const dir = temp[server.port]!
          const bytes = heldIn(dir)
          if (bytes >= 4 * MiB) return server
        }
      }
      throw new Error('no server took the PATCH body')
    }
    const victim = await holding()
    const survivor = victim === a ? b : a
    await victim.kill()
    await Promise.race([stalled.closed, Bun.sleep(10_000)])
    await stalled.drop()

    // The client resumes through whichever server is left, from HEAD's offset.
    const resumed = tusRaw(proxy?.url ?? survivor.url, token)
    const head = await resumed.head(path)
    expect(head.status).toBe(200)
    const kept = Number(head.headers.get('upload-offset'))
    expect(kept).toBeGreaterThanOrEqual(18 * MiB)
    expect(kept).toBeLessThanOrEqual(25 * MiB)
    const rest = await resumed.patch(path, kept, video.subarray(kept))
    expect(rest.status).toBe(204)
    expect(Number(rest.headers.get('upload-offset'))).toBe(video.length)

    const send = async (file: string, kind: string) => {
      const bytes = await Bun.file(file).bytes()
      const made = await resumed.create(bytes.length, { kind })
      const at = new URL(made.headers.get('location')!, 'http://x').pathname
      expect((await resumed.patch(at, 0, bytes)).status).toBe(204)
      return at.split('/').at(-1)!
    }
    const uploads = {
      video: path.split('/').at(-1)!,
      thumbnail: await send(f.jpg, 'thumbnail'),
      brandLogo: await send(f.png, 'brandLogo'),
    }
    const res = await fetch(`${proxy?.url ?? survivor.url}/trpc/videos.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Across servers', description: '', uploads }),
    })
    expect(res.status).toBe(200)
    // biome-ignore lint/suspicious/noExplicitAny: a tRPC answer read by path
    const made = ((await res.json()) as any).result.data.video as { videoUrl: string }
    const served = await fetch(`${proxy?.url ?? survivor.url}${made.videoUrl}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(served.status).toBe(200)
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(video))
    expect((await bucketKeys(bucket)).filter((key) => key.startsWith('uploads/'))).toEqual([])
    expect(await unfinishedUploads(bucket)).toEqual([])
  }, 120_000)
})
