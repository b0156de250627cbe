// Run by tests/storage/s3.test.ts in a process of its own: writes MiB megabytes into a bucket
// through the S3 engine, streamed or (with `path` as the last argument) from a file, and prints,
// as JSON, how far the process's resident memory rose above what it held once the SDK was loaded
// and warm.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { s3Storage } from '../src/storage/s3.ts'
import type { StorageBody } from '../src/storage/types.ts'

const [bucket, endpoint, region, mib, from] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string | undefined,
]
const storage = s3Storage({ bucket, endpoint, region, forcePathStyle: true })
const hex = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
const total = Number(mib) * 1024 * 1024
// Fresh 256 KiB chunks, as a request body arrives: nothing holds the object whole.
const CHUNK = 256 * 1024

let dir: string | undefined
let body: StorageBody
if (from === 'path') {
  dir = await mkdtemp(join(tmpdir(), 's3-write-child-'))
  const path = join(dir, 'source.mp4')
  const sink = Bun.file(path).writer()
  const chunk = new Uint8Array(CHUNK)
  for (let done = 0; done < total; done += CHUNK) {
    sink.write(chunk.fill(done & 0xff))
    await sink.flush()
  }
  await sink.end()
  body = { path }
} else {
  let left = total
  body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left <= 0) return controller.close()
      const chunk = new Uint8Array(Math.min(CHUNK, left)).fill(left & 0xff)
      left -= chunk.length
      controller.enqueue(chunk)
    },
  })
}

try {
  // A first write loads the SDK and opens connections, so neither counts in the figure.
  await storage.write(`masters/${hex()}.mp4`, new Response(new Uint8Array(1024)).body!, {
    type: 'video/mp4',
  })
  Bun.gc(true)
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 5)
  const key = `masters/${hex()}.mp4`
  const { size } = await storage.write(key, body, { type: 'video/mp4' })
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  console.log(JSON.stringify({ key, size, growthMiB: (peak - before) / 1024 / 1024 }))
} finally {
  if (dir) await rm(dir, { recursive: true, force: true })
}
