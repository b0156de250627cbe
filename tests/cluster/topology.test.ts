// The whole topology of "Growing past one machine", as an operator runs it: two servers
// (`bun src/server.ts`, MEDIA_WORKERS=0, a DATA_DIR each) and one media worker (`bun src/worker.ts`,
// its own DATA_DIR) on one PostgreSQL database and one bucket, behind nginx round robin with the
// repository's deploy/nginx.conf. A visitor and the studio's owner use the balancer's address
// only; the test reaches past it to a server only to see what that server answers.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { S3Config } from '../../src/config.ts'
import { fixtures } from '../../testkit/media.ts'
import { type Balancer, type LoggedRequest, NGINX, startProxy } from '../../testkit/nginx.ts'
import { makeClip, settled, type VideoAnswer, watchVideo } from '../../testkit/pipeline.ts'
import { dropBucket, makeBucket, s3Available, s3Env } from '../../testkit/s3.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, type E2EServer, startServer } from '../../testkit/server.ts'
import { describeSkipIf } from '../../testkit/skip.ts'
import { tusRaw } from '../../testkit/tus.ts'

// The database first: without it the S3 engine is not even asked for (its start takes minutes).
const reason =
  (!process.env.TEST_DATABASE_URL &&
    'needs TEST_DATABASE_URL: only a database server is shared by several servers') ||
  s3Available().reason ||
  (!NGINX && 'no nginx on this machine (Debian: nginx-light) to balance the servers')

/** The change poll's period (a second), plus its query and the list's own. */
const FOLLOWS_WITHIN_MS = 1500

type PublicVideo = { _id: string; title: string; hlsUrl: string | null }

describeSkipIf(reason)(
  'two servers and a media worker on one database and one bucket, behind nginx',
  () => {
    let bucket: S3Config
    let work: string
    let a: E2EServer
    let b: E2EServer
    let proxy: Balancer
    let worker: ReturnType<typeof Bun.spawn> | undefined
    let workerOutput = ''
    let token: string
    let video: VideoAnswer
    /** A segment of the video's stream, as a player asks for it. */
    let segmentUrl: string

    const refusedLogins = (lines: LoggedRequest[]) => lines.filter((r) => r.label === 'locked')
    /** Through the balancer, as a browser would. */
    const viaProxy = (path: string, init?: RequestInit) => fetch(`${proxy.url}${path}`, init)
    const login = (base: string, password: string, label = '-') =>
      fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-test-label': label },
        body: JSON.stringify({ email: ADMIN_EMAIL, password }),
      })
    const publicVideos = async (base: string, label = '-') => {
      const res = await fetch(`${base}/api/public/videos`, { headers: { 'x-test-label': label } })
      expect(res.status).toBe(200)
      return ((await res.json()) as { data: { videos: PublicVideo[] } }).data.videos
    }

    /** `bun src/worker.ts` on the servers' database and bucket, with a DATA_DIR of its own. */
    async function startWorker() {
      const dataDir = join(work, 'worker')
      Bun.spawnSync(['mkdir', '-p', dataDir])
      const proc = Bun.spawn([process.execPath, 'src/worker.ts'], {
        cwd: join(import.meta.dir, '..', '..'),
        env: {
          ...process.env,
          ...s3Env(bucket),
          NODE_ENV: 'production',
          DATABASE_URL: a.databaseUrl!,
          DATA_DIR: dataDir,
          ADMIN_PASSWORD,
          MEDIA_WORKERS: '1',
          MEDIA_POLL_SECONDS: '1',
        },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      worker = proc
      for (const stream of [proc.stdout, proc.stderr]) {
        void (async () => {
          for await (const chunk of stream) workerOutput += new TextDecoder().decode(chunk)
        })()
      }
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await Bun.sleep(50)) {
        if (workerOutput.includes('Media worker ready')) return
        if (proc.exitCode !== null) break
      }
      throw new Error(`the worker did not start:\n${workerOutput}`)
    }

    beforeAll(async () => {
      bucket = await makeBucket()
      work = mkdtempSync(join(tmpdir(), 'cluster-'))
      // As compose.yaml has it: the servers only answer requests, and trust the balancer's
      // X-Forwarded-For for the visitor's address (sign-in limits count by it).
      const env = { ...s3Env(bucket), MEDIA_WORKERS: '0', TRUSTED_PROXIES: '127.0.0.1' }
      a = await startServer(env)
      b = await startServer(env, { databaseOf: a })
      expect(b.dataDir).not.toBe(a.dataDir)
      proxy = await startProxy(work, [a.port, b.port])
    }, 120_000)
    afterAll(async () => {
      if (worker && worker.exitCode === null) {
        worker.kill('SIGTERM')
        await Promise.race([worker.exited, Bun.sleep(10_000)])
        worker.kill('SIGKILL')
        await worker.exited
      }
      await proxy?.stop()
      // The server sharing the other's database first: the first one's stop drops that database.
      await b?.stop()
      await a?.stop()
      if (bucket) await dropBucket(bucket)
      if (work) rmSync(work, { recursive: true, force: true })
    }, 60_000)

    test('sign in, a tus upload whose PATCHes land on both servers, processed by the worker alone, streamed by both servers', async () => {
      const signedIn = await login(proxy.url, ADMIN_PASSWORD)
      expect(signedIn.status).toBe(200)
      token = ((await signedIn.json()) as { data: { token: string } }).data.token

      const clip = await Bun.file(
        await makeClip(work, 'clip.mp4', { seconds: 3, width: 320, height: 180 }),
      ).bytes()
      const tus = tusRaw(proxy.url, token)
      const created = await tus.create(clip.length, {
        kind: 'video',
        filename: 'clip.mp4',
        filetype: 'video/mp4',
      })
      expect(created.status).toBe(201)
      const path = new URL(created.headers.get('location')!, 'http://x').pathname
      // Four PATCHes one after the other, each where the balancer sends it.
      const piece = Math.ceil(clip.length / 4)
      for (let offset = 0; offset < clip.length; ) {
        const res = await tus.patch(path, offset, clip.subarray(offset, offset + piece))
        expect(res.status).toBe(204)
        offset = Number(res.headers.get('upload-offset'))
      }
      const ofUpload = (lines: LoggedRequest[]) =>
        lines.filter((r) => r.method === 'PATCH' && r.uri === path)
      const patches = ofUpload(await proxy.log((lines) => ofUpload(lines).length >= 4))
      expect(patches).toHaveLength(4)
      expect(new Set(patches.map((r) => r.tried.at(-1)))).toEqual(new Set([a.port, b.port]))

      const f = await fixtures()
      const send = async (file: string, kind: string) => {
        const bytes = await Bun.file(file).bytes()
        const made = await tus.create(bytes.length, { kind })
        const at = new URL(made.headers.get('location')!, 'http://x').pathname
        expect((await tus.patch(at, 0, bytes)).status).toBe(204)
        return at.split('/').at(-1)!
      }
      const uploads = {
        video: path.split('/').at(-1)!,
        thumbnail: await send(f.jpg, 'thumbnail'),
        brandLogo: await send(f.png, 'brandLogo'),
      }
      const res = await viaProxy('/trpc/videos.create', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Across the cluster', description: '', uploads }),
      })
      expect(res.status).toBe(200)
      // biome-ignore lint/suspicious/noExplicitAny: a tRPC answer read by path
      const id = ((await res.json()) as any).result.data.video._id as string

      // No worker yet: the servers (MEDIA_WORKERS=0) leave the job alone.
      const waiting = await watchVideo(viaProxy, token, id, (v) => v.status !== 'queued', {
        timeoutMs: 1500,
      }).catch((e: Error) => e)
      expect(waiting).toBeInstanceOf(Error)
      expect((waiting as Error).message).toContain('still queued:0')

      await startWorker()
      const { video: done, seen } = await watchVideo(viaProxy, token, id, settled, {
        timeoutMs: 45_000,
      })
      expect(done.error).toBeNull()
      expect(done.status).toBe('ready')
      expect(seen.some((state) => state.startsWith('processing:'))).toBe(true)
      video = done

      // Each server serves the stream from the bucket, straight from itself and through nginx.
      const listed = (await publicVideos(a.url)).find((v) => v._id === id)!
      const master = listed.hlsUrl!
      expect(master).toMatch(/^\/media\/.+\/master\.m3u8$/)
      const base = master.slice(0, master.lastIndexOf('/') + 1)
      for (const server of [a.url, b.url, proxy.url]) {
        const playlist = await fetch(`${server}${master}`)
        expect(playlist.status).toBe(200)
        // A playlist is cached briefly; a segment never changes under its URL.
        expect(playlist.headers.get('cache-control')).toBe('public, max-age=60')
        const text = await playlist.text()
        expect(text).toStartWith('#EXTM3U')
        const rendition = text.split('\n').find((line) => line.endsWith('.m3u8'))!
        const index = await (await fetch(`${server}${base}${rendition}`)).text()
        const segment = index.split('\n').find((line) => line.endsWith('.m4s'))!
        segmentUrl = `${base}${rendition.slice(0, rendition.lastIndexOf('/') + 1)}${segment}`
        const whole = await fetch(`${server}${segmentUrl}`)
        expect(whole.status).toBe(200)
        expect(whole.headers.get('cache-control')).toContain('immutable')
        const size = (await whole.arrayBuffer()).byteLength
        expect(size).toBeGreaterThan(100)
        const part = await fetch(`${server}${segmentUrl}`, { headers: { range: 'bytes=0-99' } })
        expect(part.status).toBe(206)
        expect(part.headers.get('content-range')).toBe(`bytes 0-99/${size}`)
        expect(part.headers.get('cache-control')).toContain('immutable')
        expect((await part.arrayBuffer()).byteLength).toBe(100)
      }
    }, 90_000)

    test("a title edited through server A is in server B's public list within a second", async () => {
      // B answers first, so its list is cached when A changes the title.
      expect((await publicVideos(b.url)).map((v) => v.title)).toContain('Across the cluster')
      const edited = await fetch(`${a.url}/api/videos/${video._id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Across the cluster, edited' }),
      })
      expect(edited.status).toBe(200)
      const started = performance.now()
      const onB = async () => (await publicVideos(b.url)).map((v) => v.title)
      while (!(await onB()).includes('Across the cluster, edited')) {
        if (performance.now() - started > FOLLOWS_WITHIN_MS * 3) break
        await Bun.sleep(25)
      }
      expect(performance.now() - started).toBeLessThan(FOLLOWS_WITHIN_MS)
      expect(await onB()).toEqual(['Across the cluster, edited'])
    }, 30_000)

    test('ten bad passwords through server A, then the right one through server B and through the balancer: 429', async () => {
      for (let i = 0; i < 10; i++) expect((await login(a.url, 'wrong-password')).status).toBe(401)
      const refused = await login(b.url, ADMIN_PASSWORD)
      expect(refused.status).toBe(429)
      expect(await refused.json()).toEqual({
        status: 'error',
        message: 'Too many attempts. Please try again in 15 minutes.',
      })
      // The balancer's X-Forwarded-For names the same visitor: refused on whichever server.
      for (let i = 0; i < 2; i++) {
        expect((await login(proxy.url, ADMIN_PASSWORD, 'locked')).status).toBe(429)
      }
      const answered = refusedLogins(await proxy.log((lines) => refusedLogins(lines).length >= 2))
      expect(new Set(answered.map((r) => r.tried.at(-1)))).toEqual(new Set([a.port, b.port]))
    }, 30_000)

    test('with server A killed (SIGKILL), the balancer still answers: the public list, a segment, the owner', async () => {
      await a.kill()
      const label = { 'x-test-label': 'killed' }
      for (let i = 0; i < 4; i++) {
        const listed = await publicVideos(proxy.url, 'killed')
        expect(listed.map((v) => v.title)).toEqual(['Across the cluster, edited'])
        const part = await viaProxy(segmentUrl, { headers: { range: 'bytes=0-9', ...label } })
        expect(part.status).toBe(206)
        expect((await part.arrayBuffer()).byteLength).toBe(10)
        const mine = await viaProxy(`/api/videos/${video._id}`, {
          headers: { authorization: `Bearer ${token}`, ...label },
        })
        expect(mine.status).toBe(200)
      }
      const killed = (lines: LoggedRequest[]) => lines.filter((r) => r.label === 'killed')
      const after = killed(await proxy.log((lines) => killed(lines).length >= 12))
      expect(after).toHaveLength(12)
      // Every answer came from B; the first requests tried A first, found it gone, and went on.
      expect(new Set(after.map((r) => r.tried.at(-1)))).toEqual(new Set([b.port]))
      expect(after.some((r) => r.tried.length === 2 && r.tried[0] === a.port)).toBe(true)
    }, 30_000)
  },
)
