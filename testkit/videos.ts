import { sql } from 'drizzle-orm'
import type { FileKind } from '../src/contract/file-rules.ts'
import { type Fixtures, fixtures } from './media.ts'
import type { Json, TestApp } from './test-app.ts'

export type { Fixtures }
export { fixtures }

const meta = (entries: Record<string, string>) =>
  Object.entries(entries)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',')

/** Raw tus calls through the app's own fetch handler (no port needed). */
export function tusVia(t: TestApp, token: string | null) {
  const headers = (extra: Record<string, string>): Record<string, string> => ({
    'Tus-Resumable': '1.0.0',
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    ...extra,
  })
  const api = {
    create: (length: number, kind: string, extra: Record<string, string> = {}) =>
      t.fetch('/uploads/', {
        method: 'POST',
        headers: headers({
          'Upload-Length': String(length),
          'Upload-Metadata': meta({ kind }),
          ...extra,
        }),
      }),
    patch: (path: string, offset: number, body: Uint8Array<ArrayBuffer>) =>
      t.fetch(path, {
        method: 'PATCH',
        headers: headers({
          'Upload-Offset': String(offset),
          'Content-Type': 'application/offset+octet-stream',
        }),
        body,
      }),
    head: (path: string) => t.fetch(path, { method: 'HEAD', headers: headers({}) }),
    /** A whole upload; resolves with its id, or throws with the refusing status. */
    async upload(bytes: Uint8Array<ArrayBuffer>, kind: FileKind): Promise<string> {
      const created = await api.create(bytes.length, kind)
      if (created.status !== 201) throw new Error(`create: ${created.status}`)
      const path = created.headers.get('location')!
      const done = await api.patch(path, 0, bytes)
      if (done.status !== 204) throw new Error(`patch: ${done.status} ${await done.text()}`)
      return path.slice(path.lastIndexOf('/') + 1)
    },
  }
  return api
}

export const bytesOf = async (path: string) => new Uint8Array(await Bun.file(path).arrayBuffer())

/** Uploads the three standard files through tus and returns their ids. */
export async function uploadTrio(t: TestApp, token: string, f: Fixtures) {
  const tus = tusVia(t, token)
  return {
    video: await tus.upload(await bytesOf(f.mp4), 'video'),
    thumbnail: await tus.upload(await bytesOf(f.jpg), 'thumbnail'),
    brandLogo: await tus.upload(await bytesOf(f.png), 'brandLogo'),
  }
}

/** A multipart body for the REST paths; files are paths on disk. */
export function form(fields: Record<string, string>, files: Record<string, string> = {}) {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  for (const [k, path] of Object.entries(files)) body.append(k, Bun.file(path), `client-${k}.bin`)
  return body
}

export async function send(
  t: TestApp,
  method: string,
  path: string,
  token: string | null,
  body?: FormData,
) {
  const res = await t.fetch(path, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body,
  })
  const json = (await res.json()) as Json
  return { status: res.status, json }
}

/** Names in the media store and the keys the rows hold: equal sets mean no orphan, no dangling row. */
export async function mediaAndRows(t: TestApp) {
  const files = await t.storedNames()
  const rows = await t.app.database.db.execute<{ key: string }>(
    sql`select video_key as key from videos union all select thumbnail_key from videos union all select brand_logo_key from videos`,
  )
  const keys = [...rows].map((r) => r.key).sort()
  return { files, keys }
}
