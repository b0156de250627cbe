// How the server puts a rendered public page together (src/pages/public.ts), through the real
// fetch handler on a real database of both kinds: which paths get it, the data it carries (the
// same as the API's answers), when its cached bytes are replaced, and what a page is without a
// render bundle or with one that fails. The render bundle here is a file of this test's own that
// echoes its input, so what the server hands it can be read back; the real one (React's render
// of the web app) runs in e2e/server-render.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { escapeHtml } from '../../src/contract/html.ts'
import { createStaticHandler } from '../../src/pages/static.ts'
import { prepareOutputs, readyWorks } from '../../testkit/ready.ts'
import { markEveryField, marked, PATTERNS } from '../../testkit/stored-text.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { type Fixtures, fixtures, form, send } from '../../testkit/videos.ts'

const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <title>Halftone Studio</title>
    <meta name="description" content="The landing page." />
  </head>
  <body><div id="root"></div><script type="module" src="/assets/index.js"></script></body>
</html>`

// Echoes the data it was given as the markup, so the test sees what the server passed.
const ECHO = `export function render(raw) {
  if (raw.kind === 'fail') return null
  if (globalThis.renderShouldThrow) throw new Error('render failed')
  return { head: '<link rel="preload" as="image" href="/hero.avif" />', body: '<main data-echo="' + raw.kind + '">' + JSON.stringify(raw).replace(/</g, '&lt;') + '</main>' }
}`

let t: TestApp
let f: Fixtures
let token: string
let dist: string
let ssr: string

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'public-pages-dist-'))
  ssr = mkdtempSync(join(tmpdir(), 'public-pages-ssr-'))
  writeFileSync(join(dist, 'index.html'), SHELL)
  writeFileSync(join(ssr, 'server.js'), ECHO)
  t = await startTestApp({ WEB_DIST: dist, SSR_DIST: ssr })
  f = await fixtures()
  await prepareOutputs(f.mp4)
}, 120_000)
afterAll(async () => {
  await t.stop()
  rmSync(dist, { recursive: true, force: true })
  rmSync(ssr, { recursive: true, force: true })
})
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

/** An uploaded work, processed: visitors see works once their streams exist. */
async function upload(title: string, description = '') {
  const files = { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }
  const fields = { title, description }
  const res = await send(t, 'POST', '/api/videos/upload', token, form(fields, files))
  if (res.status !== 201) throw new Error(`${res.status} ${res.json.message}`)
  await readyWorks(t, [res.json.data.video._id])
  return res.json.data.video as { _id: string; slug: string }
}

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await t.fetch(path, { headers })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

const pageData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html)![1]!)

describe('the landing page', () => {
  test('carries the rendered markup, its head and the data it was rendered from', async () => {
    for (let i = 1; i <= 14; i++) await upload(`Work number ${i}`)
    const page = await get('/')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('cache-control')).toBe('no-cache')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(page.text).toContain('<div id="root" data-rendered=""><main data-echo="landing">')
    expect(page.text).toContain('<link rel="preload" as="image" href="/hero.avif" />\n  </head>')
    // The same values as the visitors' API answers: the first 12 works and the site's content.
    const data = pageData(page.text)
    const videos = (await t.call('GET', '/api/public/videos?limit=12')).json.data
    const site = (await t.call('GET', '/api/public/site')).json.data.site
    expect(data).toEqual({ kind: 'landing', site, videos })
    expect(data.videos.videos).toHaveLength(12)
    expect(data.videos.nextCursor).toEqual(expect.any(String))
  })

  test('every path the app has a page for gets the plain shell, deep links too', async () => {
    for (const path of [
      '/dashboard',
      '/dashboard/',
      '/dashboard/manage',
      '/dashboard/upload',
      '/dashboard/admins',
      '/dashboard/site',
      '/dashboard/activity',
      '/auth/signin',
      '/login',
      '/auth/forgot-password',
      '/auth/reset-password',
      '/auth/reset-password/some-token',
      '/reset-password/some-token',
    ]) {
      const page = await get(path)
      expect({ path, status: page.status }).toEqual({ path, status: 200 })
      expect(page.text).toBe(SHELL)
    }
  })

  test('is kept until the content or a video changes, and revalidates with a 304 meanwhile', async () => {
    const video = await upload('First cut')
    const first = await get('/')
    const etag = first.headers.get('etag')!
    expect(etag).toBeTruthy()
    expect((await get('/', { 'if-none-match': etag })).status).toBe(304)

    // A video change: unpublished, it leaves the page's data.
    const hidden = await t.call('PUT', `/api/videos/${video._id}/published`, {
      token,
      body: { published: false },
    })
    expect(hidden.status).toBe(200)
    const after = await get('/', { 'if-none-match': etag })
    expect(after.status).toBe(200)
    expect(pageData(after.text).videos.videos).toEqual([])

    // A content change.
    const state = (await t.call('GET', '/api/site', { token })).json.data
    const content = structuredClone(state.content)
    content.hero.line = 'Sound first, then everything else.'
    const saved = await t.call('PUT', '/api/site', {
      token,
      body: { baseVersion: state.version, content },
    })
    expect(saved.status).toBe(200)
    const edited = await get('/', { 'if-none-match': after.headers.get('etag')! })
    expect(edited.status).toBe(200)
    expect(pageData(edited.text).site.hero.line).toBe('Sound first, then everything else.')
  })
})

describe('an address that names nothing', () => {
  const NOINDEX = '<meta name="robots" content="noindex" />'

  test('is the landing page with status 404 and noindex, under the dashboard too', async () => {
    const video = await upload('Kept Work')
    const gone = await upload('Deleted Work')
    const hidden = await upload('Hidden Work')
    expect((await t.call('DELETE', `/api/videos/${gone._id}`, { token })).status).toBe(200)
    const unpublished = await t.call('PUT', `/api/videos/${hidden._id}/published`, {
      token,
      body: { published: false },
    })
    expect(unpublished.status).toBe(200)
    const landing = pageData((await get('/')).text)
    for (const path of [
      '/nope',
      '/no/such/page',
      `/work/${gone.slug}`,
      `/work/${hidden.slug}`,
      `/work/${hidden.slug}/embed`,
      '/work/UPPER',
      '/work/',
      '/dashboard/nope',
      '/dashboard/videos',
      '/auth/nope',
      '/%E0%A4%A',
    ]) {
      const page = await get(path)
      expect({ path, status: page.status }).toEqual({ path, status: 404 })
      expect(page.headers.get('x-robots-tag')).toBe('noindex')
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(page.text).toContain(`${NOINDEX}\n    <link rel="preload"`)
      expect(page.text).toContain('<div id="root" data-rendered=""><main data-echo="landing">')
      expect(pageData(page.text)).toEqual(landing)
    }
    // The landing page itself and a work that is shown stay 200, without noindex.
    for (const path of ['/', `/work/${video.slug}`]) {
      const page = await get(path)
      expect(page.status).toBe(200)
      expect(page.headers.get('x-robots-tag')).toBeNull()
      expect(page.text).not.toContain('noindex')
    }
  })

  test('is never a 304, and its bytes follow the content like the landing page', async () => {
    const first = await get('/nope')
    expect(first.headers.get('etag')).toBeNull()
    const landingTag = (await get('/')).headers.get('etag')!
    for (const tag of [landingTag, '*']) {
      const again = await get('/nope', { 'if-none-match': tag })
      expect(again.status).toBe(404)
      expect(again.text).toBe(first.text)
    }
    await upload('Fresh Work')
    expect(pageData((await get('/nope')).text).videos.videos[0].title).toBe('Fresh Work')
  })

  test('without the render bundle, or with no built page at all, it is still a 404', async () => {
    const bare = await startTestApp({ WEB_DIST: dist })
    try {
      const res = await bare.fetch('/nope', { headers: { 'if-none-match': '*' } })
      expect(res.status).toBe(404)
      expect(res.headers.get('x-robots-tag')).toBe('noindex')
      const text = await res.text()
      expect(text).toContain(NOINDEX)
      expect(text).toContain('<div id="root"></div>')
      expect(pageData(text).kind).toBe('landing')
    } finally {
      await bare.stop()
    }
    // The static files alone (no database to render from): the shell, or the placeholder.
    for (const serve of [createStaticHandler(dist), createStaticHandler('/nonexistent-dist')]) {
      const res = await serve(
        new Request('http://localhost/nope', { headers: { 'if-none-match': '*' } }),
      )
      expect(res.status).toBe(404)
      expect(res.headers.get('x-robots-tag')).toBe('noindex')
      expect(await res.text()).toContain('<html')
      expect((await serve(new Request('http://localhost/dashboard'))).status).toBe(200)
    }
  }, 60_000)
})

test("a work's page carries its own head, its markup and its data", async () => {
  const video = await upload('Night Drive')
  const page = await get(`/work/${video.slug}`)
  expect(page.text).toContain('<title>Night Drive — Halftone Studio</title>')
  expect(page.text).not.toContain('<title>Halftone Studio</title>')
  expect(page.text).toContain('data-echo="work"')
  const data = pageData(page.text)
  expect(data.kind).toBe('work')
  expect(data.video).toMatchObject({ _id: video._id, title: 'Night Drive' })
  expect(data.site).toEqual((await t.call('GET', '/api/public/site')).json.data.site)
})

test('a title cannot close the data element or the markup', async () => {
  await upload('</script><script>alert(1)</script>')
  const page = await get('/')
  expect(page.text).not.toContain('<script>alert(1)')
  expect(pageData(page.text).videos.videos[0].title).toBe('</script><script>alert(1)</script>')
})

describe('stored text holding replacement patterns and </script>', () => {
  const TITLE = `Beta $' Work ${PATTERNS}`
  const DESCRIPTION = `Save $\` and $' now; ${PATTERNS}`
  const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0

  /** One document: the shell's single doctype, module script, head, root and data. */
  const expectOneDocument = (html: string) => {
    expect(count(html, /<!doctype/gi)).toBe(1)
    expect(count(html, /<\/head>/g)).toBe(1)
    expect(count(html, /<\/html>/g)).toBe(1)
    expect(count(html, /<script type="module"/g)).toBe(1)
    expect(count(html, /id="page-data"/g)).toBe(1)
    expect(count(html, /<div id="root"/g)).toBe(1)
    expect(html).toEndWith('</body>\n</html>')
  }

  test('leaves every page whole, its data exact and its head attributes exact', async () => {
    const video = await upload(TITLE, DESCRIPTION)
    const state = (await t.call('GET', '/api/site', { token })).json.data
    const { content, texts } = markEveryField(state.content)
    const saved = await t.call('PUT', '/api/site', {
      token,
      body: { baseVersion: state.version, content },
    })
    expect(saved.status).toBe(200)
    const site = (await t.call('GET', '/api/public/site')).json.data.site
    expect(site.hero.line).toBe(marked('Hero'))

    for (const path of ['/', '/nope', `/work/${video.slug}`]) {
      const page = await get(path)
      expectOneDocument(page.text)
      const data = pageData(page.text)
      expect(data.site).toEqual(site)
      // The echoed markup holds the same data, escaped once and whole.
      const echoed = /<main data-echo="\w+">([\s\S]*?)<\/main>/.exec(page.text)![1]!
      expect(JSON.parse(echoed.replace(/&lt;/g, '<'))).toEqual(data)
      for (const text of texts) expect(JSON.stringify(data)).toContain(JSON.stringify(text))
    }
    const work = await get(`/work/${video.slug}`)
    const attr = (key: string) =>
      new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)" />`).exec(work.text)?.[1]
    const text = (value: string) =>
      value
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
    for (const key of ['og:title', 'twitter:title']) expect(text(attr(key)!)).toBe(TITLE)
    for (const key of ['description', 'og:description', 'twitter:description']) {
      expect(text(attr(key)!)).toBe(DESCRIPTION)
    }
    expect(text(/<title>([^<]*)<\/title>/.exec(work.text)![1]!)).toBe(`${TITLE} — Halftone Studio`)
    const ld = [...work.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
    expect(ld).toHaveLength(1)
    expect(JSON.parse(ld[0]![1]!)).toMatchObject({ name: TITLE, description: DESCRIPTION })
    expect(pageData(work.text).video).toMatchObject({ title: TITLE, description: DESCRIPTION })

    const sitemap = await get('/sitemap.xml')
    expect(count(sitemap.text, /<\/urlset>/g)).toBe(1)
    expect(sitemap.text).toContain(`<video:title>${escapeHtml(TITLE)}</video:title>`)
    expect(sitemap.text).toContain(
      `<video:description>${escapeHtml(DESCRIPTION)}</video:description>`,
    )

    const embed = await get(`/work/${video.slug}/embed`)
    expect(count(embed.text, /<!doctype/gi)).toBe(1)
    // Its own script alone: stored text opened none.
    expect(count(embed.text, /<script/g)).toBe(1)
    expect(text(/aria-label="([^"]*)"/.exec(embed.text)![1]!)).toBe(TITLE)
  })
})

test('a render that throws leaves a page with its data for the browser to draw', async () => {
  await upload('Still here')
  const global = globalThis as { renderShouldThrow?: boolean }
  global.renderShouldThrow = true
  try {
    // A new build of the bundle (a new mtime) is a new entry: nothing cached answers for it.
    utimesSync(join(ssr, 'server.js'), new Date(), new Date(Date.now() + 5_000))
    const page = await get('/')
    expect(page.status).toBe(200)
    expect(page.text).toContain('<div id="root"></div>')
    expect(page.text).not.toContain('data-rendered')
    expect(pageData(page.text).videos.videos[0].title).toBe('Still here')
  } finally {
    delete global.renderShouldThrow
  }
})
