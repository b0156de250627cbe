// What browsers may keep of the built web app (docs/decisions/015-what-browsers-may-keep.md): files
// Vite names by content hash — scripts, styles and now the fonts — for a year, immutable; every
// other file revalidated by ETag or Last-Modified, so an unchanged one costs a 304 and no body.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { createStaticHandler } from '../../src/pages/static.ts'

let dist: string
let serve: ReturnType<typeof createStaticHandler>
const FONT = '/assets/inter-latin-wght-normal-Dx4kXJAl.woff2'
const IMMUTABLE = 'public, max-age=31536000, immutable'

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'static-cache-'))
  for (const dir of ['assets', 'hero']) mkdirSync(join(dist, dir))
  writeFileSync(join(dist, FONT), Buffer.alloc(4096, 7))
  writeFileSync(join(dist, 'hero', 'hero-wide-1280.avif'), Buffer.alloc(2048, 1))
  const html = `<!doctype html><title>x</title>${' '.repeat(2048)}`
  writeFileSync(join(dist, 'index.html'), html)
  writeFileSync(join(dist, 'index.html.br'), brotliCompressSync(html))
  serve = createStaticHandler(dist)
})
afterAll(() => rmSync(dist, { recursive: true, force: true }))

const get = (path: string, headers: Record<string, string> = {}) =>
  serve(new Request(`http://localhost${path}`, { headers }))

test('a hashed font is kept a year, immutable, as font/woff2', async () => {
  const res = await get(FONT)
  expect(res.status).toBe(200)
  expect(res.headers.get('cache-control')).toBe(IMMUTABLE)
  expect(res.headers.get('content-type')).toBe('font/woff2')
  expect((await res.arrayBuffer()).byteLength).toBe(4096)
})

test('other files are revalidated: ETag and Last-Modified, then 304 without a body', async () => {
  for (const path of ['/hero/hero-wide-1280.avif', '/', '/auth/signin']) {
    const res = await get(path)
    expect([path, res.status, res.headers.get('cache-control')]).toEqual([path, 200, 'no-cache'])
    const etag = res.headers.get('etag')
    const modified = res.headers.get('last-modified')
    expect(etag).toMatch(/^W\/"[\w-]+"$/)
    expect(Number.isFinite(Date.parse(modified ?? ''))).toBe(true)

    const byTag = await get(path, { 'if-none-match': etag! })
    expect([path, byTag.status]).toEqual([path, 304])
    expect(await byTag.text()).toBe('')
    expect(byTag.headers.get('etag')).toBe(etag)
    expect(byTag.headers.get('cache-control')).toBe('no-cache')

    const byDate = await get(path, { 'if-modified-since': modified! })
    expect([path, byDate.status]).toEqual([path, 304])
    // If-None-Match decides when both are sent (RFC 9110 §13.2.2).
    const stale = await get(path, { 'if-none-match': 'W/"other"', 'if-modified-since': modified! })
    expect([path, stale.status]).toEqual([path, 200])
  }
})

test('a changed file gets a new ETag and a full answer', async () => {
  const path = '/hero/hero-wide-1280.avif'
  const before = (await get(path)).headers.get('etag')!
  const file = join(dist, 'hero', 'hero-wide-1280.avif')
  writeFileSync(file, Buffer.alloc(3000, 2))
  utimesSync(file, new Date(), new Date(Date.now() + 5000))
  const res = await get(path, { 'if-none-match': before })
  expect(res.status).toBe(200)
  expect(res.headers.get('etag')).not.toBe(before)
  expect((await res.arrayBuffer()).byteLength).toBe(3000)
})

test('each encoding has its own ETag, and the 304 matches the one asked for', async () => {
  const plain = await get('/')
  const brotli = await get('/', { 'accept-encoding': 'gzip, br' })
  expect(brotli.headers.get('content-encoding')).toBe('br')
  expect(brotli.headers.get('vary')).toBe('Accept-Encoding')
  expect(plain.headers.get('vary')).toBe('Accept-Encoding')
  expect(brotli.headers.get('etag')).not.toBe(plain.headers.get('etag'))
  const again = await get('/', {
    'accept-encoding': 'br',
    'if-none-match': brotli.headers.get('etag')!,
  })
  expect(again.status).toBe(304)
  const other = await get('/', { 'if-none-match': brotli.headers.get('etag')! })
  expect(other.status).toBe(200)
})
