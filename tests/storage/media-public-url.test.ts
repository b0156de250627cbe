// MEDIA_PUBLIC_URL on a real S3 bucket with the policy README.md prescribes (anyone may read
// `public/*`, nothing else;
// docs/decisions/073-public-media-stream-by-default-redirect-with-media-public-url.md,
// docs/decisions/087-public-copies-under-public-for-shown-works-only.md): a shown work's streams,
// MP4s, thumbnail and logo answer 302 to their public copy, and the player's whole HLS tree loads
// from there; a master, a hidden work's files, a signed prefix and a review link's path keep
// streaming through the app with their checks. Hiding a work, revoking a link or deleting the work
// leaves nothing of it readable at the bucket's public address, whatever URL a visitor kept.
// Without MEDIA_PUBLIC_URL /media streams as before (tests/storage/app-on-s3.test.ts).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import type { S3Config } from '../../src/config.ts'
import { loadConfig } from '../../src/config.ts'
import { fixtures, plainMediaUrl } from '../../testkit/media.ts'
import {
  makeClip,
  settled,
  uploadVideo,
  type VideoAnswer,
  watchVideo,
} from '../../testkit/pipeline.ts'
import { pollUntil } from '../../testkit/poll.ts'
import {
  bucketKeys,
  dropBucket,
  makeBucket,
  publishPublicPrefixes,
  s3Available,
  s3Env,
} from '../../testkit/s3.ts'
import { describeSkipIf } from '../../testkit/skip.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

const COPY = /^public\/[0-9a-f]{32}\//
/** An answer of the bucket's public address for a URL, read anonymously. */
const anonymous = async (url: string) => {
  const res = await fetch(url)
  await res.arrayBuffer()
  return res.status
}

const keyOf = (path: string) => {
  const name = path.slice('/media/'.length)
  if (name.includes('/')) return `streams/${name}`
  return /\.(mp4|webm|ogv)$/.test(name) ? `masters/${name}` : `images/${name}`
}

describe('MEDIA_PUBLIC_URL in the configuration', () => {
  const base = { S3_BUCKET: 'media', S3_ENDPOINT: 'http://127.0.0.1:7480' }
  test('an http(s) URL, kept without its trailing slash', () => {
    const config = loadConfig({ ...base, MEDIA_PUBLIC_URL: 'https://cdn.example.com/media/' })
    expect(config.mediaPublicUrl).toBe('https://cdn.example.com/media')
    expect(loadConfig(base).mediaPublicUrl).toBeUndefined()
  })
  test('anything else, or no bucket, stops the start in one line', () => {
    expect(() => loadConfig({ ...base, MEDIA_PUBLIC_URL: 'cdn.example.com' })).toThrow(
      'Invalid configuration: MEDIA_PUBLIC_URL must start with http:// or https://',
    )
    expect(() => loadConfig({ MEDIA_PUBLIC_URL: 'https://cdn.example.com' })).toThrow(
      'Invalid configuration: MEDIA_PUBLIC_URL needs S3_BUCKET',
    )
  })
})

describeSkipIf(s3Available().reason)(
  'a shown work’s public files redirect to MEDIA_PUBLIC_URL',
  () => {
    let bucket: S3Config
    let publicUrl: string
    let t: TestApp
    let token: string
    let dir: string
    let video: VideoAnswer & { slug?: string }

    const get = async (path: string, headers: Record<string, string> = {}) =>
      t.fetch(path, { headers, redirect: 'manual' })
    const bearer = () => ({ authorization: `Bearer ${token}` })
    const setPublished = async (published: boolean) => {
      const r = await t.call('PUT', `/api/videos/${video._id}/published`, {
        token,
        body: { published },
      })
      expect(r.status).toBe(200)
    }
    /** The public copy's URL a redirect of `path` names, once the copy is complete. */
    const copyUrl = async (path: string) => {
      const res = await pollUntil(
        () => get(path),
        (r) => r.status === 302,
        {
          what: `a public copy of ${path}`,
          timeoutMs: 60_000,
          everyMs: 200,
          show: (r) => `${r.status}`,
        },
      )
      const location = res.headers.get('location')!
      expect(location.slice(publicUrl.length + 1).replace(COPY, '')).toBe(keyOf(path))
      return location
    }
    /** The work's files at the bucket's public address: its public copies' keys. */
    const copiesOfWork = async () => {
      const names = [video.thumbnailUrl, video.brandLogoUrl, video.hlsUrl!].map(
        (url) => url.slice('/media/'.length).split('/')[0]!,
      )
      return (await bucketKeys(bucket)).filter(
        (key) => key.startsWith('public/') && names.some((name) => key.includes(`/${name}`)),
      )
    }
    /** The bytes of a key, read through the app's storage. */
    const stored = async (key: string) => {
      const read = await t.storage.read(key)
      if (!read) throw new Error(`no ${key} in the bucket`)
      return new Uint8Array(await new Response(read.body).arrayBuffer())
    }
    /** Every URL of an HLS tree, each resolved against the URL its playlist was fetched from. */
    async function crawl(master: string, load: (url: string) => Promise<Response>) {
      const seen: string[] = []
      const queue = [master]
      while (queue.length) {
        const url = queue.shift()!
        seen.push(url)
        if (!url.endsWith('.m3u8')) continue
        const res = await load(url)
        expect([url, res.status]).toEqual([url, 200])
        const text = await res.text()
        const uris = [
          ...text.split('\n').filter((line) => line.trim() && !line.startsWith('#')),
          ...[...text.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!),
        ]
        for (const uri of uris) {
          const next = new URL(uri.trim(), url).href
          if (!seen.includes(next) && !queue.includes(next)) queue.push(next)
        }
      }
      return seen
    }

    beforeAll(async () => {
      bucket = await makeBucket()
      publicUrl = await publishPublicPrefixes(bucket)
      dir = mkdtempSync(join(tmpdir(), 'media-public-url-'))
      writeFileSync(join(dir, 'index.html'), '<!doctype html><html lang="en"><title>Studio</title>')
      t = await startTestApp({
        ...s3Env(bucket),
        MEDIA_PUBLIC_URL: `${publicUrl}/`,
        WEB_DIST: dir,
        MEDIA_WORKERS: '1',
        MEDIA_POLL_SECONDS: '1',
      })
      token = await t.login()
      const clip = await makeClip(dir, 'clip.mp4', { seconds: 2, width: 320, height: 180 })
      const made = await uploadVideo((p, i) => t.fetch(p, i), token, clip, 'Public on a CDN')
      const done = await watchVideo((p, i) => t.fetch(p, i), token, made._id, settled, {
        timeoutMs: 240_000,
      })
      expect(done.video.status).toBe('ready')
      video = done.video
    }, 300_000)
    afterAll(async () => {
      await t?.stop()
      if (bucket) await dropBucket(bucket)
      rmSync(dir, { recursive: true, force: true })
    }, 60_000)

    test('the bucket policy of docs/storage.md lets anyone read public/* and nothing else', async () => {
      const name = `${'ab'.repeat(16)}.jpg`
      const keys = [`images/${name}`, `public/${'cd'.repeat(16)}/images/${name}`]
      for (const key of keys) {
        await t.storage.write(key, new Response('jpeg bytes').body!, { type: 'image/jpeg' })
      }
      try {
        expect(await anonymous(`${publicUrl}/${keys[1]}`)).toBe(200)
        expect(await anonymous(`${publicUrl}/${keys[0]}`)).toBe(403)
      } finally {
        await t.storage.delete(keys)
      }
    })

    test('streams, MP4s, thumbnail and logo answer 302 to their public copy; the Location holds the same bytes', async () => {
      const files = [video.thumbnailUrl, video.brandLogoUrl, video.mp4Url!, video.previewUrl!]
      for (const path of files) {
        const location = await copyUrl(path)
        const res = await get(path)
        expect(res.headers.get('location')).toBe(location)
        // A redirect names a copy a later hide removes: browsers keep it briefly.
        expect(res.headers.get('cache-control')).toBe('public, max-age=60')
        const there = await fetch(location)
        expect(there.status).toBe(200)
        // A CDN keeps a copy at most five minutes; a browser as long as the app's own answer.
        expect(there.headers.get('cache-control')).toBe(
          'public, max-age=31536000, immutable, s-maxage=300',
        )
        expect(new Uint8Array(await there.arrayBuffer())).toEqual(await stored(keyOf(path)))
        // The original at its own key is private.
        expect(await anonymous(`${publicUrl}/${keyOf(path)}`)).toBe(403)
      }
      expect(await stored(keyOf(video.thumbnailUrl))).toEqual(
        await Bun.file((await fixtures()).jpg).bytes(),
      )
      // A range is the bucket's to answer, as a player asks it after the redirect.
      const part = await fetch(await copyUrl(video.mp4Url!), { headers: { range: 'bytes=10-19' } })
      expect(part.status).toBe(206)
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(
        (await stored(keyOf(video.mp4Url!))).subarray(10, 20),
      )
    })

    test('the master playlist redirects, and its whole tree loads from the public copy', async () => {
      const location = await copyUrl(video.hlsUrl!)
      const base = location.slice(0, location.indexOf('/streams/'))
      // Relative URIs resolve against the redirected URL: renditions and segments come from there.
      const tree = await crawl(location, (url) => fetch(url))
      expect(tree.filter((url) => url.endsWith('.m4s')).length).toBeGreaterThan(1)
      for (const url of tree) {
        expect(url.startsWith(`${base}/streams/`)).toBe(true)
        const there = await fetch(url)
        expect([url, there.status]).toEqual([url, 200])
        const key = url.slice(base.length + 1)
        expect(new Uint8Array(await there.arrayBuffer())).toEqual(await stored(key))
        // Each of them redirects the same way when a player asks the app.
        const app = await get(`/media/${key.slice('streams/'.length)}`)
        await app.arrayBuffer()
        expect([url, app.status, app.headers.get('location')]).toEqual([url, 302, url])
        // Its original is private at the public address.
        expect([url, await anonymous(`${publicUrl}/${key}`)]).toEqual([url, 403])
      }
    })

    test('pages allow media and images from the public origin', async () => {
      const res = await get('/')
      await res.arrayBuffer()
      const csp = res.headers.get('content-security-policy')!
      const origin = new URL(publicUrl).origin
      for (const directive of ['img-src', 'media-src', 'connect-src']) {
        expect(csp).toMatch(new RegExp(`${directive} 'self' ${origin.replace(/[.:/]/g, '\\$&')}`))
      }
      // The embeddable player writes its own policy.
      const { slug } = (await t.call('GET', `/api/videos/${video._id}`, { token })).json.data.video
      const embed = await get(`/work/${slug}/embed`)
      expect(embed.status).toBe(200)
      await embed.arrayBuffer()
      const own = embed.headers.get('content-security-policy')!
      expect(own).toContain(`media-src 'self' ${origin};`)
      expect(own).toContain(`img-src 'self' ${origin};`)
    })

    test('the master never redirects: closed to visitors once streams exist, streamed to an admin', async () => {
      const master = plainMediaUrl(video.videoUrl)
      const bytes = await stored(keyOf(master))
      const visitor = await get(master)
      await visitor.arrayBuffer()
      expect(visitor.status).toBe(404)
      // By the admin's session, and by the signed prefix the admin's answer carries.
      expect(video.videoUrl).not.toBe(master)
      for (const [path, headers] of [
        [master, bearer()],
        [video.videoUrl, {}],
      ] as const) {
        const res = await get(path, headers)
        expect([path, res.status, res.headers.get('location')]).toEqual([path, 200, null])
        expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
      }
      // The bucket keeps masters private: its public URL has none to give, and no copy exists.
      expect(await anonymous(`${publicUrl}/${keyOf(master)}`)).toBe(403)
      expect((await bucketKeys(bucket)).filter((key) => key.includes('/masters/'))).toEqual([])
    })

    test('after a hide, and after its review link is revoked, nothing of the work answers at the public address', async () => {
      // Everything a visitor could have kept while the work was shown: every copy's URL.
      const kept = [
        ...(await crawl(await copyUrl(video.hlsUrl!), (url) => fetch(url))),
        ...(await Promise.all(
          [video.thumbnailUrl, video.brandLogoUrl, video.mp4Url!, video.previewUrl!].map(copyUrl),
        )),
      ]
      for (const url of kept) expect([url, await anonymous(url)]).toEqual([url, 200])
      const originals = kept.map(
        (url) => `${publicUrl}/${url.slice(publicUrl.length + 1).replace(COPY, '')}`,
      )

      await setPublished(false)
      try {
        // As soon as the hide has answered.
        for (const url of [...kept, ...originals]) {
          expect([url, await anonymous(url)]).toEqual([url, 403])
        }
        expect(await copiesOfWork()).toEqual([])

        // A review link hands its holder the folder's name; revoked, it opens nothing anywhere.
        const made = await t.call('POST', `/api/videos/${video._id}/links`, { token, body: {} })
        expect(made.status).toBe(201)
        const linkPath = new URL(made.json.data.link.url as string).pathname.replace(/\/$/, '')
        const folderPath = video.hlsUrl!.slice('/media/'.length)
        const viaLink = await get(`${linkPath}/media/${folderPath}`)
        expect(viaLink.status).toBe(200)
        await viaLink.arrayBuffer()
        const revoked = await t.call(
          'DELETE',
          `/api/videos/${video._id}/links/${made.json.data.link._id}`,
          {
            token,
          },
        )
        expect(revoked.status).toBe(200)
        const afterRevoke = await get(`${linkPath}/media/${folderPath}`)
        await afterRevoke.arrayBuffer()
        expect(afterRevoke.status).toBe(410)
        for (const url of [...kept, ...originals]) {
          expect([url, await anonymous(url)]).toEqual([url, 403])
        }
        expect(await copiesOfWork()).toEqual([])
      } finally {
        await setPublished(true)
      }
      // Shown again: new copies under a new id; what was kept from before stays closed.
      const again = await copyUrl(video.hlsUrl!)
      expect(kept).not.toContain(again)
      expect(await anonymous(again)).toBe(200)
      for (const url of kept) expect([url, await anonymous(url)]).toEqual([url, 403])
    })

    test('a hidden work’s files, its signed prefixes and a review link’s path stream through the app', async () => {
      await setPublished(false)
      try {
        const plain = [video.thumbnailUrl, video.brandLogoUrl, video.hlsUrl!, video.mp4Url!]
        for (const path of plain) {
          const visitor = await get(path)
          await visitor.arrayBuffer()
          expect([path, visitor.status]).toEqual([path, 404])
          const admin = await get(path, bearer())
          expect([path, admin.status, admin.headers.get('location')]).toEqual([path, 200, null])
          expect(admin.headers.get('cache-control')).toBe('private, no-cache')
          expect(new Uint8Array(await admin.arrayBuffer())).toEqual(await stored(keyOf(path)))
        }

        // The admin's answer for a hidden work carries signed prefixes.
        const hidden = (await t.call('GET', `/api/videos/${video._id}`, { token })).json.data
          .video as VideoAnswer
        expect(hidden.hlsUrl).toMatch(/^\/media\/s\/\d+\/[\w-]{43}\/[0-9a-f]{32}\/master\.m3u8$/)
        const signedTree = await crawl(`http://studio.test${hidden.hlsUrl!}`, (url) =>
          get(new URL(url).pathname),
        )
        for (const url of [
          ...signedTree.map((u) => new URL(u).pathname),
          hidden.thumbnailUrl,
          hidden.mp4Url!,
        ]) {
          const res = await get(url)
          expect([url, res.status, res.headers.get('location')]).toEqual([url, 200, null])
          await res.arrayBuffer()
        }

        // A review link's paths.
        const made = await t.call('POST', `/api/videos/${video._id}/links`, { token, body: {} })
        expect(made.status).toBe(201)
        const linkPath = new URL(made.json.data.link.url as string).pathname.replace(/\/$/, '')
        const folderPath = video.hlsUrl!.slice('/media/'.length)
        const reviewTree = await crawl(`http://studio.test${linkPath}/media/${folderPath}`, (url) =>
          get(new URL(url).pathname),
        )
        expect(reviewTree.filter((url) => url.endsWith('.m4s')).length).toBeGreaterThan(1)
        for (const url of reviewTree.map((u) => new URL(u).pathname)) {
          const res = await get(url)
          expect([url, res.status, res.headers.get('location')]).toEqual([url, 200, null])
          await res.arrayBuffer()
        }
      } finally {
        await setPublished(true)
      }
    })

    test('a start finishes a hide a crash stopped, drops strays, and copies what has no copy yet', async () => {
      const location = await copyUrl(video.thumbnailUrl)
      // A crash after a hide marked the copies, before their objects went.
      await t.app.database.db.execute(sql`update public_copies set state = 'withdrawing'`)
      // An object no row accounts for.
      const stray = `public/${'ef'.repeat(16)}/${keyOf(video.thumbnailUrl)}`
      await t.storage.copy(keyOf(video.thumbnailUrl), stray)
      expect(await anonymous(`${publicUrl}/${stray}`)).toBe(200)
      // A start finds what an upgrade from a version without copies finds: originals, no copy.
      await t.restart()
      expect(await anonymous(location)).toBe(403)
      expect(await anonymous(`${publicUrl}/${stray}`)).toBe(403)
      const again = await copyUrl(video.thumbnailUrl)
      expect(again).not.toBe(location)
      expect(await anonymous(again)).toBe(200)
    })

    test('deleting the work removes its public copies with it', async () => {
      await copyUrl(video.hlsUrl!)
      expect((await copiesOfWork()).length).toBeGreaterThan(0)
      const r = await t.call('DELETE', `/api/videos/${video._id}`, { token })
      expect(r.status).toBe(200)
      expect((await bucketKeys(bucket)).filter((key) => key.startsWith('public/'))).toEqual([])
    })
  },
)
