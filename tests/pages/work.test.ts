// A page for every work (docs/public-site.md) through the real fetch handler: slugs from titles,
// unique and kept as redirects after a rename; the page's head for search engines and link
// previews; the embeddable player; /sitemap.xml and /robots.txt. Real database, both kinds.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { isoDuration } from '../../src/pages/work.ts'
import { captionFiles, captionsForm } from '../../testkit/captions.ts'
import { plainMediaUrl } from '../../testkit/media.ts'
import { prepareOutputs, readyWorks } from '../../testkit/ready.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { type Fixtures, fixtures, form, send } from '../../testkit/videos.ts'
import { webShell } from '../../testkit/web-shell.ts'

const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Halftone Studio</title>
    <meta
      name="description"
      content="The landing page's description."
    />
  </head>
  <body><div id="root"></div></body>
</html>`

let t: TestApp
let f: Fixtures
let token: string
let shell: ReturnType<typeof webShell>

beforeAll(async () => {
  shell = webShell(SHELL)
  t = await startTestApp({ WEB_DIST: shell.dir })
  f = await fixtures()
  await prepareOutputs(f.mp4)
}, 120_000)
afterAll(async () => {
  await t.stop()
  shell.remove()
})
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

type Made = { _id: string; slug: string; thumbnailUrl: string; videoUrl: string }
/** A work as visitors see it: uploaded and processed; `videoUrl` is its MP4, as theirs is. */
async function created(title: string, description = ''): Promise<Made> {
  const files = { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }
  const res = await send(
    t,
    'POST',
    '/api/videos/upload',
    token,
    form({ title, description }, files),
  )
  if (res.status !== 201) throw new Error(`${res.status} ${res.json.message}`)
  const { _id } = res.json.data.video as Made
  await readyWorks(t, [_id])
  const video = (await t.call('GET', `/api/videos/${_id}`, { token })).json.data.video
  return { ...video, videoUrl: plainMediaUrl(video.mp4Url) }
}
const rename = (id: string, title: string) =>
  t.call('PATCH', `/api/videos/${id}`, { token, body: { title } })
const page = async (path: string) => {
  const res = await t.fetch(path, { redirect: 'manual' })
  return { status: res.status, headers: res.headers, text: await res.text() }
}
const landing = (text: string) =>
  text.includes('<title>Halftone Studio</title>') && !text.includes('og:title')

describe('slugs', () => {
  test('from the title, accents dropped, unique with -2, "work" when nothing is left', async () => {
    expect((await created('Hello World')).slug).toBe('hello-world')
    expect((await created('Hello, World!')).slug).toBe('hello-world-2')
    expect((await created('  Café Noir  ')).slug).toBe('cafe-noir')
    expect((await created('!!!')).slug).toBe('work')
    const list = await t.call('GET', '/api/public/videos')
    expect(list.json.data.videos.map((v: Made) => v.slug).sort()).toEqual(
      ['cafe-noir', 'hello-world', 'hello-world-2', 'work'].sort(),
    )
  })

  test('a rename moves the page; the old address redirects for good, also to the embed', async () => {
    const v = await created('Hello World')
    const renamed = await rename(v._id, 'Hello Again')
    expect(renamed.status).toBe(200)
    expect(renamed.json.data.video.slug).toBe('hello-again')
    const old = await page('/work/hello-world')
    expect(old.status).toBe(301)
    expect(old.headers.get('location')).toBe('/work/hello-again')
    const embed = await page('/work/hello-world/embed')
    expect(embed.status).toBe(301)
    expect(embed.headers.get('location')).toBe('/work/hello-again/embed')
    // Another work cannot take an address that still leads somewhere.
    expect((await created('Hello World!')).slug).toBe('hello-world-2')
    // Back to its first title, the work gets its first address back.
    expect((await rename(v._id, 'Hello World')).json.data.video.slug).toBe('hello-world')
    expect((await page('/work/hello-again')).headers.get('location')).toBe('/work/hello-world')
    expect((await page('/work/hello-world')).status).toBe(200)
    // An edit that keeps the title keeps the address.
    const same = await t.call('PATCH', `/api/videos/${v._id}`, {
      token,
      body: { description: 'New words' },
    })
    expect(same.json.data.video.slug).toBe('hello-world')
  })

  test('a deleted work takes its addresses with it', async () => {
    const v = await created('Gone Soon')
    await rename(v._id, 'Gone Now')
    await t.call('DELETE', `/api/videos/${v._id}`, { token })
    const [{ n } = { n: -1 }] = await t.app.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from video_slugs`,
    )
    expect(n).toBe(0)
    for (const path of ['/work/gone-soon', '/work/gone-now', '/work/gone-now/embed']) {
      const res = await page(path)
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
      expect(res.headers.get('x-robots-tag')).toBe('noindex')
      expect(landing(res.text)).toBe(true)
    }
    expect((await created('Gone Soon')).slug).toBe('gone-soon')
  })
})

describe('the work page', () => {
  test('its head carries title, description, canonical URL, Open Graph, Twitter player and JSON-LD', async () => {
    const v = await created('Night Drive', 'A score for a car & its city.')
    const res = await page('/work/night-drive')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = res.text
    expect(html).toContain('<title>Night Drive — Halftone Studio</title>')
    expect(html.match(/<title>/g)).toHaveLength(1)
    expect(html).toContain(
      '<meta name="description" content="A score for a car &amp; its city." />',
    )
    expect(html).not.toContain("The landing page's description.")
    expect(html).toContain('<link rel="canonical" href="https://studio.test/work/night-drive" />')
    for (const [key, value] of [
      ['og:type', 'video.other'],
      ['og:title', 'Night Drive'],
      ['og:url', 'https://studio.test/work/night-drive'],
      ['og:image', `https://studio.test${v.thumbnailUrl}`],
    ]) {
      expect(html).toContain(`<meta property="${key}" content="${value}" />`)
    }
    // A shown work has streams: og:video is its MP4, never the master.
    expect(html).toContain(
      `<meta property="og:video" content="https://studio.test${v.videoUrl}" />`,
    )
    for (const [key, value] of [
      ['twitter:card', 'player'],
      ['twitter:player', 'https://studio.test/work/night-drive/embed'],
      ['twitter:image', `https://studio.test${v.thumbnailUrl}`],
    ]) {
      expect(html).toContain(`<meta name="${key}" content="${value}" />`)
    }
    const ld = JSON.parse(
      /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null',
    )
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'VideoObject',
      name: 'Night Drive',
      description: 'A score for a car & its city.',
      thumbnailUrl: [`https://studio.test${v.thumbnailUrl}`],
      contentUrl: `https://studio.test${v.videoUrl}`,
      embedUrl: 'https://studio.test/work/night-drive/embed',
    })
    expect(Date.parse(ld.uploadDate)).toBeGreaterThan(0)
    // The page's data, for the browser to hydrate from (src/pages/public.ts).
    const data = JSON.parse(
      /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ??
        'null',
    )
    expect(data).toMatchObject({
      kind: 'work',
      video: { _id: v._id, slug: 'night-drive', title: 'Night Drive' },
    })
  })

  test("once processed: og:video is the MP4, with the MP4's size, and JSON-LD has the duration", async () => {
    const v = await created('Processed Reel')
    await t.app.database.db.execute(sql`update videos set status = 'ready',
      streams_key = ${`s${'a'.repeat(31)}`}, duration = 83.4, width = 1920, height = 1080
      where id = ${v._id}`)
    t.app.services.videos.invalidate()
    const { text } = await page('/work/processed-reel')
    expect(text).toMatch(
      /<meta property="og:video" content="https:\/\/studio\.test\/media\/[^"]+\.mp4" \/>/,
    )
    expect(text).toContain('<meta property="og:video:type" content="video/mp4" />')
    // A 1080p master's MP4 is its 720p rung (e2e/templates.test.ts measures a real one).
    expect(text).toContain('<meta property="og:video:width" content="1280" />')
    expect(text).toContain('<meta property="og:video:height" content="720" />')
    expect(text).toContain('<meta name="twitter:player:width" content="1280" />')
    expect(text).toContain('<meta name="twitter:player:height" content="720" />')
    expect(text.match(/application\/ld\+json/g)).toHaveLength(1)
    expect(text).toContain('"duration":"PT1M23S"')
  })

  test('a title full of markup stays text', async () => {
    const title = '"><script>alert(1)</script><b>'
    await created(title, '</script><script>alert(2)</script>')
    const { text } = await page('/work/script-alert-1-script-b')
    expect(text).not.toContain('<script>alert')
    expect(text).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;')
    expect(text).toContain('\\u003c/script>\\u003cscript>alert(2)')
  })

  test('a hidden, unknown or malformed address is the landing page as a 404', async () => {
    const v = await created('Private Cut')
    await rename(v._id, 'Private Cut Two')
    await t.call('PUT', `/api/videos/${v._id}/published`, { token, body: { published: false } })
    for (const path of [
      '/work/private-cut-two',
      '/work/private-cut',
      '/work/private-cut-two/embed',
      '/work/nothing-here',
      '/work/UPPER',
      '/work/a%20b',
      '/work/',
    ]) {
      const res = await page(path)
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
      expect(res.headers.get('x-robots-tag')).toBe('noindex')
      expect(landing(res.text)).toBe(true)
    }
  })

  test('the embed is a bare player that other sites may frame, with only its own script', async () => {
    const v = await created('Framed')
    const res = await page('/work/framed/embed')
    expect(res.status).toBe(200)
    expect(res.text).toContain(
      `<video controls playsinline preload="metadata" poster="${v.thumbnailUrl}" src="${v.videoUrl}"`,
    )
    // One inline script, allowed by its hash: it asks for the embed again when the files fail.
    const scripts = [...res.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!)
    expect(scripts).toHaveLength(1)
    expect(res.text).not.toContain('<script src')
    const hash = new Bun.CryptoHasher('sha256').update(scripts[0]!).digest('base64')
    expect(res.text).toContain(`<p id="cannot-play" role="alert" hidden>This video can&#39;t`)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain(`script-src 'sha256-${hash}';`)
    expect(csp).toContain("connect-src 'self';")
    expect(csp).toContain('frame-ancestors *')
    expect(csp).toContain("default-src 'none'")
    expect(res.headers.get('x-frame-options')).toBeNull()
    // Every other page still refuses to be framed.
    expect((await page('/work/framed')).headers.get('x-frame-options')).toBe('DENY')
  })

  test("the embed lists the work's captions as <track>s of its player, escaped", async () => {
    const v = await created('Subtitled')
    const files = captionFiles()
    try {
      const added = await send(
        t,
        'POST',
        `/api/videos/${v._id}/captions`,
        token,
        captionsForm({ language: 'en', label: 'English "SDH" & <more>' }, files.srt),
      )
      expect(added.status).toBe(201)
      const url = added.json.data.url as string
      const res = await page('/work/subtitled/embed')
      expect(res.status).toBe(200)
      expect(res.text).toContain(
        `<track kind="subtitles" srclang="en" label="English &quot;SDH&quot; &amp; &lt;more&gt;" src="${url}" /></video>`,
      )
      // Same origin: the embed's own policy lets the track load.
      expect(res.headers.get('content-security-policy')).toContain("media-src 'self'")
      const vtt = await t.fetch(url)
      expect(vtt.status).toBe(200)
      expect(vtt.headers.get('content-type')).toStartWith('text/vtt')
    } finally {
      rmSync(files.dir, { recursive: true, force: true })
    }
  })
})

describe('sitemap and robots', () => {
  test('/sitemap.xml lists the landing page and every published work with its video', async () => {
    const a = await created('Tom & Jerry Theme', 'Cat <and> mouse')
    const b = await created('Hidden One')
    await t.call('PUT', `/api/videos/${b._id}/published`, { token, body: { published: false } })
    const res = await page('/sitemap.xml')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/xml')
    const xml = res.text
    expect(xml).toStartWith('<?xml version="1.0" encoding="UTF-8"?>')
    expect(xml).toContain('xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"')
    expect(xml).toContain('<loc>https://studio.test/</loc>')
    expect(xml).toContain('<loc>https://studio.test/work/tom-jerry-theme</loc>')
    expect(xml).toContain('<video:title>Tom &amp; Jerry Theme</video:title>')
    expect(xml).toContain('<video:description>Cat &lt;and&gt; mouse</video:description>')
    expect(xml).toContain(
      `<video:thumbnail_loc>https://studio.test${a.thumbnailUrl}</video:thumbnail_loc>`,
    )
    expect(xml).toContain(`<video:content_loc>https://studio.test${a.videoUrl}</video:content_loc>`)
    expect(xml).toContain(
      '<video:player_loc>https://studio.test/work/tom-jerry-theme/embed</video:player_loc>',
    )
    expect(xml).not.toContain('hidden-one')
    expect(xml.match(/<url>/g)).toHaveLength(2)
  })

  test('/robots.txt allows the site, keeps crawlers out of the dashboard and names the sitemap', async () => {
    const res = await page('/robots.txt')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/plain')
    expect(res.text).toContain('User-agent: *\nAllow: /\n')
    expect(res.text).toContain('Disallow: /dashboard\n')
    expect(res.text).toContain('Disallow: /api/\n')
    expect(res.text).toContain('Sitemap: https://studio.test/sitemap.xml\n')
  })
})

test('durations in ISO 8601', () => {
  expect(isoDuration(83.4)).toBe('PT1M23S')
  expect(isoDuration(0)).toBe('PT0S')
  expect(isoDuration(3600)).toBe('PT1H')
  expect(isoDuration(3725)).toBe('PT1H2M5S')
})
