// One work through the REST multipart path (`POST /api/videos/upload`, docs/api.md), as a client of
// the real server does: for tests, browser tests and benches that need works in the catalogue.
import type { Fixtures } from './media.ts'

export type UploadedVideo = { _id: string; title: string; slug: string } & Record<string, unknown>

export async function uploadVideo(
  baseUrl: string,
  token: string,
  title: string,
  files: Pick<Fixtures, 'mp4' | 'jpg' | 'png'>,
  description = '',
): Promise<UploadedVideo> {
  const body = new FormData()
  body.set('title', title)
  if (description) body.set('description', description)
  body.set('video', Bun.file(files.mp4), 'clip.mp4')
  body.set('thumbnail', Bun.file(files.jpg), 'thumb.jpg')
  body.set('brandLogo', Bun.file(files.png), 'logo.png')
  const res = await fetch(`${baseUrl}/api/videos/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
  })
  if (res.status !== 201) throw new Error(`upload ${title}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: { video: UploadedVideo } }).data.video
}
