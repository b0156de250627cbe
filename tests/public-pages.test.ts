// How the server puts a rendered public page together (src/http/public-pages.ts), through the real
// fetch handler on a real database of both kinds: which paths get it, the data it carries (the
// same as the API's answers), when its cached bytes are replaced, and what a page is without a
// render bundle or with one that fails. The render bundle here is a file of this test's own that
// echoes its input, so what the server hands it can be read back; the real one (React's render
// of the web app) runs in e2e/server-render.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestApp, type TestApp } from '../testkit/test-app.ts'
import { type Fixtures, fixtures, form, send } from './videos/support.ts'

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

async function upload(title: string) {
  const files = { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }
  const res = await send(t, 'POST', '/api/videos/upload', token, form({ title }, files))
  if (res.status !== 201) throw new Error(`${res.status} ${res.json.message}`)
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

  test('answers every unknown path; the dashboard and sign-in paths get the plain shell', async () => {
    for (const path of ['/no/such/page', '/about-us', '/work/nobody-made-this']) {
      expect((await get(path)).text).toContain('data-echo="landing"')
    }
    for (const path of ['/dashboard', '/dashboard/videos', '/auth/signin', '/login']) {
      const page = await get(path)
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
