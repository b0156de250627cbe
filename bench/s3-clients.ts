// bench/s3-clients: Bun's native S3Client against @aws-sdk/client-s3 (+ lib-storage's Upload)
// on a real S3 engine, for the choice in docs/decisions/065-s3-client-aws-sdk-v3.md. Needs the
// engine's S3_* variables in the environment (S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY,
// S3_REGION); makes its own bucket and removes everything it wrote, the bucket too.
//
// The 64 MiB PUT and GET run in a child process each, so the peak resident memory (VmHWM) of one
// transfer is measured from that transfer's own baseline, not from whatever ran before it.
import { createReadStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'

const MiB = 1024 * 1024
const SIZE = Number(process.env.S3_BENCH_SIZE_MB ?? 64) * MiB
const PART = Number(process.env.S3_BENCH_PART_MB ?? 8) * MiB
const QUEUE = 4
const ROUNDS = Number(process.env.S3_BENCH_ROUNDS ?? 3)
// 500 keys keep a run near a minute on a loaded machine; S3_BENCH_KEYS=1000 lists a full page.
const KEYS = Number(process.env.S3_BENCH_KEYS ?? 500)
const IN_FLIGHT = 32
const RANGE = { at: 17 * MiB + 12345, length: MiB }
const SMALL_REPEATS = 20
const PRESIGNS = 1000

const env = (name: string) => {
  const value = process.env[name]
  if (!value) {
    console.error(
      `bench/s3-clients: ${name} is not set: export S3_ENDPOINT, S3_ACCESS_KEY_ID, ` +
        'S3_SECRET_ACCESS_KEY (and S3_REGION) of a running S3-compatible server (bench/README.md)',
    )
    process.exit(1)
  }
  return value
}
const endpoint = env('S3_ENDPOINT')
const accessKeyId = env('S3_ACCESS_KEY_ID')
const secretAccessKey = env('S3_SECRET_ACCESS_KEY')
const region = process.env.S3_REGION ?? 'us-east-1'

// What Ceph RGW 16 needs from the AWS SDK: path-style, and no aws-chunked CRC trailers (411).
function awsClient(overrides: Partial<ConstructorParameters<typeof S3Client>[0]> = {}) {
  return new S3Client({
    endpoint,
    region,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId, secretAccessKey },
    ...overrides,
  })
}
// Bun's client: path-style is its default; nothing else set.
function bunClient(bucket: string, overrides: Bun.S3Options = {}) {
  return new Bun.S3Client({ endpoint, region, accessKeyId, secretAccessKey, bucket, ...overrides })
}

const hwmKiB = async () => {
  const status = await Bun.file('/proc/self/status').text()
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
}

type ChildResult = { ms: number; cpuMs: number; rssGrowthMiB: number; bytes: number }
type BigOp = 'put-bun-stream' | 'put-bun-file' | 'put-aws-stream' | 'get-bun' | 'get-aws'

/** One 64 MiB transfer, in this (child) process; prints its figures as JSON. */
async function child(op: BigOp, bucket: string, key: string, file: string) {
  const aws = awsClient()
  const bun = bunClient(bucket, { partSize: PART, queueSize: QUEUE })
  // A first request on each client, so connection set-up is in the baseline, not the figure.
  await aws.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1 }))
  await bun.list({ maxKeys: 1 })
  Bun.gc(true)
  const before = await hwmKiB()
  // CPU time is the figure the machine's load moves least: what one transfer costs this process.
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  let bytes = 0
  if (op === 'put-bun-stream') {
    // A stream of unknown length, as a request body is: multipart in PART-sized pieces.
    bytes = await bun.write(key, new Response(Bun.file(file).stream()))
  } else if (op === 'put-bun-file') {
    bytes = await bun.write(key, Bun.file(file))
  } else if (op === 'put-aws-stream') {
    const upload = new Upload({
      client: aws,
      params: { Bucket: bucket, Key: key, Body: createReadStream(file) },
      partSize: PART,
      queueSize: QUEUE,
    })
    await upload.done()
    bytes = SIZE
  } else if (op === 'get-bun') {
    for await (const chunk of bun.file(key).stream()) bytes += chunk.byteLength
  } else {
    const got = await aws.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
    for await (const chunk of got.Body as Readable) bytes += (chunk as Uint8Array).byteLength
  }
  const ms = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  const cpuMs = (cpu.user + cpu.system) / 1000
  const result: ChildResult = { ms, cpuMs, rssGrowthMiB: ((await hwmKiB()) - before) / 1024, bytes }
  console.log(JSON.stringify(result))
}

async function runChild(op: BigOp, bucket: string, key: string, file: string) {
  const proc = Bun.spawn([process.execPath, import.meta.path, '--child', op, bucket, key, file], {
    stdout: 'pipe',
    stderr: 'inherit',
    env: process.env,
  })
  const out = await new Response(proc.stdout).text()
  if ((await proc.exited) !== 0) throw new Error(`${op}: child failed`)
  return JSON.parse(out.trim().split('\n').at(-1)!) as ChildResult
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const time = async (fn: () => Promise<unknown>) => {
  const started = performance.now()
  await fn()
  return performance.now() - started
}
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>) {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!)
    }),
  )
}

function describe(error: unknown): string {
  const e = error as {
    name?: string
    code?: string
    message?: string
    $metadata?: { httpStatusCode?: number }
    constructor?: { name?: string }
  }
  const status = e.$metadata?.httpStatusCode
  return [
    `class ${e.constructor?.name}`,
    `name ${e.name}`,
    e.code ? `code ${e.code}` : undefined,
    status ? `HTTP ${status}` : undefined,
    `"${String(e.message).slice(0, 90)}"`,
  ]
    .filter(Boolean)
    .join(', ')
}
async function outcome(fn: () => Promise<unknown>): Promise<string> {
  try {
    const value = await fn()
    return `no error (${JSON.stringify(value)?.slice(0, 60)})`
  } catch (error) {
    return describe(error)
  }
}

async function main() {
  const aws = awsClient()
  const bucket = `bench-s3-clients-${crypto.randomUUID().slice(0, 8)}`
  const bun = bunClient(bucket)
  const file = join(tmpdir(), `${bucket}.bin`)
  const load = () =>
    require('node:os')
      .loadavg()
      .map((n: number) => n.toFixed(1))
      .join(' ')
  console.log(
    `s3-clients: ${endpoint}, Bun ${Bun.version}, @aws-sdk/client-s3 ${require('@aws-sdk/client-s3/package.json').version}; ` +
      `${SIZE / MiB} MiB object, ${PART / MiB} MiB parts, ${QUEUE} in flight; ${ROUNDS} rounds; load average ${load()}`,
  )

  // Random bytes, written in pieces: the bench never holds the object in memory.
  const writer = Bun.file(file).writer()
  for (let at = 0; at < SIZE; at += MiB) writer.write(crypto.getRandomValues(new Uint8Array(MiB)))
  await writer.end()
  const expectedRange = await Bun.file(file)
    .slice(RANGE.at, RANGE.at + RANGE.length)
    .bytes()

  await aws.send(new CreateBucketCommand({ Bucket: bucket }))
  const figures: Record<string, number[]> = {}
  const add = (name: string, value: number) => {
    figures[name] ??= []
    figures[name].push(value)
  }
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? (['aws', 'bun'] as const) : (['bun', 'aws'] as const)
      for (const who of order) {
        // Bun's put from a BunFile (it knows the size) is the aside: measured in the first round only.
        const puts: BigOp[] =
          who === 'aws'
            ? ['put-aws-stream']
            : round === 0
              ? ['put-bun-stream', 'put-bun-file']
              : ['put-bun-stream']
        for (const op of puts) {
          const key = `big/${who}-${round}-${op}`
          const put = await runChild(op, bucket, key, file)
          add(`${op} ms`, put.ms)
          add(`${op} CPU ms`, put.cpuMs)
          add(`${op} RSS MiB`, put.rssGrowthMiB)
          const head = await aws.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
          if (head.ContentLength !== SIZE) throw new Error(`${op}: stored ${head.ContentLength}`)
          if (op !== 'put-bun-file') {
            const get = await runChild(who === 'bun' ? 'get-bun' : 'get-aws', bucket, key, file)
            if (get.bytes !== SIZE) throw new Error(`get ${who}: ${get.bytes} bytes`)
            add(`get-${who} ms`, get.ms)
            add(`get-${who} CPU ms`, get.cpuMs)
            add(`get-${who} RSS MiB`, get.rssGrowthMiB)
            for (let i = 0; i < SMALL_REPEATS; i++) {
              let got: Uint8Array = new Uint8Array()
              add(
                `range-${who} ms`,
                await time(async () => {
                  got =
                    who === 'bun'
                      ? await bun
                          .file(key)
                          .slice(RANGE.at, RANGE.at + RANGE.length)
                          .bytes()
                      : await (
                          await aws.send(
                            new GetObjectCommand({
                              Bucket: bucket,
                              Key: key,
                              Range: `bytes=${RANGE.at}-${RANGE.at + RANGE.length - 1}`,
                            }),
                          )
                        ).Body!.transformToByteArray()
                }),
              )
              if (Buffer.compare(got, expectedRange) !== 0) throw new Error(`range ${who}: wrong`)
              add(
                `stat-${who} ms`,
                await time(() =>
                  who === 'bun'
                    ? bun.file(key).stat()
                    : aws.send(new HeadObjectCommand({ Bucket: bucket, Key: key })),
                ),
              )
            }
            const urls: string[] = []
            add(
              `presign-${who} µs`,
              ((await time(async () => {
                for (let i = 0; i < PRESIGNS; i++) {
                  urls.push(
                    who === 'bun'
                      ? bun.presign(key, { expiresIn: 3600 })
                      : await getSignedUrl(
                          aws,
                          new GetObjectCommand({ Bucket: bucket, Key: key }),
                          {
                            expiresIn: 3600,
                          },
                        ),
                  )
                }
              })) *
                1000) /
                PRESIGNS,
            )
            // The URL must work for a client that knows nothing of the keys.
            const ranged = await fetch(urls[0]!, { headers: { range: 'bytes=0-99' } })
            if (ranged.status !== 206 || (await ranged.bytes()).byteLength !== 100) {
              throw new Error(`presigned ${who}: ${ranged.status}`)
            }
          }
          await aws.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))
        }

        // Many small objects: PUT (setup, timed too), LIST the prefix, DELETE them all.
        const prefix = `many/${who}-${round}/`
        const keys = Array.from(
          { length: KEYS },
          (_, i) => `${prefix}${String(i).padStart(5, '0')}`,
        )
        const body = new Uint8Array(100)
        add(
          `put-small-${who} ms`,
          await time(() =>
            pool(keys, IN_FLIGHT, (key) =>
              who === 'bun'
                ? bun.write(key, body)
                : aws.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body })),
            ),
          ),
        )
        let listed = 0
        add(
          `list-${who} ms`,
          await time(async () => {
            listed = 0
            let token: string | undefined
            do {
              if (who === 'bun') {
                const page = await bun.list({ prefix, continuationToken: token })
                listed += page.contents?.length ?? 0
                token = page.isTruncated ? page.nextContinuationToken : undefined
              } else {
                const page = await aws.send(
                  new ListObjectsV2Command({
                    Bucket: bucket,
                    Prefix: prefix,
                    ContinuationToken: token,
                  }),
                )
                listed += page.Contents?.length ?? 0
                token = page.IsTruncated ? page.NextContinuationToken : undefined
              }
            } while (token)
          }),
        )
        if (listed !== KEYS) throw new Error(`list ${who}: ${listed} of ${KEYS}`)
        add(
          `delete-many-${who} ms`,
          await time(async () => {
            if (who === 'bun') {
              // Bun's client has no DeleteObjects: one request per key.
              await pool(keys, IN_FLIGHT, (key) => bun.delete(key))
            } else {
              for (let i = 0; i < keys.length; i += 1000) {
                const done = await aws.send(
                  new DeleteObjectsCommand({
                    Bucket: bucket,
                    Delete: {
                      Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })),
                      Quiet: true,
                    },
                  }),
                )
                if (done.Errors?.length) throw new Error(`delete-many: ${done.Errors[0]!.Code}`)
              }
            }
          }),
        )
        const left = await aws.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))
        if (left.KeyCount) throw new Error(`delete-many ${who}: ${left.KeyCount} left`)
      }
    }

    console.log(`\nmedians of ${ROUNDS} rounds, interleaved (load average now ${load()}):`)
    const fmt = (values: number[] | undefined, digits = 0) =>
      values ? median(values).toFixed(digits) : '–'
    const row = (what: string, b: string, a: string) => console.log(`| ${what} | ${b} | ${a} |`)
    console.log('| | Bun.S3Client | @aws-sdk/client-s3 |')
    console.log('|---|---|---|')
    const mbps = (ms: number[] | undefined) =>
      ms ? ` (${(SIZE / 1e6 / (median(ms) / 1000)).toFixed(0)} MB/s)` : ''
    row(
      `PUT ${SIZE / MiB} MiB stream, multipart ms`,
      fmt(figures['put-bun-stream ms']) + mbps(figures['put-bun-stream ms']),
      fmt(figures['put-aws-stream ms']) + mbps(figures['put-aws-stream ms']),
    )
    row(
      '  CPU ms (user + system)',
      fmt(figures['put-bun-stream CPU ms']),
      fmt(figures['put-aws-stream CPU ms']),
    )
    row(
      '  peak RSS growth MiB',
      fmt(figures['put-bun-stream RSS MiB'], 1),
      fmt(figures['put-aws-stream RSS MiB'], 1),
    )
    row(
      `PUT ${SIZE / MiB} MiB from a BunFile ms (RSS MiB)`,
      `${fmt(figures['put-bun-file ms'])} (${fmt(figures['put-bun-file RSS MiB'], 1)})`,
      '–',
    )
    row(
      `GET ${SIZE / MiB} MiB streamed ms`,
      fmt(figures['get-bun ms']) + mbps(figures['get-bun ms']),
      fmt(figures['get-aws ms']) + mbps(figures['get-aws ms']),
    )
    row('  CPU ms (user + system)', fmt(figures['get-bun CPU ms']), fmt(figures['get-aws CPU ms']))
    row(
      '  peak RSS growth MiB',
      fmt(figures['get-bun RSS MiB'], 1),
      fmt(figures['get-aws RSS MiB'], 1),
    )
    row('Range GET 1 MiB ms', fmt(figures['range-bun ms'], 1), fmt(figures['range-aws ms'], 1))
    row('HEAD (stat) ms', fmt(figures['stat-bun ms'], 1), fmt(figures['stat-aws ms'], 1))
    row(
      'presigned GET URL µs',
      fmt(figures['presign-bun µs'], 1),
      fmt(figures['presign-aws µs'], 1),
    )
    row(
      `PUT ${KEYS} × 100 B, ${IN_FLIGHT} in flight ms`,
      fmt(figures['put-small-bun ms']),
      fmt(figures['put-small-aws ms']),
    )
    row(
      `LIST ${KEYS} keys under a prefix ms`,
      fmt(figures['list-bun ms']),
      fmt(figures['list-aws ms']),
    )
    row(
      `DELETE ${KEYS} keys ms`,
      `${fmt(figures['delete-many-bun ms'])} (one DELETE each, ${IN_FLIGHT} in flight)`,
      `${fmt(figures['delete-many-aws ms'])} (DeleteObjects)`,
    )

    // Errors: what a caller gets to map onto its own vocabulary.
    console.log('\nerrors:')
    const missing = `no-such-bucket-${crypto.randomUUID().slice(0, 8)}`
    const wrongKeys = { accessKeyId: 'not-a-key', secretAccessKey: 'not-a-secret' }
    const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        'GET from a missing bucket',
        () => bunClient(missing).file('x').text(),
        () => aws.send(new GetObjectCommand({ Bucket: missing, Key: 'x' })),
      ],
      [
        'PUT to a missing bucket',
        () => bunClient(missing).write('x', 'hello'),
        () => aws.send(new PutObjectCommand({ Bucket: missing, Key: 'x', Body: 'hello' })),
      ],
      [
        'GET a missing key',
        () => bun.file('no/such/key').text(),
        () => aws.send(new GetObjectCommand({ Bucket: bucket, Key: 'no/such/key' })),
      ],
      [
        'HEAD (stat) a missing key',
        () => bun.file('no/such/key').stat(),
        () => aws.send(new HeadObjectCommand({ Bucket: bucket, Key: 'no/such/key' })),
      ],
      [
        'PUT with bad credentials',
        () => bunClient(bucket, wrongKeys).write('x', 'hello'),
        () =>
          awsClient({ credentials: wrongKeys }).send(
            new PutObjectCommand({ Bucket: bucket, Key: 'x', Body: 'hello' }),
          ),
      ],
      [
        'GET with bad credentials',
        () => bunClient(bucket, wrongKeys).file('x').text(),
        () =>
          awsClient({ credentials: wrongKeys }).send(
            new GetObjectCommand({ Bucket: bucket, Key: 'x' }),
          ),
      ],
      [
        'exists() / HEAD in a missing bucket',
        () => bunClient(missing).file('x').exists(),
        () => aws.send(new HeadObjectCommand({ Bucket: missing, Key: 'x' })),
      ],
      [
        'nothing listening at the endpoint',
        () => bunClient(bucket, { endpoint: 'http://127.0.0.1:1' }).file('x').text(),
        () =>
          awsClient({ endpoint: 'http://127.0.0.1:1', maxAttempts: 1 }).send(
            new GetObjectCommand({ Bucket: bucket, Key: 'x' }),
          ),
      ],
    ]
    for (const [what, viaBun, viaAws] of cases) {
      console.log(`- ${what}\n    Bun: ${await outcome(viaBun)}\n    AWS: ${await outcome(viaAws)}`)
    }
  } finally {
    // Everything this run wrote, then the bucket: the engine keeps objects in RAM.
    let token: string | undefined
    do {
      const page = await aws.send(
        new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }),
      )
      if (page.Contents?.length) {
        await aws.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: page.Contents.map(({ Key }) => ({ Key })) },
          }),
        )
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    await aws.send(new DeleteBucketCommand({ Bucket: bucket }))
    await rm(file, { force: true })
  }
}

if (process.argv[2] === '--child') {
  const [op, bucket, key, file] = process.argv.slice(3) as [BigOp, string, string, string]
  await child(op, bucket, key, file)
} else {
  await main()
}
