// A real S3 server for tests: the one the environment names (S3_ENDPOINT and credentials), else
// the S3 engine tool kept beside the clone (a one-node Ceph RADOS Gateway), started once per
// process. Its objects live in RAM, so every bucket made here is dropped with all it holds by the
// test that made it.
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutBucketPolicyCommand,
  type S3Client,
} from '@aws-sdk/client-s3'
import type { S3Config } from '../src/config.ts'
import { s3Client } from '../src/storage/s3-client.ts'

const ROOT = join(import.meta.dir, '..')
const ENGINE_SCRIPT = join(ROOT, '..', 'shared', 'tools', 's3-engine.sh')

type Engine = { endpoint: string; region: string } | { reason: string }
let engine: Engine | undefined

/** Settings from the environment, else from the engine tool's `start` (its stdout: KEY=value). */
function findEngine(): Engine {
  const env = process.env
  if (env.S3_ENDPOINT && (env.AWS_ACCESS_KEY_ID || env.S3_ACCESS_KEY_ID)) {
    // The SDK's credential chain reads the AWS_ names only.
    env.AWS_ACCESS_KEY_ID ||= env.S3_ACCESS_KEY_ID
    env.AWS_SECRET_ACCESS_KEY ||= env.S3_SECRET_ACCESS_KEY
    return { endpoint: env.S3_ENDPOINT, region: env.S3_REGION || env.AWS_REGION || 'us-east-1' }
  }
  if (!existsSync(ENGINE_SCRIPT)) {
    return { reason: `no S3 server: S3_ENDPOINT is unset and ${ENGINE_SCRIPT} is missing` }
  }
  const started = Bun.spawnSync(['bash', ENGINE_SCRIPT, 'start'], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: 20 * 60_000,
  })
  if (started.exitCode !== 0) {
    const said = started.stderr.toString().trim().split('\n').at(-1) ?? ''
    return { reason: `the S3 engine did not start: ${said || `exit ${started.exitCode}`}` }
  }
  for (const line of started.stdout.toString().split('\n')) {
    const at = line.indexOf('=')
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1)
  }
  if (!env.S3_ENDPOINT) return { reason: 'the S3 engine started but printed no S3_ENDPOINT' }
  return findEngine()
}

/** Whether a real S3 server can be used here; `reason` (for testkit/skip.ts) says why not. */
export function s3Available():
  | { available: true; reason?: undefined }
  | { available: false; reason: string } {
  engine ??= findEngine()
  return 'reason' in engine ? { available: false, reason: engine.reason } : { available: true }
}

function settings(): { endpoint: string; region: string } {
  engine ??= findEngine()
  if ('reason' in engine) throw new Error(engine.reason)
  return engine
}

/** A new, empty bucket of its own; drop it with `dropBucket`. */
export async function makeBucket(): Promise<S3Config> {
  const { endpoint, region } = settings()
  const bucket = `test-${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`
  const config: S3Config = { bucket, endpoint, region, forcePathStyle: true }
  const client = s3Client(config)
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }))
  } finally {
    client.destroy()
  }
  return config
}

/** Every object and unfinished multipart upload of the bucket, then the bucket itself. */
export async function dropBucket(config: S3Config): Promise<void> {
  const client = s3Client(config)
  const Bucket = config.bucket
  try {
    await abortUploads(client, Bucket)
    for (;;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket, MaxKeys: 1000 }))
      const keys = (page.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []))
      if (keys.length === 0) break
      await client.send(
        new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }),
      )
    }
    await client.send(new DeleteBucketCommand({ Bucket }))
  } finally {
    client.destroy()
  }
}

/** The keys of the bucket's multipart uploads begun and neither completed nor aborted. */
export async function unfinishedUploads(config: S3Config): Promise<string[]> {
  const client = s3Client(config)
  try {
    const page = await client.send(new ListMultipartUploadsCommand({ Bucket: config.bucket }))
    return (page.Uploads ?? []).map((upload) => upload.Key ?? '')
  } finally {
    client.destroy()
  }
}

async function abortUploads(client: S3Client, Bucket: string): Promise<void> {
  let KeyMarker: string | undefined
  let UploadIdMarker: string | undefined
  do {
    const page = await client.send(
      new ListMultipartUploadsCommand({ Bucket, KeyMarker, UploadIdMarker }),
    )
    for (const upload of page.Uploads ?? []) {
      await client.send(
        new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }),
      )
    }
    KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined
    UploadIdMarker = page.NextUploadIdMarker
  } while (KeyMarker)
}

/** The environment that points the app at `config`'s bucket (credentials come from the SDK's chain). */
export function s3Env(config: S3Config): Record<string, string> {
  return {
    S3_BUCKET: config.bucket,
    S3_ENDPOINT: config.endpoint ?? '',
    S3_REGION: config.region,
    S3_FORCE_PATH_STYLE: config.forcePathStyle ? 'true' : 'false',
  }
}

/** The bucket policy README.md prescribes for MEDIA_PUBLIC_URL: anyone may read `public/*`, nothing else. */
export const publicReadPolicy = (bucket: string) =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: '*',
        Action: ['s3:GetObject'],
        Resource: [`arn:aws:s3:::${bucket}/public/*`],
      },
    ],
  })

/**
 * Applies the bucket policy of docs/storage.md#public-urls (`publicReadPolicy`), as a bucket
 * behind a CDN or served by its own public URL would have it: the public copies are anyone's to
 * read, the originals, masters and tus uploads stay private. Returns the bucket's public base
 * URL (path-style).
 */
export async function publishPublicPrefixes(config: S3Config): Promise<string> {
  const client = s3Client(config)
  const Bucket = config.bucket
  try {
    await client.send(new PutBucketPolicyCommand({ Bucket, Policy: publicReadPolicy(Bucket) }))
  } finally {
    client.destroy()
  }
  return `${config.endpoint}/${Bucket}`
}

/** Every key in the bucket, sorted. */
export async function bucketKeys(config: S3Config): Promise<string[]> {
  const client = s3Client(config)
  const keys: string[] = []
  try {
    let ContinuationToken: string | undefined
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: config.bucket, ContinuationToken }),
      )
      for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key)
      ContinuationToken = page.NextContinuationToken
    } while (ContinuationToken)
  } finally {
    client.destroy()
  }
  return keys.sort()
}

/** An S3 engine of the test's own, whose gateway it may pause (never the shared one). */
export type PausableEngine = {
  /** The settings of a new, empty bucket on it (drop it with `dropBucket`). */
  makeBucket(): Promise<S3Config>
  /** SIGSTOP to its gateway: connections are taken but nothing answers. */
  pause(): void
  /** SIGCONT. */
  resume(): void
  /** Resumes and stops the engine, removing its folder's daemons (its logs stay). */
  stop(): Promise<void>
}

/** A port nothing listens on now, from the kernel. */
function freePort(): number {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const { port } = server
  server.stop(true)
  return port
}

/**
 * Starts a second engine in a folder and on ports of its own, with the credentials the
 * environment's engine has (the app reads them from the SDK's chain); `reason` says why it
 * could not, in words CI refuses to see skipped ("the S3 engine …").
 */
export function startPausableEngine(): PausableEngine | { reason: string } {
  if (!existsSync(ENGINE_SCRIPT)) {
    return { reason: `no S3 server for a pausable gateway: ${ENGINE_SCRIPT} is missing` }
  }
  const ready = s3Available()
  if (!ready.available) return { reason: ready.reason }
  const dir = `/tmp/s3-engine-pausable-${process.pid}`
  const env = {
    ...process.env,
    S3_ENGINE_DIR: dir,
    S3_ENGINE_PORT: String(freePort()),
    S3_ENGINE_MON_PORT: String(freePort()),
    S3_ENGINE_MEM_MB: '512',
    ...(process.env.AWS_ACCESS_KEY_ID
      ? {
          S3_ENGINE_ACCESS_KEY: process.env.AWS_ACCESS_KEY_ID,
          S3_ENGINE_SECRET_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? '',
        }
      : {}),
  }
  const run = (command: string) =>
    Bun.spawnSync(['bash', ENGINE_SCRIPT, command], {
      env,
      stdout: 'pipe',
      stderr: 'pipe',
      timeout: 10 * 60_000,
    })
  const started = run('start')
  if (started.exitCode !== 0) {
    const said = started.stderr.toString().trim().split('\n').at(-1) ?? ''
    return { reason: `the S3 engine for a pausable gateway did not start: ${said}` }
  }
  const endpoint = /^S3_ENDPOINT=(.*)$/m.exec(started.stdout.toString())?.[1]
  const pid = Number(readFileSync(join(dir, 'pids', 'rgw.pid'), 'utf8').trim())
  if (!endpoint || !Number.isInteger(pid)) {
    run('stop')
    return { reason: 'the S3 engine for a pausable gateway printed no endpoint or gateway pid' }
  }
  const region = settings().region
  const signal = (name: 'SIGSTOP' | 'SIGCONT') => {
    try {
      process.kill(pid, name)
    } catch {
      // Gone already: nothing to pause or resume.
    }
  }
  return {
    async makeBucket() {
      const bucket = `test-${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`
      const config: S3Config = { bucket, endpoint, region, forcePathStyle: true }
      const client = s3Client(config)
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }))
      } finally {
        client.destroy()
      }
      return config
    },
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    async stop() {
      signal('SIGCONT')
      run('stop')
      rmSync(dir, { recursive: true, force: true })
      rmSync(`${dir}.lock`, { force: true })
    },
  }
}
