// bench/storage: the real server once on the disk engine and once on the S3 engine (a bucket of
// its own on the S3 server the environment or testkit/s3.ts finds, dropped at the end). Each
// server is warmed up with a 64 MiB upload, as a long-running one is, then measured the same way:
//   1. Upload: a STORAGE_UPLOAD_MB (1024) MiB video through tus in 50 MiB chunks as the dashboard
//      sends them, then videos.create, which takes the file into the store (on S3: streams it to
//      the bucket); MB/s of the upload, time of the create (medians of STORAGE_ROUNDS, 3), and the
//      server's peak RSS growth (VmRSS sampled every 50 ms from before the upload to after the
//      create; the worst run).
//   2. Range: a STORAGE_MB (256) MiB video made the same way, read through its signed `videoUrl`
//      by STORAGE_READERS (16) concurrent readers of 8 MiB ranges; MB/s, and every
//      STORAGE_CHECK_EVERY-th answer (8) compared byte for byte with the source.
// Every video is deleted before the next is made, so the S3 server (objects in RAM) holds one at a
// time. Targets: S3 upload >= 0.7 x disk, RSS growth <= 100 MB on each engine.
// No media worker runs (MEDIA_WORKERS=0): processing would fetch the master from the bucket and
// measure ffmpeg, not the store.
// 3. The bucket alone: the same 1 GiB file written straight to the S3 server from this process
//    as a multipart upload of 8 MiB parts, four in flight (what the server's tus store sends),
//    no server between: what the S3 server takes on this machine, the ceiling of any upload
//    through the app. The S3 upload is printed against it too.
import { randomFillSync } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3'
import { FetchHttpHandler } from '@smithy/fetch-http-handler'
import type { S3Config } from '../src/config.ts'
import { s3ClientConfig } from '../src/storage/s3-client.ts'
import { fixtures } from '../testkit/media.ts'
import { sampleRss } from '../testkit/process-memory.ts'
import { bucketKeys, dropBucket, makeBucket, s3Available, s3Env } from '../testkit/s3.ts'
import { startServer } from '../testkit/server.ts'
import { tusRaw, tusUpload } from '../testkit/tus.ts'

const MiB = 1024 * 1024
const MB = 1e6
const RANGE_BYTES = Number(process.env.STORAGE_MB ?? 256) * MiB
const UPLOAD_BYTES = Number(process.env.STORAGE_UPLOAD_MB ?? 1024) * MiB
const READERS = Number(process.env.STORAGE_READERS ?? 16)
const CHECK_EVERY = Number(process.env.STORAGE_CHECK_EVERY ?? 8)
const PIECE = 8 * MiB
// The dashboard's chunk size (web/src/app/videos/tus-uploads.ts).
const CHUNK = 50 * MiB
const SAMPLE_MS = 50
const ROUNDS = Number(process.env.STORAGE_ROUNDS ?? 3)
const WARM_UP_BYTES = 64 * MiB

const loadavg = async () => (await Bun.file('/proc/loadavg').text()).split(' ')[0]!

/**
 * A real MP4 head, then random bytes: sniffs as a video, and no 8 MiB range of it equals another,
 * so a range served from the wrong offset cannot pass the byte check.
 */
async function makeSource(name: string, bytes: number): Promise<string> {
  const path = join(work, name)
  const block = new Uint8Array(16 * MiB)
  const head = await Bun.file((await fixtures()).mp4).bytes()
  const sink = Bun.file(path).writer()
  for (let done = 0; done < bytes; done += block.length) {
    randomFillSync(block)
    if (done === 0) block.set(head)
    sink.write(block.subarray(0, Math.min(block.length, bytes - done)))
    await sink.flush()
  }
  await sink.end()
  return path
}

type Server = Awaited<ReturnType<typeof startServer>>
type Created = { _id: string; videoUrl: string }

/** The small files videos.create needs beside the video, through tus. */
async function imageUploads(server: Server, token: string) {
  const f = await fixtures()
  const ids: Record<'thumbnail' | 'brandLogo', string> = { thumbnail: '', brandLogo: '' }
  for (const [kind, path] of [
    ['thumbnail', f.jpg],
    ['brandLogo', f.png],
  ] as const) {
    const bytes = await Bun.file(path).bytes()
    const made = await tusRaw(server.url, token).create(bytes.length, { kind })
    const location = made.headers.get('location')!
    const patched = await tusRaw(server.url, token).patch(location, 0, bytes)
    if (patched.status !== 204) throw new Error(`${kind} upload: ${patched.status}`)
    ids[kind] = location.split('/').pop()!
  }
  return ids
}

/** tus (50 MiB chunks), then videos.create; the time of each. */
async function uploadAndCreate(server: Server, token: string, source: string, title: string) {
  const images = await imageUploads(server, token)
  const started = performance.now()
  const { url } = await tusUpload(createReadStream(source), {
    endpoint: `${server.url}/uploads/`,
    token,
    kind: 'video',
    chunkSize: CHUNK,
  })
  const uploaded = performance.now()
  const res = await fetch(`${server.url}/trpc/videos.create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title,
      description: '',
      uploads: { video: url.split('/').pop()!, ...images },
    }),
  })
  const createdAt = performance.now()
  if (res.status !== 200) throw new Error(`videos.create: ${res.status} ${await res.text()}`)
  const video = ((await res.json()) as { result: { data: { video: Created } } }).result.data.video
  return {
    video,
    uploadSeconds: (uploaded - started) / 1000,
    createSeconds: (createdAt - uploaded) / 1000,
  }
}

/** Deletes the work and waits until the store holds nothing (the bucket's RAM is freed). */
async function remove(server: Server, token: string, id: string, bucket?: S3Config) {
  const res = await fetch(`${server.url}/api/videos/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  })
  if (res.status !== 200) throw new Error(`delete: ${res.status} ${await res.text()}`)
  if (!bucket) return
  for (const deadline = Date.now() + 30_000; (await bucketKeys(bucket)).length > 0; ) {
    if (Date.now() > deadline) throw new Error('the bucket still holds objects 30 s after delete')
    await Bun.sleep(200)
  }
}

/** Readers split [0, size) and walk their shares in PIECE ranges; every CHECK_EVERY-th is compared. */
async function readRanges(server: Server, videoUrl: string, source: string, size: number) {
  const share = Math.ceil(size / READERS)
  let answers = 0
  let checked = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: READERS }, async (_, r) => {
      for (let at = r * share; at < Math.min(size, (r + 1) * share); at += PIECE) {
        const end = Math.min(size, (r + 1) * share, at + PIECE) - 1
        // The signed link alone, as the dashboard's player asks for it: no session header.
        const res = await fetch(`${server.url}${videoUrl}`, {
          headers: { Range: `bytes=${at}-${end}` },
        })
        const body = new Uint8Array(await res.arrayBuffer())
        if (res.status !== 206) throw new Error(`range ${at}-${end}: status ${res.status}`)
        if (res.headers.get('content-range') !== `bytes ${at}-${end}/${size}`) {
          throw new Error(`range ${at}-${end}: Content-Range ${res.headers.get('content-range')}`)
        }
        if (body.byteLength !== end - at + 1) {
          throw new Error(`range ${at}-${end}: ${body.byteLength} bytes`)
        }
        if (answers++ % CHECK_EVERY === 0) {
          const want = await Bun.file(source)
            .slice(at, end + 1)
            .bytes()
          if (!Buffer.from(want).equals(body)) throw new Error(`range ${at}-${end}: wrong bytes`)
          checked++
        }
      }
    }),
  )
  return { mbps: size / MB / ((performance.now() - started) / 1000), answers, checked }
}

/** MB/s of writing `source` straight to a bucket: 8 MiB parts, four in flight, as the tus store. */
async function bucketAlone(source: string): Promise<number> {
  const bucket = await makeBucket()
  const client = new S3Client({ ...s3ClientConfig(bucket), requestHandler: new FetchHttpHandler() })
  const Bucket = bucket.bucket
  const Key = 'ceiling'
  try {
    const file = Bun.file(source)
    const started = performance.now()
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }))
    const count = Math.ceil(file.size / PIECE)
    const etags: { ETag?: string; PartNumber: number }[] = []
    let next = 0
    const lane = async () => {
      while (next < count) {
        const index = next++
        const Body = file.slice(index * PIECE, Math.min(file.size, (index + 1) * PIECE))
        const sent = await client.send(
          new UploadPartCommand({
            Bucket,
            Key,
            UploadId,
            PartNumber: index + 1,
            Body,
            ContentLength: Body.size,
          }),
        )
        etags[index] = { ETag: sent.ETag, PartNumber: index + 1 }
      }
    }
    await Promise.all([lane(), lane(), lane(), lane()])
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key,
        UploadId,
        MultipartUpload: { Parts: etags },
      }),
    )
    const mbps = file.size / MB / ((performance.now() - started) / 1000)
    await client.send(new DeleteObjectCommand({ Bucket, Key }))
    return mbps
  } finally {
    client.destroy()
    await dropBucket(bucket)
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

type EngineResult = {
  engine: 'disk' | 's3'
  upload: {
    runs: { seconds: number; createSeconds: number; rssGrowth: number }[]
    mbps: number
    createSeconds: number
    endToEndMbps: number
    rssGrowth: number
    rssStart: number
    load: string[]
  }
  range: { mbps: number; answers: number; checked: number; rssGrowth: number; load: string[] }
}

async function measure(
  engine: 'disk' | 's3',
  warmUpSource: string,
  uploadSource: string,
  rangeSource: string,
): Promise<EngineResult> {
  const bucket = engine === 's3' ? await makeBucket() : undefined
  let server: Server | undefined
  try {
    server = await startServer({ MEDIA_WORKERS: '0', ...(bucket ? s3Env(bucket) : {}) })
    const token = (await server.apiLogin()).token
    const rssStart = await server.rss()
    // As a long-running server is: the store's client loaded and its first write behind it.
    const warm = await uploadAndCreate(server, token, warmUpSource, `Warm-up (${engine})`)
    await remove(server, token, warm.video._id, bucket)

    const uploadLoad = [await loadavg()]
    const runs: EngineResult['upload']['runs'] = []
    for (let round = 0; round < ROUNDS; round++) {
      // Dirty pages written back first, so no run pays for the one before it.
      Bun.spawnSync(['sync'])
      const rssBefore = await server.rss()
      const sampler = sampleRss(server.pid, SAMPLE_MS)
      const big = await uploadAndCreate(server, token, uploadSource, `Upload ${round} (${engine})`)
      const peak = await sampler.stop()
      runs.push({
        seconds: big.uploadSeconds,
        createSeconds: big.createSeconds,
        rssGrowth: peak - rssBefore,
      })
      await remove(server, token, big.video._id, bucket)
    }
    uploadLoad.push(await loadavg())

    const rangeLoad = [await loadavg()]
    const made = await uploadAndCreate(server, token, rangeSource, `Range (${engine})`)
    const rssBefore = await server.rss()
    const sampler = sampleRss(server.pid, SAMPLE_MS)
    const read = await readRanges(server, made.video.videoUrl, rangeSource, RANGE_BYTES)
    const peak = await sampler.stop()
    rangeLoad.push(await loadavg())
    await remove(server, token, made.video._id, bucket)

    const seconds = median(runs.map((r) => r.seconds))
    const createSeconds = median(runs.map((r) => r.createSeconds))
    return {
      engine,
      upload: {
        runs,
        mbps: UPLOAD_BYTES / MB / seconds,
        createSeconds,
        endToEndMbps: UPLOAD_BYTES / MB / median(runs.map((r) => r.seconds + r.createSeconds)),
        rssGrowth: Math.max(...runs.map((r) => r.rssGrowth)),
        rssStart,
        load: uploadLoad,
      },
      range: { ...read, rssGrowth: peak - rssBefore, load: rangeLoad },
    }
  } finally {
    await server?.stop()
    if (bucket) await dropBucket(bucket)
  }
}

const s3 = s3Available()
if (!s3.available) {
  console.error(`bench/storage needs an S3 server: ${s3.reason}`)
  process.exit(1)
}

const work = await mkdtemp(join(tmpdir(), 'bench-storage-'))
let ok = true
try {
  console.log(
    `bench/storage (${new Date().toISOString()}, Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, load average ${await loadavg()}; upload: ${UPLOAD_BYTES / MiB} MiB, tus chunk ${CHUNK / MiB} MiB, median of ${ROUNDS}, RSS sampled every ${SAMPLE_MS} ms; Range: ${RANGE_BYTES / MiB} MiB, ${READERS} readers, ${PIECE / MiB} MiB ranges)`,
  )
  const warmUpSource = await makeSource('warm-up.mp4', WARM_UP_BYTES)
  const uploadSource = await makeSource('upload.mp4', UPLOAD_BYTES)
  const rangeSource = await makeSource('range.mp4', RANGE_BYTES)
  const results: EngineResult[] = []
  const mb = (bytes: number) => `${bytes < 0 ? '' : '+'}${(bytes / MB).toFixed(0)} MB`
  for (const engine of ['disk', 's3'] as const) {
    const r = await measure(engine, warmUpSource, uploadSource, rangeSource)
    results.push(r)
    const u = r.upload
    const each = (pick: (run: (typeof u.runs)[number]) => string) => u.runs.map(pick).join('/')
    console.log(
      `${engine.padEnd(4)}  upload ${u.mbps.toFixed(0)} MB/s (${each((run) => (UPLOAD_BYTES / MB / run.seconds).toFixed(0))}), videos.create ${u.createSeconds.toFixed(2)} s (${each((run) => run.createSeconds.toFixed(2))}), upload + create ${u.endToEndMbps.toFixed(0)} MB/s, peak RSS growth ${mb(u.rssGrowth)} (${each((run) => mb(run.rssGrowth))}; ${(u.rssStart / MB).toFixed(0)} MB after start-up; load ${u.load.join(' → ')})`,
    )
    console.log(
      `      Range ${r.range.mbps.toFixed(0)} MB/s (${r.range.answers} answers of 206, ${r.range.checked} compared byte for byte; peak RSS growth while reading ${mb(r.range.rssGrowth)}; load ${r.range.load.join(' → ')})`,
    )
  }
  const ceilingLoad = [await loadavg()]
  const ceilings: number[] = []
  for (let round = 0; round < ROUNDS; round++) ceilings.push(await bucketAlone(uploadSource))
  ceilingLoad.push(await loadavg())
  const ceiling = median(ceilings)
  console.log(
    `bucket alone (8 MiB parts, 4 in flight, no server): ${ceiling.toFixed(0)} MB/s (${ceilings.map((c) => c.toFixed(0)).join('/')}; load ${ceilingLoad.join(' → ')})`,
  )
  const [disk, onS3] = results as [EngineResult, EngineResult]
  const verdict = (met: boolean) => (met ? 'met' : 'NOT MET')
  const uploadRatio = onS3.upload.mbps / disk.upload.mbps
  const endToEndRatio = onS3.upload.endToEndMbps / disk.upload.endToEndMbps
  const rssMet = results.every((r) => r.upload.rssGrowth <= 100 * MB)
  ok = uploadRatio >= 0.7 && rssMet
  console.log(
    `target S3 upload >= 0.7 x disk: tus upload ${uploadRatio.toFixed(2)} ${verdict(uploadRatio >= 0.7)}; tus upload + videos.create ${endToEndRatio.toFixed(2)} ${verdict(endToEndRatio >= 0.7)}`,
  )
  console.log(
    `S3 upload / the bucket alone: tus upload ${(onS3.upload.mbps / ceiling).toFixed(2)}, tus upload + videos.create ${(onS3.upload.endToEndMbps / ceiling).toFixed(2)}`,
  )
  console.log(
    `target peak RSS growth <= 100 MB (upload + create): disk ${mb(disk.upload.rssGrowth)}, S3 ${mb(onS3.upload.rssGrowth)} ${verdict(rssMet)}`,
  )
  console.log(
    `Range S3 / disk: ${(onS3.range.mbps / disk.range.mbps).toFixed(2)}; load average at the end ${await loadavg()}`,
  )
} finally {
  await rm(work, { recursive: true, force: true })
  await rm((await fixtures()).dir, { recursive: true, force: true })
}
process.exit(ok ? 0 : 1)
