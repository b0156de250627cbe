// bench/media-path: what closing hidden works' files costs a shown work's /media request
// (docs/decisions/064-a-hidden-works-media-by-set-lookup-signed-prefixes-and-link-paths.md). The
// real server, one shown work and ten hidden ones; a shown work's poster fetched 2,000 times one
// after another (p50, p95) and by 8 clients for 3 s (requests a second), after a warm-up. Run it on
// two checkouts to compare; it prints one line of JSON.
import { fixtures } from '../testkit/media.ts'
import { startServer } from '../testkit/server.ts'
import { uploadVideo } from '../testkit/upload.ts'

const server = await startServer({ MEDIA_WORKERS: '0' })
try {
  const { token } = await server.apiLogin()
  const f = await fixtures()
  const shown = await uploadVideo(server.url, token, 'Shown', f)
  for (let i = 0; i < 10; i++) {
    const hidden = await uploadVideo(server.url, token, `Hidden ${i}`, f)
    await fetch(`${server.url}/api/videos/${hidden._id}/published`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ published: false }),
    })
  }
  const url = `${server.url}${shown.thumbnailUrl as string}`
  const once = async () => {
    const res = await fetch(url)
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
    return res.headers.get('cache-control')
  }
  for (let i = 0; i < 300; i++) await once()
  const times: number[] = []
  for (let i = 0; i < 2000; i++) {
    const started = performance.now()
    await once()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  let served = 0
  const until = performance.now() + 3000
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < until) {
        await once()
        served++
      }
    }),
  )
  console.log(
    JSON.stringify({
      cacheControl: await once(),
      p50ms: Number(times[1000]!.toFixed(3)),
      p95ms: Number(times[1900]!.toFixed(3)),
      perSecond: Math.round(served / 3),
    }),
  )
} finally {
  await server.stop()
}
