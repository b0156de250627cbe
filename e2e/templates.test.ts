// Stored text never changes a page's structure: every field an admin edits (each site-content text
// and a work's title and description) holds `$&`, `` $` ``, `$'`, `$$` (what a string replacement
// would expand) and `</script>`, and every page the server makes of them (`/`, a work's page, its
// embed, an unknown path) is still one document with one doctype and one module script, its
// #page-data is JSON that gives the exact text back, and its head and markup carry the exact text.
// Real server, real build, read by Chromium with scripts off (as a crawler) and then hydrated.
// Also: og:video's size is the size of the MP4 it links, measured with ffprobe.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { fixtures } from '../testkit/media.ts'
import { pollUntil } from '../testkit/poll.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { markEveryField, marked, PATTERNS } from '../testkit/stored-text.ts'
import { uploadVideo } from '../testkit/upload.ts'
import { openPage } from './support/browser.ts'

const TITLE = `Beta $' Work ${PATTERNS}`
const DESCRIPTION = `Save $\` and $' now; ${PATTERNS}`
const BRAND = 'Halftone Studio'

let server: E2EServer
let browser: Browser
let token: string
let dir: string
let slug: string
let videoId: string
/** Every text the admin typed into the site's content, as typed. */
let siteTexts: string[] = []

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  // biome-ignore lint/suspicious/noExplicitAny: answers of several shapes, read by path
  return { status: res.status, json: (await res.json()) as any }
}

async function ffmpeg(args: string[]) {
  const proc = Bun.spawn(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stderr: 'pipe',
  })
  if ((await proc.exited) !== 0) throw new Error(await new Response(proc.stderr).text())
}

async function ffprobeSize(path: string): Promise<{ width: number; height: number }> {
  const proc = Bun.spawn(
    [
      ...['ffprobe', '-v', 'error', '-select_streams', 'v:0'],
      ...['-show_entries', 'stream=width,height', '-of', 'json', path],
    ],
    { stdout: 'pipe' },
  )
  const out = JSON.parse(await new Response(proc.stdout).text()) as {
    streams: { width: number; height: number }[]
  }
  await proc.exited
  const [stream] = out.streams
  if (!stream) throw new Error(`no video stream in ${path}`)
  return { width: stream.width, height: stream.height }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'templates-'))
  // Its short side above the MP4's 720: the MP4 is smaller than the master.
  const master = join(dir, 'master.mp4')
  const [started, f] = await Promise.all([
    startServer({ MEDIA_WORKERS: '1', MEDIA_POLL_SECONDS: '1' }),
    fixtures(),
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc2=s=1422x800:r=10:d=1'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', master],
    ]),
  ])
  server = started
  ;({ token } = await server.apiLogin())
  const video = await uploadVideo(server.url, token, TITLE, { ...f, mp4: master }, DESCRIPTION)
  slug = video.slug
  videoId = video._id

  const state = await api('GET', '/api/site')
  const marking = markEveryField(state.json.data.content)
  siteTexts = marking.texts
  const saved = await api('PUT', '/api/site', {
    baseVersion: state.json.data.version,
    content: marking.content,
  })
  if (saved.status !== 200) throw new Error(`site save: ${JSON.stringify(saved.json)}`)

  await pollUntil(
    async () => (await api('GET', `/api/videos/${videoId}`)).json.data.video.status as string,
    (status) => status === 'ready',
    { what: 'the video processed', timeoutMs: 90_000, everyMs: 250, failed: (s) => s === 'failed' },
  )
  browser = await launchBrowser()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await rm(dir, { recursive: true, force: true })
}, 60_000)

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0

/** The answer as raw text and as Chromium parses it with scripts off. */
async function read(path: string) {
  const res = await fetch(`${server.url}${path}`)
  const html = await res.text()
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto(`${server.url}${path}`)
  return { res, html, page, close: () => context.close() }
}

/** Every text and attribute value of the parsed document: where typed text must show whole. */
const shown = (page: Page) =>
  page.evaluate(() => {
    const values = [document.title, document.body.textContent ?? '']
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of element.attributes) values.push(attribute.value)
    }
    return values.join('\n')
  })

const meta = (page: Page, key: string) =>
  page.locator(`meta[name="${key}"], meta[property="${key}"]`).getAttribute('content')

/** One document: one doctype, one html, head and body, one module script, one #page-data. */
async function expectOneDocument(html: string, page: Page) {
  expect(count(html, /<!doctype/gi)).toBe(1)
  expect(count(html, /<\/html>/g)).toBe(1)
  expect(count(html, /<script type="module"/g)).toBe(1)
  expect(count(html, /id="page-data"/g)).toBe(1)
  expect(await page.locator('script[type="module"]').count()).toBe(1)
  expect(await page.locator('#page-data').count()).toBe(1)
  expect(await page.locator('#root').count()).toBe(1)
  // Nothing of the page fell out of its body: the body ends with the data.
  expect(await page.evaluate(() => document.body.lastElementChild?.id)).toBe('page-data')
}

/** #page-data as the browser's script reads it: JSON.parse of the element's text. */
async function pageData(page: Page) {
  return JSON.parse((await page.locator('#page-data').textContent()) ?? 'null')
}

describe.each(['/', '/nope'])('%s', (path) => {
  test('is one document whose data and markup hold every site text exactly', async () => {
    const { res, html, page, close } = await read(path)
    try {
      expect(res.status).toBe(path === '/' ? 200 : 404)
      await expectOneDocument(html, page)
      const data = await pageData(page)
      expect(data.site).toEqual((await api('GET', '/api/public/site')).json.data.site)
      expect(data.site.hero.line).toBe(marked('Hero'))
      expect(data.videos.videos[0]).toMatchObject({ title: TITLE, description: DESCRIPTION })
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(marked('Hero'))
      const all = await shown(page)
      for (const text of [...siteTexts, TITLE]) expect(all).toContain(text)
      expect(await page.title()).toBe(`${BRAND} — original music, sonic branding and sound design`)
    } finally {
      await close()
    }
  })

  test('becomes live without a hydration mismatch', async () => {
    // A mismatch is a console error, which fails the test through the fixture; Chromium logs
    // the unknown path's own 404 as one too.
    const allow = path === '/' ? [] : [/status of 404/]
    const { page } = await openPage(browser, { baseURL: server.url, allow })
    await page.goto(path)
    await page.mouse.move(400, 300)
    await page.waitForFunction(() => {
      const root = document.getElementById('root') as HTMLElement & Record<string, unknown>
      return Object.keys(root).some((key) => key.startsWith('__reactContainer'))
    })
    await page.waitForLoadState('networkidle')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(marked('Hero'))
  })
})

describe("a work's page", () => {
  test('is one document; its head, JSON-LD, data and markup hold the exact title and description', async () => {
    const { res, html, page, close } = await read(`/work/${slug}`)
    try {
      expect(res.status).toBe(200)
      await expectOneDocument(html, page)
      expect(count(html, /<title>/g)).toBe(1)
      expect(await page.title()).toBe(`${TITLE} — ${BRAND}`)
      for (const key of ['og:title', 'twitter:title']) expect(await meta(page, key)).toBe(TITLE)
      for (const key of ['description', 'og:description', 'twitter:description']) {
        expect(await meta(page, key)).toBe(DESCRIPTION)
      }
      // One JSON-LD block, and it is the work.
      const blocks = await page.locator('script[type="application/ld+json"]').allTextContents()
      expect(blocks).toHaveLength(1)
      expect(JSON.parse(blocks[0]!)).toMatchObject({
        '@type': 'VideoObject',
        name: TITLE,
        description: DESCRIPTION,
      })
      const data = await pageData(page)
      expect(data.video).toMatchObject({ _id: videoId, title: TITLE, description: DESCRIPTION })
      expect(data.site.contact.intro).toBe(marked('Intro'))
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(TITLE)
      const all = await shown(page)
      expect(all).toContain(DESCRIPTION)
      expect(all).toContain(marked('Name 0'))
    } finally {
      await close()
    }
  })

  test('its embed is one document carrying the exact title', async () => {
    const { res, html, page, close } = await read(`/work/${slug}/embed`)
    try {
      expect(res.status).toBe(200)
      expect(count(html, /<!doctype/gi)).toBe(1)
      // One inline script, its own (it asks for the embed again when the MP4 is gone).
      expect(count(html, /<script/g)).toBe(1)
      expect(count(html, /<script[^>]*src=/g)).toBe(0)
      expect(await page.title()).toBe(`${TITLE} — ${BRAND}`)
      expect(await page.locator('video').getAttribute('aria-label')).toBe(TITLE)
    } finally {
      await close()
    }
  })

  test("og:video's width and height are those of the MP4 it links", async () => {
    const { page, close } = await read(`/work/${slug}`)
    try {
      const src = (await meta(page, 'og:video'))!
      expect(src).toMatch(/\.mp4$/)
      const file = join(dir, 'linked.mp4')
      await Bun.write(file, await fetch(src))
      const real = await ffprobeSize(file)
      // The ladder's 720p rung of a 1422×800 master: smaller than the master, as the MP4 is.
      expect(real).toEqual({ width: 1280, height: 720 })
      expect(Number(await meta(page, 'og:video:width'))).toBe(real.width)
      expect(Number(await meta(page, 'og:video:height'))).toBe(real.height)
      // The card's player plays that file too.
      expect(Number(await meta(page, 'twitter:player:width'))).toBe(real.width)
      expect(Number(await meta(page, 'twitter:player:height'))).toBe(real.height)
    } finally {
      await close()
    }
  })
})
