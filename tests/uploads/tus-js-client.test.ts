// The official tus client (tus-js-client 4, its own Node HTTP stack, run by Bun) against the real
// server over TCP, as a studio's script or a third-party app would upload: in chunks, resumed from
// a new Upload after an abort, with a deferred length, through a method override, terminated, and
// against an expired upload. tus-js-client 4.3.1 has no checksum option (no Upload-Checksum is
// ever sent), so the checksum extension is proven by tus-protocol.test.ts with raw requests.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import * as tus from 'tus-js-client'
import { fixtures } from '../../testkit/media.ts'
import { type E2EServer, startServer } from '../../testkit/server.ts'

const MiB = 1024 * 1024
let server: E2EServer
let token: string
let video: Buffer

type UrlStorage = NonNullable<tus.Upload['options']['urlStorage']>
// Exported by the Node build, missing from the package's type declarations.
const { FileUrlStorage } = tus as unknown as { FileUrlStorage: new (path: string) => UrlStorage }

beforeAll(async () => {
  server = await startServer()
  token = (await server.apiLogin()).token
  // A real MP4 head, then random bytes: several chunks long, still sniffed as a video.
  const clip = await Bun.file((await fixtures()).mp4).bytes()
  video = Buffer.concat([clip, crypto.getRandomValues(new Uint8Array(6 * MiB))])
}, 120_000)
afterAll(() => server?.stop(), 60_000)

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
const idOf = (url: string) => url.slice(url.lastIndexOf('/') + 1)
const storedSha = async (url: string) =>
  sha256(await Bun.file(join(server.dataDir, 'uploads', idOf(url))).bytes())

function options(extra: Partial<tus.Upload['options']> = {}): tus.Upload['options'] {
  return {
    endpoint: `${server.url}/uploads/`,
    chunkSize: MiB,
    retryDelays: [],
    metadata: { kind: 'video', filename: 'clip.mp4', filetype: 'video/mp4' },
    headers: { Authorization: `Bearer ${token}` },
    ...extra,
  }
}

/** Runs an upload to its end; resolves with its URL and the requests it sent, or rejects. */
function run(upload: tus.Upload, requests: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    upload.options.onBeforeRequest = (req) => {
      requests.push(`${req.getMethod()} ${req.getHeader('X-HTTP-Method-Override') ?? ''}`.trim())
    }
    upload.options.onError = reject
    upload.options.onSuccess = () => resolve(upload.url!)
    upload.start()
  })
}

/** Starts an upload and aborts it once `bytes` are accepted; resolves with its URL. */
function abortAfter(upload: tus.Upload, bytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    upload.options.onError = reject
    upload.options.onSuccess = () => reject(new Error('finished before the abort'))
    upload.options.onChunkComplete = (_chunk, accepted) => {
      if (accepted >= bytes) upload.abort().then(() => resolve(upload.url!), reject)
    }
    upload.start()
  })
}

const head = (url: string) =>
  fetch(url, {
    method: 'HEAD',
    headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' },
  })

test('tus-js-client uploads in chunks; the stored file is the source byte for byte', async () => {
  const requests: string[] = []
  const url = await run(new tus.Upload(video, options()), requests)
  expect(requests[0]).toBe('POST')
  expect(requests.filter((r) => r === 'PATCH').length).toBe(Math.ceil(video.length / MiB))
  expect(await storedSha(url)).toBe(sha256(video))
  const echoed = (await head(url)).headers.get('upload-metadata')
  expect(echoed).toBe(
    `kind ${btoa('video')},filename ${btoa('clip.mp4')},filetype ${btoa('video/mp4')}`,
  )
})

test('aborted, it resumes from a new Upload found with findPreviousUploads', async () => {
  const storage = join(await mkdtemp(join(tmpdir(), 'tus-urls-')), 'urls.json')
  await Bun.write(storage, '{}')
  const stored = () => options({ urlStorage: new FileUrlStorage(storage) })

  const url = await abortAfter(new tus.Upload(video, stored()), 3 * MiB)
  const offset = Number((await head(url)).headers.get('upload-offset'))
  expect(offset).toBeGreaterThanOrEqual(3 * MiB)

  const again = new tus.Upload(video, stored())
  const previous = await again.findPreviousUploads()
  expect(previous.map((p) => p.uploadUrl)).toEqual([url])
  again.resumeFromPreviousUpload(previous[0]!)
  const requests: string[] = []
  expect(await run(again, requests)).toBe(url)
  // Resumed, not started over: it asked for the offset and sent only the rest.
  expect(requests[0]).toBe('HEAD')
  expect(requests).not.toContain('POST')
  expect(requests.filter((r) => r === 'PATCH').length).toBe(
    Math.ceil((video.length - offset) / MiB),
  )
  expect(await storedSha(url)).toBe(sha256(video))
})

test('through X-HTTP-Method-Override (overridePatchMethod), for clients that cannot send PATCH', async () => {
  const requests: string[] = []
  const url = await run(new tus.Upload(video, options({ overridePatchMethod: true })), requests)
  expect(requests).toContain('POST PATCH')
  expect(requests).not.toContain('PATCH')
  expect(await storedSha(url)).toBe(sha256(video))
})

test('with a deferred length: a stream of unknown size, its length declared at the end', async () => {
  const stream = Readable.from(
    (function* () {
      for (let at = 0; at < video.length; at += 300_000) yield video.subarray(at, at + 300_000)
    })(),
  )
  const upload = new tus.Upload(
    stream as unknown as Buffer,
    options({ uploadLengthDeferred: true }),
  )
  const requests: string[] = []
  const url = await run(upload, requests)
  expect(requests[0]).toBe('POST')
  const done = await head(url)
  expect(done.headers.get('upload-length')).toBe(String(video.length))
  expect(done.headers.get('upload-offset')).toBe(String(video.length))
  expect(await storedSha(url)).toBe(sha256(video))
})

test('termination: abort(true) deletes the upload on the server', async () => {
  const upload = new tus.Upload(video, options())
  const url = await abortAfter(upload, MiB)
  expect((await head(url)).status).toBe(200)
  await upload.abort(true)
  expect((await head(url)).status).toBe(404)
})

test('an expired upload: a clear 410 without an endpoint, a fresh upload with one', async () => {
  const url = await abortAfter(new tus.Upload(video, options()), MiB)
  const record = join(server.dataDir, 'uploads', `${idOf(url)}.json`)
  const info = await Bun.file(record).json()
  info.creation_date = new Date(Date.now() - 25 * 3600 * 1000).toISOString()
  await Bun.write(record, JSON.stringify(info))

  const failed = await run(new tus.Upload(video, options({ endpoint: null, uploadUrl: url }))).then(
    () => null,
    (error: tus.DetailedError) => error,
  )
  expect(failed?.originalResponse?.getStatus()).toBe(410)
  expect(failed?.message).toContain('response code: 410')

  const fresh = await run(new tus.Upload(video, options({ uploadUrl: url })))
  expect(fresh).not.toBe(url)
  expect(await storedSha(fresh)).toBe(sha256(video))
})

test('a refusal mid-upload reaches the client: an 8 MiB chunk after sign-out gets its 401', async () => {
  const session = (await server.apiLogin()).token
  const upload = new tus.Upload(
    Buffer.concat([video, video, video]),
    options({ chunkSize: 8 * MiB, headers: { Authorization: `Bearer ${session}` } }),
  )
  upload.options.onChunkComplete = () => {
    // The admin signs out in another tab: the next chunk is refused before it is read.
    upload.options.headers = { Authorization: 'Bearer signed-out' }
  }
  const error = await run(upload).then(
    () => null,
    (e: tus.DetailedError) => e,
  )
  expect(error?.originalResponse?.getStatus()).toBe(401)
})

test("docs/api.md's tus flow: sign in, three uploads, then videos.create with their ids", async () => {
  const f = await fixtures()
  const { token: session } = await server.apiLogin()
  const send = (file: Buffer, kind: string, filetype: string) =>
    run(
      new tus.Upload(file, {
        ...options({ headers: { Authorization: `Bearer ${session}` } }),
        metadata: { kind, filename: `${kind}.bin`, filetype },
      }),
    )
  const [videoUrl, thumbnailUrl, logoUrl] = await Promise.all([
    send(video, 'video', 'video/mp4'),
    send(Buffer.from(await Bun.file(f.jpg).bytes()), 'thumbnail', 'image/jpeg'),
    send(Buffer.from(await Bun.file(f.png).bytes()), 'brandLogo', 'image/png'),
  ])
  const res = await fetch(`${server.url}/trpc/videos.create`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${session}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: 'Made by a third-party client',
      description: 'tus-js-client, then videos.create',
      uploads: {
        video: idOf(videoUrl!),
        thumbnail: idOf(thumbnailUrl!),
        brandLogo: idOf(logoUrl!),
      },
    }),
  })
  expect(res.status).toBe(200)
  const { video: made } = (await res.json()).result.data
  expect(made.title).toBe('Made by a third-party client')
  const served = await fetch(`${server.url}${made.videoUrl}`)
  expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(video))
})
