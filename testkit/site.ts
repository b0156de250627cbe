import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import type { Json, TestApp } from './test-app.ts'

/** Empties the site's and the log's tables (TRUNCATE: the log refuses DELETE) and their caches. */
export async function resetSite(t: TestApp) {
  await t.app.database.db.execute(sql`truncate table site_versions, site_images, activity_log`)
  t.app.services.site.invalidate()
}

export const picture = (width: number, height: number, format: 'png' | 'jpeg' | 'webp' = 'png') =>
  sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } },
  })
    .toFormat(format)
    .toBuffer()
    .then((b) => new Uint8Array(b))

export const gif = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
    .gif()
    .toBuffer()
    .then((b) => new Uint8Array(b))

export const svg = (inner: string, attrs = '') =>
  new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 240 96" width="240" height="96"${attrs}><rect width="240" height="96" fill="#123"/>${inner}</svg>`,
  )

export async function uploadImage(
  t: TestApp,
  token: string | null,
  purpose: string,
  body: Uint8Array<ArrayBuffer> | FormData,
  headers: Record<string, string> = {},
) {
  const res = await t.fetch(`/api/site/images?purpose=${purpose}`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body,
  })
  return { status: res.status, json: (await res.json()) as Json }
}

export async function current(t: TestApp, token: string) {
  const r = await t.call('GET', '/api/site', { token })
  if (r.status !== 200) throw new Error(`GET /api/site: ${r.status}`)
  return r.json.data
}

export const save = (t: TestApp, token: string, baseVersion: number, content: unknown) =>
  t.call('PUT', '/api/site', { token, body: { baseVersion, content } })

export const mediaFiles = (t: TestApp) => t.storedNames()

export async function siteImageRows(t: TestApp) {
  const rows = await t.app.database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from site_images`,
  )
  return [...rows][0]?.n ?? 0
}
