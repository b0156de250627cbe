import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { limits } from '../../src/contract/limits.ts'
import { msg } from '../../src/contract/messages.ts'
import { AppError } from '../../src/errors.ts'
import { handleUploadPaths } from '../../src/uploads/http.ts'
import { createTusEndpoint, type TusEndpoint } from '../../src/uploads/tus.ts'
import { UploadSlots } from '../../src/uploads/upload-slots.ts'
import { fixtures } from '../../testkit/media.ts'
import { testSkipIf } from '../../testkit/skip.ts'
import {
  patchAndDrop,
  patchAndStall,
  patchAndTrickle,
  tusRaw,
  tusUpload,
} from '../../testkit/tus.ts'

// A real tus endpoint behind the real /uploads entry on a real port; "signed in" is a fixed token
// per user here, the real session check is covered by the integration tests.
const USERS: Record<string, string> = { 'Bearer alice-token': 'alice', 'Bearer bob-token': 'bob' }

let root: string
let dir: string
let tus: TusEndpoint
let server: ReturnType<typeof Bun.serve>
let base: string
let mp4: Buffer

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tus-'))
  dir = join(root, 'uploads')
  tus = createTusEndpoint(dir)
  const deps = {
    uploads: { tus, slots: new UploadSlots() },
    async requireSession(req: Request) {
      const user = USERS[req.headers.get('authorization') ?? '']
      if (!user) throw new AppError('UNAUTHORIZED', 'Please sign in to continue')
      return { id: `${user}-session`, user: { _id: user } }
    },
  }
  server = Bun.serve({
    port: 0,
    idleTimeout: 30,
    fetch(req) {
      const { pathname } = new URL(req.url)
      const answer = handleUploadPaths(req, pathname, deps, () => server.timeout(req, 1))
      return answer ?? new Response('no', { status: 404 })
    },
  })
  base = server.url.origin
  // A real MP4 head followed by random bytes: big enough to interrupt, still sniffs as MP4.
  const clip = await Bun.file((await fixtures()).mp4).bytes()
  mp4 = Buffer.concat([clip, crypto.getRandomValues(new Uint8Array(3 * 1024 * 1024))])
})
afterAll(async () => {
  server.stop(true)
  await rm(root, { recursive: true, force: true })
})

const sha = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
const idOf = (url: string) => url.slice(url.lastIndexOf('/') + 1)
const alice = () => tusRaw(base, 'alice-token')

async function finishedSha(url: string, owner = 'alice') {
  const found = await tus.finished(idOf(url), owner)
  if (!found.ok) throw new Error(`upload ${found.reason}`)
  return sha(await Bun.file(join(dir, found.upload.id)).bytes())
}

describe('tus endpoint', () => {
  test('tus-js-client uploads in chunks; the result is byte for byte the source', async () => {
    const { url } = await tusUpload(mp4, {
      endpoint: `${base}/uploads/`,
      token: 'alice-token',
      kind: 'video',
      chunkSize: 1024 * 1024,
    })
    expect(await finishedSha(url)).toBe(sha(mp4))
  })

  test('aborted at several points, it resumes to the same SHA-256', async () => {
    let url: string | undefined
    for (const at of [300_000, 1_500_000, 2_900_000]) {
      const result = await tusUpload(mp4, {
        endpoint: `${base}/uploads/`,
        uploadUrl: url,
        token: 'alice-token',
        kind: 'video',
        chunkSize: 256 * 1024,
        abortWhen: (sent) => sent >= at,
      })
      expect(result.aborted).toBe(true)
      url = result.url
      const offset = Number(
        (await alice().head(new URL(url).pathname)).headers.get('upload-offset'),
      )
      expect(offset).toBeGreaterThan(0)
      expect(offset).toBeLessThan(mp4.length)
    }
    const done = await tusUpload(mp4, {
      endpoint: `${base}/uploads/`,
      uploadUrl: url,
      token: 'alice-token',
      kind: 'video',
      chunkSize: 256 * 1024,
    })
    expect(done.aborted).toBe(false)
    expect(await finishedSha(done.url)).toBe(sha(mp4))
  })

  test('a connection dropped mid-PATCH keeps what arrived; the rest resumes from HEAD', async () => {
    const created = await alice().create(mp4.length, { kind: 'video' })
    expect(created.status).toBe(201)
    const path = created.headers.get('location')!
    // Relative, so a proxy in front cannot make it point at the wrong host.
    expect(path).toMatch(/^\/uploads\/[0-9a-f]{32}$/)
    let offset = 0
    for (const cut of [700_000, 2_000_000]) {
      await patchAndDrop(
        base,
        path,
        'alice-token',
        offset,
        mp4.subarray(offset),
        cut - offset,
        join(dir, idOf(path)),
      )
      const head = await alice().head(path)
      const resumeAt = Number(head.headers.get('upload-offset'))
      expect(resumeAt).toBeGreaterThan(offset)
      expect(resumeAt).toBeLessThanOrEqual(cut)
      offset = resumeAt
    }
    const last = await alice().patch(path, offset, new Uint8Array(mp4.subarray(offset)))
    expect(last.status).toBe(204)
    expect(await finishedSha(path)).toBe(sha(mp4))
  })

  test('a client that went silent mid-PATCH hands the upload over within seconds', async () => {
    const created = await alice().create(mp4.length, { kind: 'video' })
    const path = created.headers.get('location')!
    const stalled = await patchAndStall(base, path, 'alice-token', 0, mp4, 1_000_000)
    await Bun.sleep(300)
    // The client gave up on that request and resumes on a new connection. @tus/server asks the
    // silent PATCH to let go of the upload's lock; its connection is closed once it is quiet, so
    // the HEAD is answered after the lock drain (3 s) and a second of silence, not after the
    // server's idle timeout (30 s here).
    const started = performance.now()
    const head = await alice().head(path)
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(head.status).toBe(200)
    const offset = Number(head.headers.get('upload-offset'))
    expect(offset).toBeGreaterThan(0)
    expect(offset).toBeLessThanOrEqual(1_000_000)
    await stalled.closed
    const rest = await alice().patch(path, offset, new Uint8Array(mp4.subarray(offset)))
    expect(rest.status).toBe(204)
    expect(await finishedSha(path)).toBe(sha(mp4))
  }, 20_000)

  test('a PATCH that keeps trickling bytes hands the upload over to a new HEAD within seconds, keeping what arrived', async () => {
    const created = await alice().create(mp4.length, { kind: 'video' })
    const path = created.headers.get('location')!
    const trickle = await patchAndTrickle(base, path, 'alice-token', mp4, 500_000)
    await Bun.sleep(1000)
    // A byte every few hundred milliseconds: the connection is never idle, yet the client that
    // resumes on a new connection gets the upload after the lock drain, not after the PATCH.
    const started = performance.now()
    const head = await alice().head(path)
    const waited = performance.now() - started
    expect(head.status).toBe(200)
    expect(waited).toBeLessThan(10_000)
    const offset = Number(head.headers.get('upload-offset'))
    expect(offset).toBeGreaterThanOrEqual(500_000)
    expect(offset).toBeLessThanOrEqual(trickle.trickled())
    await trickle.stop()
    const rest = await alice().patch(path, offset, new Uint8Array(mp4.subarray(offset)))
    expect(rest.status).toBe(204)
    expect(await finishedSha(path)).toBe(sha(mp4))
  }, 20_000)

  test('a PATCH without a Content-Length is counted against the declared size', async () => {
    const created = await alice().create(mp4.length, { kind: 'video' })
    const path = created.headers.get('location')!
    const streamOf = (bytes: Uint8Array) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 100_000)
            controller.enqueue(bytes.subarray(at, at + 100_000))
          controller.close()
        },
      })
    // One byte more than the upload's size: refused, and the upload stays at its size.
    const tooLong = await alice().patch(path, 0, streamOf(Buffer.concat([mp4, Buffer.from('x')])))
    expect(tooLong.status).toBe(413)
    const offset = Number((await alice().head(path)).headers.get('upload-offset'))
    expect(offset).toBeLessThanOrEqual(mp4.length)
    const rest = await alice().patch(path, offset, streamOf(mp4.subarray(offset)))
    expect(rest.status).toBe(204)
    expect(await finishedSha(path)).toBe(sha(mp4))
  })

  test('checksums: a matching chunk is kept, a wrong or cut-off one is not', async () => {
    const options = await fetch(`${base}/uploads/`, { method: 'OPTIONS' })
    expect(options.headers.get('tus-extension')?.split(',')).toContain('checksum')
    expect(options.headers.get('tus-checksum-algorithm')).toBe('sha1,md5,sha256')

    const created = await alice().create(mp4.length, { kind: 'video' })
    const path = created.headers.get('location')!
    const offsetNow = async () => Number((await alice().head(path)).headers.get('upload-offset'))
    const digest = (algorithm: 'sha1' | 'md5' | 'sha256', bytes: Uint8Array) =>
      `${algorithm} ${new Bun.CryptoHasher(algorithm).update(bytes).digest('base64')}`
    const first = new Uint8Array(mp4.subarray(0, 1_000_000))
    const rest = new Uint8Array(mp4.subarray(1_000_000))

    const wrong = await alice().patch(path, 0, first, {
      'Upload-Checksum': digest('sha1', rest),
    })
    expect(wrong.status).toBe(460)
    expect(await offsetNow()).toBe(0)
    const unknown = await alice().patch(path, 0, first, { 'Upload-Checksum': 'crc32 AAAA' })
    expect(unknown.status).toBe(400)
    expect(await offsetNow()).toBe(0)
    const cut = await patchAndStall(base, path, 'alice-token', 0, first, 400_000, {
      'Upload-Checksum': digest('md5', first),
    })
    await Bun.sleep(100)
    await cut.drop()
    await Bun.sleep(100)
    expect(await offsetNow()).toBe(0)

    const right = await alice().patch(path, 0, first, { 'Upload-Checksum': digest('sha1', first) })
    expect(right.status).toBe(204)
    expect(await offsetNow()).toBe(first.length)
    const last = await alice().patch(path, first.length, rest, {
      'Upload-Checksum': digest('sha256', rest),
    })
    expect(last.status).toBe(204)
    expect(await finishedSha(path)).toBe(sha(mp4))
  })

  test('Upload-Length over the kind limit: 413 with its message, nothing written', async () => {
    const before = await readdir(dir)
    const cases = [
      ['video', limits.videoBytes + 1, msg.videoSize],
      ['thumbnail', limits.thumbnailBytes + 1, msg.thumbnailSize],
      ['brandLogo', limits.brandLogoBytes + 1, msg.brandLogoSize],
    ] as const
    for (const [kind, length, message] of cases) {
      const res = await alice().create(length, { kind })
      expect(res.status).toBe(413)
      expect(await res.text()).toBe(message)
    }
    expect(await readdir(dir)).toEqual(before)
    // At the limit is fine.
    expect((await alice().create(limits.thumbnailBytes, { kind: 'thumbnail' })).status).toBe(201)
  })

  test('missing kind or an empty file: 400, also an empty one declared late', async () => {
    expect((await alice().create(10, { filename: 'a' })).status).toBe(400)
    expect((await alice().create(10, { kind: 'poster' })).status).toBe(400)
    expect((await alice().create(0, { kind: 'video' })).status).toBe(400)
    const deferred = await alice().create(null, { kind: 'video' })
    expect(deferred.status).toBe(201)
    const path = deferred.headers.get('location')!
    const empty = await alice().patch(path, 0, new Uint8Array(0), { 'Upload-Length': '0' })
    expect([empty.status, await empty.text()]).toEqual([400, 'The file is empty'])
    expect((await alice().head(path)).status).toBe(404)
  })

  test('a renamed text or HTML file is refused with 415 when it finishes', async () => {
    const f = await fixtures()
    for (const [file, kind, message] of [
      [f.fakeMp4, 'video', msg.videoType],
      [f.fakePng, 'thumbnail', msg.imageType],
      [f.mp4, 'brandLogo', msg.imageType],
    ] as const) {
      const bytes = await Bun.file(file).bytes()
      const created = await alice().create(bytes.length, { kind })
      const path = created.headers.get('location')!
      const res = await alice().patch(path, 0, bytes)
      expect(res.status).toBe(415)
      expect(await res.text()).toBe(message)
      expect((await tus.finished(idOf(path), 'alice')).ok).toBe(false)
    }
  })

  test('no session: 401 for everything but the preflight', async () => {
    const anon = tusRaw(base)
    expect((await anon.create(10, { kind: 'video' })).status).toBe(401)
    const path = (await alice().create(10, { kind: 'video' })).headers.get('location')!
    expect((await anon.head(path)).status).toBe(401)
    expect((await anon.patch(path, 0, 'x')).status).toBe(401)
    expect((await anon.remove(path)).status).toBe(401)
    const preflight = await fetch(`${base}/uploads/`, { method: 'OPTIONS' })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('tus-version')).toBe('1.0.0')
  })

  test("another admin's upload is invisible; finished() checks the owner, never a metadata key", async () => {
    const bob = tusRaw(base, 'bob-token')
    const path = (await alice().create(4, { kind: 'thumbnail', owner: 'bob' })).headers.get(
      'location',
    )!
    expect((await bob.head(path)).status).toBe(404)
    expect((await bob.patch(path, 0, 'abcd')).status).toBe(404)
    expect((await bob.remove(path)).status).toBe(404)
    const head = await alice().head(path)
    expect(head.status).toBe(200)
    // The client's own `owner` key is kept as sent, and names nobody.
    expect(head.headers.get('upload-metadata')).toBe(
      `kind ${btoa('thumbnail')},owner ${btoa('bob')}`,
    )
    expect(await tus.finished(idOf(path), 'bob')).toEqual({ ok: false, reason: 'missing' })
    expect(await tus.finished(idOf(path), 'alice')).toEqual({ ok: false, reason: 'incomplete' })
    const record = await Bun.file(join(dir, `${idOf(path)}.json`)).json()
    expect([record.owner, record.metadata]).toEqual(['alice', { kind: 'thumbnail', owner: 'bob' }])
  })

  test('an upload recorded before the owner had its own field resumes, finishes and stays its creator’s', async () => {
    // As the previous version wrote it: the owner as a metadata key, written over the client's.
    const id = 'feedbeef'.repeat(4)
    const half = mp4.subarray(0, 1_000_000)
    const older = (creation: Date) => ({
      id,
      size: mp4.length,
      offset: 0,
      metadata: { kind: 'video', filename: 'clip.mp4', owner: 'alice' },
      creation_date: creation.toISOString(),
    })
    await Bun.write(join(dir, id), half)
    await Bun.write(join(dir, `${id}.json`), JSON.stringify(older(new Date())))
    const path = `/uploads/${id}`
    const bob = tusRaw(base, 'bob-token')
    expect((await bob.head(path)).status).toBe(404)
    const head = await alice().head(path)
    expect(head.status).toBe(200)
    expect(head.headers.get('upload-offset')).toBe(String(half.length))
    // The owner key was the server's: the metadata answered is the client's part.
    expect(head.headers.get('upload-metadata')).toBe(
      `kind ${btoa('video')},filename ${btoa('clip.mp4')}`,
    )
    expect((await bob.patch(path, half.length, 'x')).status).toBe(404)
    const rest = await alice().patch(path, half.length, new Uint8Array(mp4.subarray(half.length)))
    expect(rest.status).toBe(204)
    expect(await finishedSha(path)).toBe(sha(mp4))
    expect(await tus.finished(id, 'bob')).toEqual({ ok: false, reason: 'missing' })

    // And one past its day expires as any other.
    const stale = 'deadbeef'.repeat(4)
    await Bun.write(join(dir, stale), half)
    await Bun.write(
      join(dir, `${stale}.json`),
      JSON.stringify({ ...older(new Date(Date.now() - 25 * 3600 * 1000)), id: stale }),
    )
    expect((await alice().head(`/uploads/${stale}`)).status).toBe(410)
    await tus.cleanUp()
    expect(await readdir(dir)).not.toContain(stale)
    expect(await readdir(dir)).not.toContain(`${stale}.json`)
  })

  test('ids with .., %2F or absolute paths touch nothing outside the folder', async () => {
    const outside = join(root, 'secret')
    await Bun.write(outside, 'keep me')
    await Bun.write(`${outside}.json`, JSON.stringify({ id: 'secret', size: 7, offset: 0 }))
    const raw = alice()
    for (const path of [
      '/uploads/..%2Fsecret',
      '/uploads/%2E%2E%2Fsecret',
      '/uploads/..',
      `/uploads/${encodeURIComponent(outside)}`,
      '/uploads/%2Fetc%2Fpasswd',
      '/uploads/..%5Csecret',
    ]) {
      for (const res of [
        await raw.head(path),
        await raw.patch(path, 0, 'x'),
        await raw.remove(path),
      ]) {
        expect(res.status).toBe(404)
      }
    }
    expect(await Bun.file(outside).text()).toBe('keep me')
    expect(await Bun.file(`${outside}.json`).exists()).toBe(true)
    for (const id of ['../secret', '..', outside, '%2E%2E']) {
      expect((await tus.finished(id, 'alice')).ok).toBe(false)
    }
  })

  test('incomplete uploads expire: 410 on resume, files removed by the clean-up', async () => {
    const shortDir = join(root, 'short')
    const short = createTusEndpoint(shortDir, 200)
    const req = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      short.handle(
        new Request(`http://local${path}`, {
          method,
          headers: { 'Tus-Resumable': '1.0.0', ...headers },
          body,
        }),
        'alice',
      )
    const meta = `kind ${btoa('video')}`
    const created = await req('POST', '/uploads/', {
      'Upload-Length': '10',
      'Upload-Metadata': meta,
    })
    const path = created.headers.get('location')!
    expect(created.headers.get('upload-expires')).toBeTruthy()
    expect((await readdir(shortDir)).length).toBe(2)
    await Bun.sleep(300)
    const late = await req(
      'PATCH',
      path,
      {
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
      },
      'abc',
    )
    expect(late.status).toBe(410)
    expect(await short.cleanUp()).toBeGreaterThanOrEqual(1)
    expect(await readdir(shortDir)).toEqual([])
  })

  test('finished uploads expire too: tus ones and files registered from a multipart body', async () => {
    const shortDir = join(root, 'short-finished')
    // Long enough for the checks below on a loaded machine (a bucket's requests included).
    const short = createTusEndpoint(shortDir, 3000)
    const req = (
      method: string,
      path: string,
      headers: Record<string, string>,
      body?: Uint8Array<ArrayBuffer>,
    ) =>
      short.handle(
        new Request(`http://local${path}`, {
          method,
          headers: { 'Tus-Resumable': '1.0.0', ...headers },
          body,
        }),
        'alice',
      )
    const created = await req('POST', '/uploads/', {
      'Upload-Length': String(mp4.length),
      'Upload-Metadata': `kind ${btoa('video')}`,
    })
    const path = created.headers.get('location')!
    const done = await req(
      'PATCH',
      path,
      { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      new Uint8Array(mp4),
    )
    expect(done.status).toBe(204)
    const part = join(root, 'part-to-expire')
    await Bun.write(part, mp4)
    const registered = await short.register(part, 'video', 'alice')
    for (const id of [idOf(path), registered])
      expect((await short.finished(id, 'alice')).ok).toBe(true)
    // Nothing is removed before its time.
    expect(await short.cleanUp()).toBe(0)
    await Bun.sleep(3100)
    // Past its expiry an upload is not used even before the clean-up has run...
    for (const id of [idOf(path), registered]) {
      expect(await short.finished(id, 'alice')).toEqual({ ok: false, reason: 'missing' })
    }
    // ...and the clean-up removes both, data and info files.
    expect(await short.cleanUp()).toBe(2)
    expect(await readdir(shortDir)).toEqual([])
  })

  test('a chunked PATCH past Upload-Length keeps nothing of itself; the upload is not complete', async () => {
    const text = Buffer.from('plain text, not a video at all. '.repeat(4000))
    const created = await alice().create(text.length, { kind: 'video' })
    const path = created.headers.get('location')!
    const first = 50_000
    expect((await alice().patch(path, 0, new Uint8Array(text.subarray(0, first)))).status).toBe(204)
    const chunked = (bytes: Uint8Array) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 10_000)
            controller.enqueue(bytes.subarray(at, at + 10_000))
          controller.close()
        },
      })
    // The rest and one byte more, with no Content-Length: the end is found only by counting.
    const over = await alice().patch(
      path,
      first,
      chunked(Buffer.concat([text.subarray(first), Buffer.from('x')])),
    )
    expect(over.status).toBe(413)
    // Offset where it was: not a complete upload that skipped the type check at its finish.
    expect(Number((await alice().head(path)).headers.get('upload-offset'))).toBe(first)
    expect((await Bun.file(join(dir, idOf(path))).bytes()).length).toBe(first)
    expect(await tus.finished(idOf(path), 'alice')).toEqual({ ok: false, reason: 'incomplete' })
    // Sent properly, the last part finishes it and the finish check refuses the text.
    const rest = await alice().patch(path, first, chunked(text.subarray(first)))
    expect(rest.status).toBe(415)
    expect(await rest.text()).toBe(msg.videoType)
  })

  test('answers grant nothing to foreign origins: no CORS headers at all', async () => {
    const origin = { Origin: 'https://evil.example' }
    const corsHeaders = (res: Response) =>
      [...res.headers.keys()].filter((name) => name.toLowerCase().startsWith('access-control-'))
    const preflight = await fetch(`${base}/uploads/`, {
      method: 'OPTIONS',
      headers: { ...origin, 'Access-Control-Request-Method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(corsHeaders(preflight)).toEqual([])
    const created = await fetch(`${base}/uploads/`, {
      method: 'POST',
      headers: {
        ...origin,
        Authorization: 'Bearer alice-token',
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '4',
        'Upload-Metadata': `kind ${btoa('thumbnail')}`,
      },
    })
    expect(created.status).toBe(201)
    expect(corsHeaders(created)).toEqual([])
    const path = created.headers.get('location')!
    const head = await fetch(`${base}${path}`, {
      method: 'HEAD',
      headers: { ...origin, Authorization: 'Bearer alice-token', 'Tus-Resumable': '1.0.0' },
    })
    expect(head.status).toBe(200)
    expect(corsHeaders(head)).toEqual([])
    // The same-origin dashboard needs none: the protocol headers are all there without CORS.
    expect(head.headers.get('upload-offset')).toBe('0')
    expect(head.headers.get('upload-length')).toBe('4')
  })

  test('a claimed upload is held for its change: no PATCH or DELETE, no expiry; one claim at a time', async () => {
    const shortDir = join(root, 'short-claimed')
    const short = createTusEndpoint(shortDir, 200)
    const part = join(root, 'part-to-claim')
    await Bun.write(part, mp4)
    const id = await short.register(part, 'video', 'alice')
    const req = (method: string) =>
      short.handle(
        new Request(`http://local/uploads/${id}`, {
          method,
          headers: { 'Tus-Resumable': '1.0.0' },
        }),
        'alice',
      )
    expect(short.claim(id)).toBe(true)
    expect(short.claim(id)).toBe(false)
    const refused = await req('DELETE')
    expect(refused.status).toBe(423)
    expect(await refused.text()).toBe(
      'This upload is being saved with a video. Try again in a moment',
    )
    expect((await req('HEAD')).status).toBe(200)
    await Bun.sleep(300)
    // Past its expiry, but its change still holds it: the clean-up leaves it for the change.
    expect(await short.cleanUp()).toBe(0)
    expect(await readdir(shortDir)).toContain(id)
    short.unclaim(id)
    expect(await short.cleanUp()).toBe(1)
    expect(await readdir(shortDir)).toEqual([])
  })

  testSkipIf(!Bun.which('node') && 'needs node on PATH')(
    "the 423 of a claimed upload reaches Node's http client and superagent",
    async () => {
      const created = await alice().create(mp4.length, { kind: 'video' })
      const path = created.headers.get('location')!
      expect(tus.claim(idOf(path))).toBe(true)
      try {
        const headers = {
          Authorization: 'Bearer alice-token',
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': '0',
          'Content-Type': 'application/offset+octet-stream',
        }
        for (const client of ['http', 'superagent']) {
          const config = {
            base,
            client,
            bodyBytes: 8 * 1024 * 1024,
            requests: Array(5).fill({ path, headers }),
          }
          const script = join(
            import.meta.dir,
            '..',
            '..',
            'testkit',
            'fixtures',
            'refused-patches.mjs',
          )
          const proc = Bun.spawn(['node', script, JSON.stringify(config)], { stdout: 'pipe' })
          expect(JSON.parse(await new Response(proc.stdout).text())).toEqual(Array(5).fill(423))
        }
      } finally {
        tus.unclaim(idOf(path))
      }
    },
    60_000,
  )

  test('register turns a file on disk into a finished upload of its owner', async () => {
    const path = join(root, 'part')
    await Bun.write(path, mp4)
    const id = await tus.register(path, 'video', 'alice')
    const found = await tus.finished(id, 'alice')
    expect(found.ok && found.upload.size).toBe(mp4.length)
    await tus.release(id)
    expect((await tus.finished(id, 'alice')).ok).toBe(false)
    expect(await readdir(dir)).not.toContain(id)
  })
})
