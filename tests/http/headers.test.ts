// What answers tell browsers and proxies to keep: nothing of a signed-in admin's answers
// (ASVS 5.0 14.3.2), the public list revalidated by ETag, media for a year, and a real
// /favicon.ico rather than the web app's HTML.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { type Fixtures, fixtures, form, send } from '../../testkit/videos.ts'

// The web app's public folder, which Vite copies verbatim into the built app's root.
const WEB_PUBLIC = join(import.meta.dir, '..', '..', 'web', 'public')

let t: TestApp
let f: Fixtures
let token: string
beforeAll(async () => {
  t = await startTestApp({ WEB_DIST: WEB_PUBLIC })
  f = await fixtures()
}, 120_000)
afterAll(() => t?.stop(), 60_000)
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

const auth = (tk: string | null = token) =>
  tk ? { authorization: `Bearer ${tk}` } : ({} as Record<string, string>)
const trpcGet = (procedures: string, input?: unknown) => {
  const query = new URLSearchParams()
  if (procedures.includes(',')) query.set('batch', '1')
  if (input !== undefined) query.set('input', JSON.stringify(input))
  return `/trpc/${procedures}${query.size ? `?${query}` : ''}`
}
const upload = (title: string) =>
  send(
    t,
    'POST',
    '/api/videos/upload',
    token,
    form({ title, description: 'd' }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
  )

describe('14.3.2 answers for a signed-in admin are never stored', () => {
  test('REST: the login answer and every authenticated read and write carry no-store', async () => {
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: 'owner@studio.test', password: 'owner-pass-123' },
    })
    expect(login.status).toBe(200)
    expect(login.headers.get('cache-control')).toBe('no-store')

    const created = await upload('Private')
    expect(created.status).toBe(201)
    const id = created.json.data.video._id as string
    const answers = [
      await t.call('GET', '/api/auth/me', { token }),
      await t.call('GET', '/api/videos?page=1&limit=10', { token }),
      await t.call('GET', `/api/videos/${id}`, { token }),
      await t.call('POST', '/api/videos/check-title', { token, body: { title: 'Other' } }),
      await t.call('PATCH', `/api/videos/${id}`, { token, body: { title: 'Renamed' } }),
      await t.call('GET', '/api/admins', { token }),
    ]
    for (const r of answers) {
      expect(r.status).toBe(200)
      expect(r.headers.get('cache-control')).toBe('no-store')
    }
    const fresh = await t.fetch('/api/videos/upload', {
      method: 'POST',
      headers: auth(),
      body: form(
        { title: 'Second', description: 'd' },
        { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png },
      ),
    })
    expect(fresh.status).toBe(201)
    expect(fresh.headers.get('cache-control')).toBe('no-store')
  })

  test('REST: refusals of authenticated paths are not stored either', async () => {
    const refused = [
      await t.call('GET', '/api/videos'),
      await t.call('GET', '/api/admins', { token: 'not-a-token' }),
      await t.call('GET', '/api/videos/00000000-0000-0000-0000-000000000000', { token }),
      await t.call('POST', '/api/auth/login', {
        body: { email: 'owner@studio.test', password: 'x' },
      }),
    ]
    expect(refused.map((r) => r.status)).toEqual([401, 401, 404, 401])
    for (const r of refused) expect(r.headers.get('cache-control')).toBe('no-store')
  })

  test('tRPC: authenticated queries, cached or not, and mutations carry no-store', async () => {
    await upload('Listed')
    const paths = [
      trpcGet('videos.list', { page: 1, limit: 10 }),
      trpcGet('videos.stats'),
      trpcGet('videos.list,videos.stats', { 0: { page: 1, limit: 10 } }),
      trpcGet('auth.me'),
      trpcGet('admins.list'),
    ]
    // Twice: the second answer of a cached query comes from the answer cache.
    for (const round of [1, 2]) {
      for (const path of paths) {
        const res = await t.fetch(path, { headers: auth() })
        expect([path, round, res.status]).toEqual([path, round, 200])
        expect([path, res.headers.get('cache-control')]).toEqual([path, 'no-store'])
      }
    }
    const checked = await t.fetch(trpcGet('videos.checkTitle', { title: 'Free' }), {
      headers: auth(),
    })
    expect(checked.status).toBe(200)
    expect(checked.headers.get('cache-control')).toBe('no-store')
    const loggedOut = await t.fetch('/trpc/auth.logout', {
      method: 'POST',
      headers: { ...auth(await t.login()), 'content-type': 'application/json' },
    })
    expect(loggedOut.status).toBe(200)
    expect(loggedOut.headers.get('cache-control')).toBe('no-store')
    const login = await t.fetch('/trpc/auth.login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@studio.test', password: 'owner-pass-123' }),
    })
    expect(login.status).toBe(200)
    expect(login.headers.get('cache-control')).toBe('no-store')
    const unauthorized = await t.fetch(trpcGet('videos.stats'))
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.headers.get('cache-control')).toBe('no-store')
  })
})

describe('public answers keep their caching', () => {
  test('the public list revalidates by ETag, with or without a token', async () => {
    await upload('Public')
    for (const headers of [{}, auth()]) {
      const res = await t.fetch('/api/public/videos', { headers })
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate')
      const etag = res.headers.get('etag')
      expect(etag).toBeTruthy()
      const again = await t.fetch('/api/public/videos', { headers: { 'if-none-match': etag! } })
      expect(again.status).toBe(304)
    }
    const viaTrpc = await t.fetch(trpcGet('videos.publicList'))
    expect(viaTrpc.status).toBe(200)
    expect(viaTrpc.headers.get('cache-control')).toBe('private, max-age=0, must-revalidate')
    expect(viaTrpc.headers.get('etag')).toBeTruthy()
  })

  test('images are cached for a year, immutable; a master is never kept by a shared cache', async () => {
    const created = await upload('Media')
    const video = created.json.data.video as Record<string, string>
    for (const url of [video.thumbnailUrl, video.brandLogoUrl]) {
      const res = await t.fetch(new URL(url!, 'http://localhost').pathname)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      await res.arrayBuffer()
    }
    // Until its streams exist the master is what plays, but it closes once they do
    // (docs/decisions/059-a-master-for-admins-once-streams-exist-signed-links.md), so no cache may
    // keep a copy past that moment.
    const master = await t.fetch(new URL(video.videoUrl!, 'http://localhost').pathname)
    expect(master.status).toBe(200)
    expect(master.headers.get('cache-control')).toBe('private, no-cache')
    await master.arrayBuffer()
  })
})

describe('/favicon.ico', () => {
  test('is an icon of 16, 32 and 48 pixels, not the web app page', async () => {
    const res = await t.fetch('/favicon.ico')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/x-icon')
    const bytes = new Uint8Array(await res.arrayBuffer())
    const view = new DataView(bytes.buffer)
    // ICONDIR: reserved 0, type 1 (icon), then one 16-byte entry per image.
    expect([view.getUint16(0, true), view.getUint16(2, true)]).toEqual([0, 1])
    const count = view.getUint16(4, true)
    const sizes: number[] = []
    for (let i = 0; i < count; i++) {
      const entry = 6 + i * 16
      const size = view.getUint32(entry + 8, true)
      const offset = view.getUint32(entry + 12, true)
      expect(offset + size).toBeLessThanOrEqual(bytes.length)
      // Each image is a PNG whose header states the entry's width.
      const png = bytes.subarray(offset, offset + size)
      expect([...png.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47])
      const width = new DataView(png.buffer, png.byteOffset).getUint32(16)
      expect(width).toBe(bytes[entry] || 256)
      sizes.push(width)
    }
    expect(sizes).toEqual([16, 32, 48])
  })

  test('a missing file of the build is a 404, not the web app page; other paths get the app', async () => {
    for (const path of ['/assets/index-gone.js', '/fonts/gone.woff2', '/hero/gone.avif']) {
      const res = await t.fetch(path)
      expect([path, res.status]).toEqual([path, 404])
      expect(res.headers.get('content-type') ?? '').not.toContain('text/html')
    }
    // Any unknown path shows the landing page, also one that looks like a file name: as a 404
    // (docs/decisions/057-unknown-paths-are-the-landing-page-as-a-404.md). The app's own paths are
    // the app, 200.
    for (const [path, status] of [
      ['/dashboard/manage', 200],
      ['/old-site/index.html', 404],
      ['/apple-touch-icon.png', 404],
    ] as const) {
      const page = await t.fetch(path)
      expect([path, page.status]).toEqual([path, status])
      expect(page.headers.get('content-type')).toContain('text/html')
    }
  })
})
