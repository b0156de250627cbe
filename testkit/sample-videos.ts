// Sample portfolio media (made by db/sample-media.ts, which the seed shares) and a seeder that
// uploads them through the real REST API. Shared by the benchmarks (lighthouse, api, playback) and
// the browser tests of the public page, fonts and streams.
import type { SampleVideo } from '../db/sample-media.ts'

export { makeSampleMedia, type SampleVideo } from '../db/sample-media.ts'

/** Uploads each sample through `POST /api/videos/upload`, oldest first, as an admin would. */
export async function seedVideos(baseUrl: string, token: string, samples: SampleVideo[]) {
  for (const sample of samples.toReversed()) {
    const form = new FormData()
    form.set('title', sample.title)
    form.set('description', sample.description)
    form.set('video', Bun.file(sample.video, { type: 'video/mp4' }), 'clip.mp4')
    form.set('thumbnail', Bun.file(sample.thumbnail, { type: 'image/jpeg' }), 'thumb.jpg')
    form.set('brandLogo', Bun.file(sample.brandLogo, { type: 'image/png' }), 'logo.png')
    const response = await fetch(`${baseUrl}/api/videos/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    })
    if (!response.ok) {
      throw new Error(
        `upload of "${sample.title}" failed: ${response.status} ${await response.text()}`,
      )
    }
  }
}
