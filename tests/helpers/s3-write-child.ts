// Run by tests/storage/s3.test.ts in a process of its own: streams MiB megabytes into a bucket
// through the S3 engine and prints, as JSON, how far the process's resident memory rose above what
// it held once the SDK was loaded and warm.
import { s3Storage } from '../../src/storage/s3.ts'

const [bucket, endpoint, region, mib] = process.argv.slice(2) as [string, string, string, string]
const storage = s3Storage({ bucket, endpoint, region, forcePathStyle: true })
const hex = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')

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

// Fresh 256 KiB chunks, as a request body arrives: nothing holds the object whole.
const CHUNK = 256 * 1024
let left = Number(mib) * 1024 * 1024
const body = new ReadableStream<Uint8Array>({
  pull(controller) {
    if (left <= 0) return controller.close()
    const chunk = new Uint8Array(Math.min(CHUNK, left)).fill(left & 0xff)
    left -= chunk.length
    controller.enqueue(chunk)
  },
})
const key = `masters/${hex()}.mp4`
const { size } = await storage.write(key, body, { type: 'video/mp4' })
clearInterval(sampler)
peak = Math.max(peak, process.memoryUsage().rss)
console.log(JSON.stringify({ key, size, growthMiB: (peak - before) / 1024 / 1024 }))
