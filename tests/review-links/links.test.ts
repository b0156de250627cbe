// Private review links through the real app with its own worker and real ffmpeg
// (docs/decisions/063-review-links-hmac-tokens-hashed-path-scoped-cookie.md,
// docs/decisions/064-a-hidden-works-media-by-set-lookup-signed-prefixes-and-link-paths.md): a
// hidden work's files answer nobody by their old URLs; a review link opens its page and every
// playlist and segment, until it is revoked (the next segment fails) or expires (at the second); a
// password is hashed, rate-limited and earns a cookie for that link alone; tokens are stored
// hashed; an unknown token takes as long as a known one.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { reviewLinks } from '../../db/schema.ts'
import { hashToken } from '../../src/accounts/tokens.ts'
import { reviewLinkGoneMessage } from '../../src/contract/review-link.ts'
import { addressGroup } from '../../src/http/client-ip.ts'
import { plainMediaUrl } from '../../testkit/media.ts'
import {
  makeAudioOnly,
  makeClip,
  settled,
  uploadVideo,
  type VideoAnswer,
  watchVideo,
} from '../../testkit/pipeline.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
let token: string
let dir: string
let video: VideoAnswer & { slug: string; thumbnailUrl: string; brandLogoUrl: string }
const TITLE = 'Acme Mix Secret'

const bearer = () => ({ authorization: `Bearer ${token}` })
const get = (path: string, headers: Record<string, string> = {}, ip?: string) =>
  t.fetch(path, { headers, redirect: 'manual' }, ip)
const statusOf = async (path: string, headers: Record<string, string> = {}) => {
  const res = await get(path, headers)
  await res.arrayBuffer()
  return res.status
}
const pageData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html)![1]!)
const setPublished = async (published: boolean) => {
  const r = await t.call('PUT', `/api/videos/${video._id}/published`, {
    token,
    body: { published },
  })
  expect(r.status).toBe(200)
}
const makeLink = (body: Record<string, unknown> = {}) => linkTo(video._id, body)
const linkTo = async (videoId: string, body: Record<string, unknown> = {}) => {
  const r = await t.call('POST', `/api/videos/${videoId}/links`, { token, body })
  expect(r.status).toBe(201)
  const link = r.json.data.link as { _id: string; id: string; url: string; state: string }
  return { ...link, path: new URL(link.url).pathname }
}

/** Every URL a player fetches from an HLS master: playlists, init segments and media segments. */
async function crawl(master: string, headers: Record<string, string> = {}): Promise<string[]> {
  const seen: string[] = []
  const queue = [master]
  while (queue.length) {
    const url = queue.shift()!
    seen.push(url)
    if (!url.endsWith('.m3u8')) continue
    const res = await get(url, headers)
    expect(res.status).toBe(200)
    const text = await res.text()
    const uris = [
      ...text.split('\n').filter((line) => line.trim() && !line.startsWith('#')),
      ...[...text.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!),
    ]
    for (const uri of uris) {
      const next = new URL(uri.trim(), `http://localhost${url}`).pathname
      if (!seen.includes(next) && !queue.includes(next)) queue.push(next)
    }
  }
  return seen
}

/** Every media URL of the work: its files and its whole stream tree. */
async function everyUrl(v: typeof video, headers: Record<string, string> = {}) {
  const streams = await crawl(v.hlsUrl!, headers)
  return [v.videoUrl, v.thumbnailUrl, v.brandLogoUrl, v.mp4Url!, v.previewUrl!, ...streams]
}

let publicUrls: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'review-links-'))
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Studio</title><meta name="description" content="x" /></head><body><div id="root"></div></body></html>',
  )
  t = await startTestApp({ WEB_DIST: dir, MEDIA_WORKERS: '1', MEDIA_POLL_SECONDS: '1' })
  token = await t.login()
  const clip = await makeClip(dir, 'clip.mp4', { seconds: 2, width: 320, height: 180 })
  const uploaded = await uploadVideo((p, i) => t.fetch(p, i), token, clip, TITLE)
  // Hidden before its streams exist: the work never had a public life yet.
  const r = await t.call('PUT', `/api/videos/${uploaded._id}/published`, {
    token,
    body: { published: false },
  })
  expect(r.status).toBe(200)
  const done = await watchVideo(
    (p, i) => t.fetch(p, i),
    token,
    uploaded._id,
    (v) => ['ready', 'failed'].includes(v.status),
    { timeoutMs: 240_000 },
  )
  expect(done.video.status).toBe('ready')
  video = done.video as typeof video
}, 300_000)
afterAll(async () => {
  await t.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('a hidden work’s media', () => {
  test('before any public life: every URL answers 404 to a visitor; the admin answer’s signed URLs play', async () => {
    // The admin's answer holds signed prefixes for a hidden work; the plain URLs are the same
    // files' public addresses, which a visitor might have guessed or kept.
    expect(video.hlsUrl).toMatch(/^\/media\/s\/\d+\/[\w-]{43}\/[0-9a-f]{32}\/master\.m3u8$/)
    const signed = await everyUrl(video)
    expect(signed.length).toBeGreaterThan(8)
    for (const url of signed) expect(await statusOf(url)).toBe(200)
    const plain = signed.map((url) => url.replace(/^\/media\/s\/\d+\/[\w-]{43}\//, '/media/'))
    for (const url of plain) expect([url, await statusOf(url)]).toEqual([url, 404])
    // An admin's own session opens them as they are.
    for (const url of plain) expect(await statusOf(url, bearer())).toBe(200)
    // A signature of one folder opens no other name, and a forged one nothing.
    const [, expires, sig] = /^\/media\/s\/(\d+)\/([\w-]{43})\//.exec(video.hlsUrl!)!
    expect(await statusOf(`/media/s/${expires}/${sig}/${plain[1]!.slice(7)}`)).toBe(404)
    expect(await statusOf(`/media/s/${expires}/${'A'.repeat(43)}/${plain[3]!.slice(7)}`)).toBe(404)
  })

  test('made public it is public again; hidden again its old URLs answer 404 at once', async () => {
    await setPublished(true)
    const shown = (await t.call('GET', `/api/videos/${video._id}`, { token })).json.data.video
    expect(shown.hlsUrl).toMatch(/^\/media\/[0-9a-f]{32}\/master\.m3u8$/)
    publicUrls = (await everyUrl(shown)).filter((url) => url !== shown.videoUrl)
    for (const url of publicUrls) expect([url, await statusOf(url)]).toEqual([url, 200])
    const page = await get(`/work/${video.slug}`)
    expect(page.status).toBe(200)
    await page.arrayBuffer()

    await setPublished(false)
    for (const url of publicUrls) expect([url, await statusOf(url)]).toEqual([url, 404])
    // Nothing public names it: the list, the landing page, the sitemap, its page.
    expect(JSON.stringify((await t.call('GET', '/api/public/videos')).json)).not.toContain(
      video._id,
    )
    const landing = await (await get('/')).text()
    expect(landing).not.toContain(TITLE)
    expect(await (await get('/sitemap.xml')).text()).not.toContain(video.slug)
    expect(await statusOf(`/work/${video.slug}`)).toBe(404)
  })
})

describe('the REST and tRPC paths', () => {
  test('make, list newest first, and refuse bad input, strangers and unknown works', async () => {
    const a = await makeLink({ note: 'for Acme, v1' })
    const b = await makeLink({
      note: 'for Acme, v2',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    })
    expect(a.url).toMatch(/^https:\/\/studio\.test\/r\/[\w-]{43}$/)
    expect(a._id).toBe(a.id)
    const list = await t.call('GET', `/api/videos/${video._id}/links`, { token })
    expect(list.status).toBe(200)
    const listed = list.json.data.links as { id: string; url: string; note: string }[]
    expect(listed.slice(0, 2).map((l) => l.id)).toEqual([b.id, a.id])
    // The address is the same on a later read.
    expect(listed.find((l) => l.id === a.id)!.url).toBe(a.url)

    const bad = [
      [{ note: 'x'.repeat(121) }, 'note'],
      [{ expiresAt: new Date(Date.now() - 1000).toISOString() }, 'expiresAt'],
      [{ expiresAt: 'friday' }, 'expiresAt'],
      [{ password: 'abc' }, 'password'],
    ] as const
    for (const [body, field] of bad) {
      const r = await t.call('POST', `/api/videos/${video._id}/links`, { token, body })
      expect([r.status, r.json.field]).toEqual([400, field])
    }
    expect((await t.call('POST', `/api/videos/${video._id}/links`, { body: {} })).status).toBe(401)
    expect((await t.call('GET', `/api/videos/${video._id}/links`)).status).toBe(401)
    const nobody = crypto.randomUUID()
    expect((await t.call('POST', `/api/videos/${nobody}/links`, { token, body: {} })).status).toBe(
      404,
    )
    expect(
      (await t.call('DELETE', `/api/videos/${video._id}/links/${nobody}`, { token })).status,
    ).toBe(404)

    // tRPC answers the same link shape under its documented name.
    const res = await t.fetch(
      `/trpc/reviewLinks.list?input=${encodeURIComponent(JSON.stringify({ videoId: video._id }))}`,
      {
        headers: bearer(),
      },
    )
    expect(res.status).toBe(200)
    const body = (await res.json()) as { result: { data: { id: string; url: string }[] } }
    expect(body.result.data.map((l) => l.id)).toEqual(listed.map((l) => l.id))
  })

  test('tokens are stored only as their SHA-256', async () => {
    const link = await makeLink({ password: 'secret-pass' })
    const tokenText = link.path.slice(3)
    const [row] = await t.app.database.db
      .select()
      .from(reviewLinks)
      .where(eq(reviewLinks.id, link.id))
    expect(row!.tokenHash).toBe(hashToken(tokenText))
    expect(JSON.stringify(row)).not.toContain(tokenText)
    expect(row!.passwordHash).toStartWith('$argon2id$')
  })
})

describe('the review page', () => {
  test('shows the work and nothing else of the site; every playlist and segment answers through it', async () => {
    const link = await makeLink({ note: 'for Acme, v3' })
    const res = await get(link.path)
    expect(res.status).toBe(200)
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    expect(res.headers.get('x-robots-tag')).toContain('noindex')
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const html = await res.text()
    expect(html).toContain('<meta name="robots" content="noindex, nofollow" />')
    expect(html).toContain(`<title>${TITLE} — `)
    expect(html).not.toContain('og:')
    expect(html).not.toContain('application/ld+json')
    expect(html).not.toContain(`/work/${video.slug}`)
    const data = pageData(html)
    expect(data.kind).toBe('review')
    expect(data.site).toBeUndefined()
    expect(data.video.title).toBe(TITLE)
    expect(data.video.hlsUrl).toStartWith(`${link.path}/media/`)
    const urls = await everyUrl(data.video)
    for (const url of urls) {
      const r = await get(url)
      expect([url, r.status]).toEqual([url, 200])
      expect(r.headers.get('cache-control')).toBe('private, no-cache')
      await r.arrayBuffer()
    }
    // Only this work's files: another name under the link is nothing.
    expect(await statusOf(`${link.path}/media/${'ab'.repeat(16)}/master.m3u8`)).toBe(404)
    expect(await statusOf(`${link.path}/media/../db.lock`)).toBe(404)
  })

  test('a revoked link answers 410 at once, the next segment of a playing player too', async () => {
    const link = await makeLink()
    const page = await (await get(link.path)).text()
    const urls = await everyUrl(pageData(page).video)
    const segment = urls.find((u) => u.endsWith('.m4s'))!
    expect(await statusOf(segment)).toBe(200)
    const r = await t.call('DELETE', `/api/videos/${video._id}/links/${link.id}`, { token })
    expect([r.status, r.json.data]).toEqual([200, { revoked: true }])
    const gone = await get(link.path)
    expect(gone.status).toBe(410)
    const text = await gone.text()
    expect(text).toContain(reviewLinkGoneMessage)
    expect(text).not.toMatch(/Error| {4}at /)
    expect(await statusOf(segment)).toBe(410)
    for (const url of urls) expect(await statusOf(url)).toBe(410)
    // Revoking again changes nothing and is no error; the list says revoked.
    expect(
      (await t.call('DELETE', `/api/videos/${video._id}/links/${link.id}`, { token })).status,
    ).toBe(200)
    const listed = (await t.call('GET', `/api/videos/${video._id}/links`, { token })).json.data
      .links
    expect(listed.find((l: { id: string }) => l.id === link.id).state).toBe('revoked')
  })

  test('expiry holds at the second', async () => {
    const expiresAt = new Date(Math.ceil((Date.now() + 2500) / 1000) * 1000)
    const link = await makeLink({ expiresAt: expiresAt.toISOString() })
    const tokenText = link.path.slice(3)
    const links = t.app.services.reviewLinks
    expect((await links.resolve(tokenText, expiresAt.getTime() - 1)).state).toBe('active')
    expect((await links.resolve(tokenText, expiresAt.getTime())).state).toBe('gone')
    expect(await statusOf(link.path)).toBe(200)
    await Bun.sleep(Math.max(0, expiresAt.getTime() - Date.now()) + 20)
    expect(await statusOf(link.path)).toBe(410)
    const listed = (await t.call('GET', `/api/videos/${video._id}/links`, { token })).json.data
      .links
    expect(listed.find((l: { id: string }) => l.id === link.id).state).toBe('expired')
  })

  test('an unknown token answers 404 after as long as a known one', async () => {
    const revoked = await makeLink()
    await t.call('DELETE', `/api/videos/${video._id}/links/${revoked.id}`, { token })
    const locked = await makeLink({ password: 'form-first' })
    const unknown = `/r/${'Q'.repeat(43)}`
    expect(await statusOf(unknown)).toBe(404)
    const median = async (path: string) => {
      const times: number[] = []
      for (let i = 0; i < 15; i++) {
        const started = performance.now()
        await statusOf(path)
        times.push(performance.now() - started)
      }
      return times.sort((a, b) => a - b)[7]!
    }
    const [u, r, l] = [await median(unknown), await median(revoked.path), await median(locked.path)]
    console.log(
      `review link answers, median ms: unknown ${u.toFixed(1)}, revoked ${r.toFixed(1)}, password form ${l.toFixed(1)}`,
    )
    expect(u).toBeGreaterThanOrEqual(40)
    expect(Math.abs(u - r)).toBeLessThan(Math.max(15, r * 0.5))
    expect(Math.abs(u - l)).toBeLessThan(Math.max(15, l * 0.5))
  })
})

describe('a work its link cannot play (yet)', () => {
  const fetchApp = (p: string, i?: RequestInit) => t.fetch(p, i)
  const stateOf = async (path: string, headers: Record<string, string> = {}) =>
    (await get(`${path}/state`, headers)).json()
  /** The master's stored name, as an admin's answer gives it (a hidden work's under a signature). */
  const masterName = (v: VideoAnswer) => plainMediaUrl(v.videoUrl).slice('/media/'.length)

  test('while it is prepared the page says so and names no master; the master is 404 through the link, then and once ready', async () => {
    const clip = await makeClip(dir, 'later.mp4', { seconds: 4, width: 320, height: 180 })
    const later = await uploadVideo(fetchApp, token, clip, 'Later Cut')
    const master = masterName(later)
    const link = await linkTo(later._id)

    const res = await get(link.path)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const html = await res.text()
    expect(html).toContain('Still being prepared')
    expect(html).toContain('“Later Cut” is still being prepared')
    // It comes alive by itself: its script asks the link's state until the work can play.
    expect(html).toContain(`<script src="${link.path}/wait.js" defer></script>`)
    expect(html).toContain(`<a href="${link.path}">Check again</a>`)
    const script = await get(`${link.path}/wait.js`)
    expect([script.status, script.headers.get('content-type')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
    ])
    expect(await script.text()).toContain("'/state'")
    expect(await stateOf(link.path)).toEqual({ state: 'preparing' })
    expect(html).not.toContain(master)
    expect(html).not.toContain('id="page-data"')
    expect(await statusOf(`${link.path}/media/${master}`)).toBe(404)
    // What was seen above was a work in preparation, not one already done.
    const meanwhile = await t.call('GET', `/api/videos/${later._id}`, { token })
    expect(meanwhile.json.data.video.status).not.toBe('ready')
    expect(await statusOf(`${link.path}/media/${master}`)).toBe(404)

    const done = await watchVideo(fetchApp, token, later._id, settled, { timeoutMs: 240_000 })
    expect(done.video.status).toBe('ready')
    expect(await stateOf(link.path)).toEqual({ state: 'ready' })
    const ready = await get(link.path)
    expect(ready.status).toBe(200)
    const readyHtml = await ready.text()
    expect(readyHtml).not.toContain(master)
    const data = pageData(readyHtml)
    expect(data.video.videoUrl).toBe(data.video.mp4Url)
    expect(data.video.hlsUrl).toStartWith(`${link.path}/media/`)
    expect(await statusOf(data.video.hlsUrl)).toBe(200)
    expect(await statusOf(data.video.mp4Url)).toBe(200)
    expect(await statusOf(`${link.path}/media/${master}`)).toBe(404)
    // The admin still gets it, by the signed URL of the admin's answer.
    expect(await statusOf(done.video.videoUrl, bearer())).toBe(200)
  }, 300_000)

  test('a failed work: the page says it cannot be played, names no master, and serves none', async () => {
    const sound = await makeAudioOnly(dir)
    const created = await uploadVideo(fetchApp, token, sound, 'Only Sound Cut')
    const link = await linkTo(created._id, { password: 'failed-pass' })
    const done = await watchVideo(fetchApp, token, created._id, settled, { timeoutMs: 120_000 })
    expect(done.video.status).toBe('failed')
    const master = masterName(done.video)

    const right = await t.fetch(
      link.path,
      {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'password=failed-pass',
      },
      '10.9.9.9',
    )
    expect(right.status).toBe(303)
    const cookie = right.headers.get('set-cookie')!.split(';')[0]!
    const res = await get(link.path, { cookie })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Cannot be played')
    expect(html).toContain('“Only Sound Cut” cannot be played')
    expect(html).not.toContain(master)
    expect(html).not.toContain('wait.js')
    expect(await stateOf(link.path, { cookie })).toEqual({ state: 'failed' })
    // Without the password's cookie the link tells nothing of its work.
    expect((await t.call('GET', `${link.path}/state`)).status).toBe(404)
    expect(await statusOf(`${link.path}/media/${master}`, { cookie })).toBe(404)
    expect(await statusOf(`${link.path}/media/${master}`)).toBe(404)
  }, 180_000)
})

describe('a password', () => {
  const post = (path: string, password: string, ip: string, cookie?: string) =>
    t.fetch(
      path,
      {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(cookie ? { cookie } : {}),
        },
        body: new URLSearchParams({ password }).toString(),
      },
      ip,
    )

  test('the form first; a wrong one 401; the right one a cookie for that link only', async () => {
    const a = await makeLink({ password: 'right-pass-a' })
    const b = await makeLink({ password: 'right-pass-b' })
    const form = await get(a.path)
    expect(form.status).toBe(200)
    const formHtml = await form.text()
    expect(formHtml).toContain('type="password"')
    expect(formHtml).not.toContain(TITLE)

    const wrong = await post(a.path, 'nope', '10.9.0.1')
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain('That password is not right.')

    const right = await post(a.path, 'right-pass-a', '10.9.0.1')
    expect(right.status).toBe(303)
    expect(right.headers.get('location')).toBe(a.path)
    const setCookie = right.headers.get('set-cookie')!
    expect(setCookie).toContain(`Path=${a.path}`)
    expect(setCookie).toContain('HttpOnly')
    expect(setCookie).toContain('SameSite=Lax')
    expect(setCookie).toContain('Secure')
    const cookie = setCookie.split(';')[0]!

    const opened = await get(a.path, { cookie })
    expect(opened.status).toBe(200)
    const data = pageData(await opened.text())
    expect(data.video.title).toBe(TITLE)
    expect(await statusOf(data.video.hlsUrl, { cookie })).toBe(200)
    expect(await statusOf(data.video.hlsUrl)).toBe(404)

    // Link A's cookie opens nothing of link B.
    const other = await get(b.path, { cookie })
    expect(await other.text()).toContain('type="password"')
    const bMedia = data.video.hlsUrl.replace(a.path, b.path)
    expect(await statusOf(bMedia, { cookie })).toBe(404)
  })

  test('ten wrong tries lock the link from that address, the right password included', async () => {
    const link = await makeLink({ password: 'right-pass-c' })
    for (let i = 0; i < 10; i++)
      expect((await post(link.path, `wrong-${i}`, '10.9.1.1')).status).toBe(401)
    const locked = await post(link.path, 'right-pass-c', '10.9.1.1')
    expect(locked.status).toBe(429)
    expect(await locked.text()).toContain('Too many tries')
    // Another address still gets in.
    expect((await post(link.path, 'right-pass-c', '10.9.2.1')).status).toBe(303)
  })

  test('a flood of wrong passwords from a few addresses never refuses the right one from a fresh address', async () => {
    const link = await makeLink({ password: 'right-pass-f' })
    const floodIps = [1, 2, 3, 4, 5].map((i) => `10.9.3.${i}`)
    const flood = new Map(floodIps.map((ip) => [ip, [] as { status: number; at: number }[]]))
    let flooding = true
    // Four loops per address: as many checks at once as one address may run.
    const loops = floodIps.flatMap((ip) =>
      Array.from({ length: 4 }, async (_, loop) => {
        // The flood goes on until the right passwords are through and, however slow the
        // machine, until this address has met its own lock.
        const locked = () => flood.get(ip)!.some((a) => a.status === 429)
        for (let i = 0; (flooding || !locked()) && i < 1000; i++) {
          const res = await post(link.path, `wrong-${loop}-${i}`, ip)
          await res.arrayBuffer()
          flood.get(ip)!.push({ status: res.status, at: performance.now() })
        }
      }),
    )
    const rights: number[] = []
    const started = performance.now()
    for (let i = 1; i <= 20; i++) {
      const res = await post(link.path, 'right-pass-f', `10.9.4.${i}`)
      await res.arrayBuffer()
      rights.push(res.status)
    }
    const ended = performance.now()
    flooding = false
    await Promise.all(loops)

    expect(rights).toEqual(Array(20).fill(303))
    const answers = [...flood.values()].flat()
    // The flood was checking passwords (401s) while the right ones were tried.
    const during = answers.filter((a) => a.status === 401 && a.at > started && a.at < ended)
    expect(during.length).toBeGreaterThan(0)
    for (const [ip, seen] of flood) {
      const statuses = seen.map((a) => a.status)
      expect([ip, statuses.every((s) => s === 401 || s === 429)]).toEqual([ip, true])
      // Each flooding address still meets its limit: 10 failures, then the lock.
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10)
      expect(statuses).toContain(429)
      const after = await post(link.path, 'right-pass-f', ip)
      expect([ip, after.status]).toEqual([ip, 429])
      await after.arrayBuffer()
    }
  }, 120_000)
})

describe('the activity log', () => {
  type Entry = { kind: string; summary: string; at: string }
  /** The link's open entries, newest first. */
  const openEntries = async (note: string): Promise<Entry[]> => {
    const log = await t.call('GET', '/api/activity?limit=100&kind=reviewLink.open', { token })
    expect(log.status).toBe(200)
    return (log.json.data.entries as Entry[]).filter((e) => e.summary.includes(`(${note})`))
  }
  const openCountOf = async (id: string) => {
    const listed = (await t.call('GET', `/api/videos/${video._id}/links`, { token })).json.data
      .links as { id: string; openCount: number }[]
    return listed.find((l) => l.id === id)!.openCount
  }
  const open = async (path: string, ip: string) => {
    const res = await get(path, {}, ip)
    expect(res.status).toBe(200)
    await res.arrayBuffer()
  }

  test('opens of a link are one entry a day (UTC), counting the opens and the addresses', async () => {
    const link = await makeLink({ note: 'thirty opens' })
    const day = new Date().toISOString().slice(0, 10)
    for (let i = 1; i <= 30; i++) await open(link.path, `10.6.0.${i}`)
    // Three of them again: more opens, no more addresses.
    for (let i = 1; i <= 3; i++) await open(link.path, `10.6.0.${i}`)
    const [entry, ...more] = await openEntries('thirty opens')
    expect(more).toHaveLength(0)
    expect(entry!.summary).toBe(
      `Review link (thirty opens) opened on ${day} (UTC): 33 times from 30 addresses`,
    )
    // The link's own count is still one per address and day.
    expect(await openCountOf(link.id)).toBe(30)

    // Another day makes another entry; the first keeps its counts.
    const found = await t.app.services.reviewLinks.resolve(link.path.slice(3))
    if (found.state !== 'active') throw new Error('the link should be active')
    const next = new Date(Date.now() + 86_400_000)
    await t.app.services.reviewLinks.opened(found.link, '10.6.0.1', next)
    const entries = await openEntries('thirty opens')
    expect(entries.map((e) => e.summary)).toEqual([
      `Review link (thirty opens) opened on ${next.toISOString().slice(0, 10)} (UTC): 1 time from 1 address`,
      `Review link (thirty opens) opened on ${day} (UTC): 33 times from 30 addresses`,
    ])
    expect(await openCountOf(link.id)).toBe(31)
  }, 60_000)

  test('IPv6 addresses of one /64 are one address', async () => {
    const link = await makeLink({ note: 'one subscriber' })
    // 2^16 addresses of 2001:db8:7:7::/64, spread over all of its last 64 bits.
    const hex = (n: number) => n.toString(16)
    const addresses = Array.from(
      { length: 2 ** 16 },
      (_, i) =>
        `2001:db8:7:7:${hex(i)}:${hex((i * 7919) & 0xffff)}:${hex(i ^ 0xa5a5)}:${hex(65535 - i)}`,
    )
    expect(new Set(addresses).size).toBe(2 ** 16)
    // Every one of them is the one address the open count keys on.
    expect(new Set(addresses.map(addressGroup))).toEqual(new Set(['2001:db8:7:7::/64']))
    // Opening the page 2^16 times takes an hour on this machine: one in 128 of them, through the
    // app, spread across the whole list.
    const sample = addresses.filter((_, i) => i % 128 === 0)
    let next = 0
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < sample.length) await open(link.path, sample[next++]!)
      }),
    )
    // Another /64 of the same /48 is another subscriber.
    await open(link.path, '2001:db8:7:8::1')
    const [entry, ...more] = await openEntries('one subscriber')
    expect(more).toHaveLength(0)
    expect(entry!.summary).toEndWith(`: ${sample.length + 1} times from 2 addresses`)
    expect(await openCountOf(link.id)).toBe(2)
  }, 120_000)

  test('records making, opens (one entry a day) and revoking, with no visitor’s address', async () => {
    const link = await makeLink({ note: 'for the log' })
    await statusOf(link.path, {})
    for (const ip of ['10.7.0.1', '10.7.0.1', '10.7.0.2']) {
      const res = await get(link.path, {}, ip)
      expect(res.status).toBe(200)
      await res.arrayBuffer()
    }
    await t.call('DELETE', `/api/videos/${video._id}/links/${link.id}`, { token })
    const listed = (await t.call('GET', `/api/videos/${video._id}/links`, { token })).json.data
      .links
    const seen = listed.find((l: { id: string }) => l.id === link.id)
    expect(seen.openCount).toBe(3)
    expect(seen.lastOpenedAt).not.toBeNull()

    const log = await t.call('GET', '/api/activity?limit=100', { token })
    const entries = (
      log.json.data.entries as { kind: string; summary: string; targetTitle: string }[]
    ).filter((e) => e.kind.startsWith('reviewLink.') && e.summary.includes('for the log'))
    const opens = entries.filter((e) => e.kind === 'reviewLink.open')
    expect(opens).toHaveLength(1)
    expect(opens[0]!.summary).toEndWith(': 4 times from 3 addresses')
    expect(entries.map((e) => e.kind)).toContain('reviewLink.create')
    const revokes = (
      log.json.data.entries as { kind: string; target: { title: string } | null }[]
    ).filter((e) => e.kind === 'reviewLink.revoke' && e.target?.title === TITLE)
    expect(revokes.length).toBeGreaterThan(0)
    // The log keeps no visitor's address.
    const rows = await t.app.database.db.execute(
      sql`select ip from activity_log where kind = 'reviewLink.open'`,
    )
    expect([...rows].every((row) => (row as { ip: string | null }).ip === null)).toBe(true)
  })
})
