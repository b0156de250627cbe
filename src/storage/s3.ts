// The S3 engine: every key is an object of one bucket, through the AWS SDK
// (docs/decisions/065-s3-client-aws-sdk-v3.md). The SDK is imported on first use, so a server on
// the disk engine never pays for loading it;
// docs/decisions/067-the-s3-engine-parts-head-after-write-missing-bucket-batch-deletes.md says why
// the parts, the HEAD after a write and the error handling are what they are.
import { open } from 'node:fs/promises'
import type { S3Client } from '@aws-sdk/client-s3'
import type { S3Config } from '../config.ts'
import { StorageError, StorageTimeoutError } from '../errors.ts'
import { checkedKey, partsOfKey } from './layout.ts'
import type { ObjectInfo, Storage, StorageBody } from './types.ts'

// A part is held in memory while it is sent: size × parts in flight bounds a write's memory,
// whatever the object's size (S3 allows 10,000 parts: 78 GiB at this size).
const PART_BYTES = 8 * 1024 * 1024
const PARTS_IN_FLIGHT = 4
// S3's limit for one DeleteObjects request.
const DELETE_BATCH = 1000
// How long `check` waits for an answer: a start-up must end, not hang on a firewall.
const CHECK_SECONDS = 10

type Sdk = typeof import('@aws-sdk/client-s3')
type Loaded = { sdk: Sdk; client: S3Client }

type SdkError = Error & { code?: string; $metadata?: { httpStatusCode?: number } }
const statusOf = (error: unknown) => (error as SdkError)?.$metadata?.httpStatusCode
const nameOf = (error: unknown) => (error as SdkError)?.name

/** Why a request failed, in a few words an operator can act on (never the SDK's whole message). */
export function causeOf(error: unknown): string {
  const e = error as SdkError
  const name = nameOf(e)
  const status = statusOf(e)
  if (name === 'NoSuchBucket' || (status === 404 && name === 'NotFound')) return 'NoSuchBucket'
  if (name === 'CredentialsProviderError') {
    return 'no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY'
  }
  if (status === 403) {
    const what = name && name !== 'Unknown' && name !== 'Forbidden' ? ` ${name}` : ' Forbidden'
    return `403${what}: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`
  }
  if (e instanceof StorageTimeoutError) return `no answer in ${e.seconds} s`
  if (name === 'AbortError' || name === 'TimeoutError') return `no answer in ${CHECK_SECONDS} s`
  if (e?.code) return e.code
  const message = String(e?.message ?? e).split('\n')[0] ?? ''
  const label = [status, name && name !== 'Error' ? name : undefined].filter(Boolean).join(' ')
  return label && message !== 'UnknownError' ? `${label}: ${message}` : label || message
}

/**
 * A short code for why the store is unusable, safe to show where a reason's text is not (the
 * health check shows codes only): NO_SUCH_BUCKET, ACCESS_DENIED, NO_CREDENTIALS, ETIMEDOUT, or a
 * system code such as ECONNREFUSED.
 */
export function codeOf(error: unknown): string | undefined {
  const e = error as SdkError
  const name = nameOf(e)
  const status = statusOf(e)
  if (name === 'NoSuchBucket' || (status === 404 && name === 'NotFound')) return 'NO_SUCH_BUCKET'
  if (name === 'CredentialsProviderError') return 'NO_CREDENTIALS'
  if (status === 403) return 'ACCESS_DENIED'
  if (e instanceof StorageTimeoutError || name === 'AbortError' || name === 'TimeoutError') {
    return 'ETIMEDOUT'
  }
  return typeof e?.code === 'string' && /^[A-Z0-9_]{2,40}$/.test(e.code) ? e.code : undefined
}

/**
 * Part buffers kept between writes. Every part of every write is sent from one of these, refilled
 * only once its request has been answered: a write's memory is its buffers, not a new copy per
 * part left for the collector. At most one write's worth is kept idle; writes running at once
 * beyond that allocate their own, dropped when they end.
 */
const idle: Buffer[] = []
const takeBuffer = () => idle.pop() ?? Buffer.allocUnsafe(PART_BYTES)
const giveBack = (buffers: Buffer[]) => {
  for (const buffer of buffers) if (idle.length < PARTS_IN_FLIGHT) idle.push(buffer)
}

/** The body's own failure (a client gone, a file unreadable): rethrown as it is, never the store's. */
class BodyFailure {
  constructor(readonly error: unknown) {}
}

/** One part's bytes in a buffer: its number (from 1), how many bytes, whether it is the last. */
type Filled = { part: number; bytes: number; last: boolean }

/**
 * Where parts come from. `fill` copies the next part into `buffer`, undefined when there is none;
 * it may be called by several workers at once, and numbers parts in the order of the bytes.
 */
type PartSource = { fill(buffer: Buffer): Promise<Filled | undefined>; close(): Promise<void> }

/** A finished file, read at explicit positions: every part can be read while others are sent. */
async function fileParts(path: string): Promise<PartSource> {
  const handle = await open(path, 'r')
  const size = await handle.stat().then(
    (stat) => stat.size,
    async (error) => {
      await handle.close()
      throw error
    },
  )
  const count = Math.max(1, Math.ceil(size / PART_BYTES))
  let next = 0
  return {
    async fill(buffer) {
      const index = next++
      if (index >= count) return undefined
      const start = index * PART_BYTES
      const want = Math.min(PART_BYTES, size - start)
      let bytes = 0
      try {
        while (bytes < want) {
          const { bytesRead } = await handle.read(buffer, bytes, want - bytes, start + bytes)
          if (bytesRead === 0) throw new Error(`${path} ended at ${start + bytes} of ${size} bytes`)
          bytes += bytesRead
        }
      } catch (error) {
        throw new BodyFailure(error)
      }
      return { part: index + 1, bytes, last: index === count - 1 }
    },
    close: () => handle.close(),
  }
}

/**
 * A stream, read by one reader at a time: each fill copies chunks into its buffer until it is full,
 * then looks one chunk ahead, so the last part is known as the last. Nothing reads while every
 * buffer is being sent, which holds back the body's sender.
 */
function streamParts(stream: ReadableStream<Uint8Array>): PartSource {
  const reader = stream.getReader()
  let carry: Uint8Array | undefined
  let done = false
  let part = 0
  let queue: Promise<unknown> = Promise.resolve()
  const read = async () => {
    try {
      const got = await reader.read()
      if (got.done) done = true
      else if (got.value.length > 0) carry = got.value
    } catch (error) {
      throw new BodyFailure(error)
    }
  }
  const fillNow = async (buffer: Buffer): Promise<Filled | undefined> => {
    if (done && !carry) return undefined
    let bytes = 0
    while (bytes < buffer.length) {
      if (!carry) {
        if (done) break
        await read()
        continue
      }
      const take = Math.min(carry.length, buffer.length - bytes)
      buffer.set(take === carry.length ? carry : carry.subarray(0, take), bytes)
      bytes += take
      carry = take === carry.length ? undefined : carry.subarray(take)
    }
    while (!carry && !done) await read()
    if (bytes === 0) return undefined
    part += 1
    return { part, bytes, last: done && !carry }
  }
  return {
    fill(buffer) {
      const filled = queue.then(() => fillNow(buffer))
      queue = filled.catch(() => undefined)
      return filled
    },
    async close() {
      // A body not read to its end is let go, so whoever sends it stops.
      if (!done) await reader.cancel().catch(() => undefined)
      reader.releaseLock()
    },
  }
}

export function s3Storage(s3: S3Config): Storage {
  const { bucket } = s3
  const where = `S3 bucket "${bucket}" at ${s3.endpoint ?? `AWS ${s3.region}`}`
  let loading: Promise<Loaded> | undefined
  const load = () => {
    loading ??= (async () => {
      const [sdk, { s3ClientConfig }] = await Promise.all([
        import('@aws-sdk/client-s3'),
        import('./s3-client.ts'),
      ])
      return { sdk, client: new sdk.S3Client(s3ClientConfig(s3)) }
    })()
    return loading
  }

  /** The one line for a store that cannot be used: which bucket, where, and why. */
  const unreachable = (error: unknown) =>
    Object.assign(
      new StorageError(`${where} is not reachable (${causeOf(error)})`, { cause: error }),
      { code: codeOf(error) },
    )

  /**
   * Any failure but the ones a caller handles becomes one line naming the bucket: a missing
   * bucket or refused credentials is a set-up to fix, never "no such file".
   */
  const failed = (error: unknown): never => {
    if (error instanceof StorageError) throw error
    throw unreachable(error)
  }

  const isMissingKey = (error: unknown) => nameOf(error) === 'NoSuchKey'

  /** HEAD says 404 both for a missing key and a missing bucket; the bucket tells them apart. */
  async function missingKeyOr(error: unknown): Promise<undefined> {
    if (statusOf(error) !== 404) failed(error)
    const { sdk, client } = await load()
    await client.send(new sdk.HeadBucketCommand({ Bucket: bucket })).catch(failed)
    return undefined
  }

  async function head(key: string): Promise<ObjectInfo | undefined> {
    const { sdk, client } = await load()
    const got = await client
      .send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }))
      .catch(missingKeyOr)
    if (!got) return undefined
    const size = got.ContentLength ?? 0
    const modified = got.LastModified ?? new Date(0)
    // An ETag the store left empty still has to change with the object.
    const etag = got.ETag || `"${size.toString(16)}-${modified.getTime().toString(16)}"`
    return { size, modified, etag }
  }

  /**
   * A multipart upload by PARTS_IN_FLIGHT workers, each owning one part buffer: fill it, send it,
   * await the answer, fill it again. The first part is already in `buffers[0]`. Any failure
   * stops every worker and aborts the upload, so neither a half object nor parts are left.
   */
  async function multipart(
    key: string,
    type: string,
    source: PartSource,
    first: Filled,
    buffers: Buffer[],
  ): Promise<void> {
    const { sdk, client } = await load()
    const created = await client.send(
      new sdk.CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: type }),
    )
    const UploadId = created.UploadId
    const etags: string[] = []
    let failure: { error: unknown } | undefined
    const send = async (buffer: Buffer, filled: Filled) => {
      const Body = buffer.subarray(0, filled.bytes)
      const sent = await client.send(
        new sdk.UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId,
          PartNumber: filled.part,
          Body,
          ContentLength: Body.length,
        }),
      )
      etags[filled.part - 1] = sent.ETag ?? ''
    }
    const worker = async (buffer: Buffer, filled: Filled | undefined) => {
      try {
        while (filled && !failure) {
          await send(buffer, filled)
          if (filled.last || failure) return
          filled = await source.fill(buffer)
        }
      } catch (error) {
        failure ??= { error }
      }
    }
    const workers = [worker(buffers[0]!, first)]
    for (let i = 1; i < PARTS_IN_FLIGHT; i++) {
      const buffer = takeBuffer()
      buffers.push(buffer)
      workers.push(
        (async () => {
          try {
            await worker(buffer, failure ? undefined : await source.fill(buffer))
          } catch (error) {
            failure ??= { error }
          }
        })(),
      )
    }
    await Promise.all(workers)
    try {
      if (failure) throw failure.error
      await client.send(
        new sdk.CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
        }),
      )
    } catch (error) {
      await client
        .send(new sdk.AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }))
        .catch(() => undefined)
      throw error
    }
  }

  return {
    engine: 's3',

    async write(key, body: StorageBody, opts) {
      checkedKey(key)
      const { sdk, client } = await load()
      // A file that cannot be opened is the caller's error as it is.
      const source = 'path' in body ? await fileParts(body.path) : streamParts(body)
      const buffers = [takeBuffer()]
      let ok = false
      try {
        const first = await source.fill(buffers[0]!)
        const Body = buffers[0]!.subarray(0, first?.bytes ?? 0)
        if (!first || first.last) {
          await client.send(
            new sdk.PutObjectCommand({
              Bucket: bucket,
              Key: key,
              Body,
              ContentLength: Body.length,
              ContentType: opts.type,
            }),
          )
        } else {
          await multipart(key, opts.type, source, first, buffers)
        }
        ok = true
      } catch (error) {
        // The body's own failure (a client gone, a missing file) is not the store's.
        if (error instanceof BodyFailure) throw error.error
        failed(error)
      } finally {
        await source.close().catch(() => undefined)
        // A request that failed may not have let go of its buffer: only a clean write's return.
        if (ok) giveBack(buffers)
      }
      // RGW answers CompleteMultipartUpload with an empty ETag and no size: the object says.
      const info = await head(key)
      if (!info) throw new StorageError(`${where}: ${key} is missing right after its write`)
      return { size: info.size }
    },

    async read(key, range) {
      checkedKey(key)
      // Through fetch, as parts are written: the body arrives as a web stream that a Response
      // passes on natively, where node:http's chunks pile up for the collector under many readers.
      const { sdk, client } = await load()
      const Range = range ? `bytes=${range.start}-${range.end}` : undefined
      let got: import('@aws-sdk/client-s3').GetObjectCommandOutput
      try {
        got = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key, Range }))
      } catch (error) {
        if (isMissingKey(error)) return undefined
        // A range past the end reads as nothing, as a file's slice does.
        if (range && nameOf(error) === 'InvalidRange') {
          const info = await head(key)
          return info && { body: new Response(new Uint8Array(0)).body!, size: info.size }
        }
        return failed(error)
      }
      const total = /\/(\d+)$/.exec(got.ContentRange ?? '')?.[1]
      const size = total === undefined ? (got.ContentLength ?? 0) : Number(total)
      if (!got.Body) throw new StorageError(`${where}: ${key} came back without a body`)
      return { body: got.Body.transformToWebStream() as ReadableStream<Uint8Array>, size }
    },

    async stat(key) {
      checkedKey(key)
      return head(key)
    },

    async delete(keys) {
      // Every key is checked before the first request: a bad one changes nothing.
      const all = [...new Set(keys)]
      for (const key of all) checkedKey(key)
      if (all.length === 0) return
      const { sdk, client } = await load()
      for (let at = 0; at < all.length; at += DELETE_BATCH) {
        const batch = all.slice(at, at + DELETE_BATCH)
        const done = await client
          .send(
            new sdk.DeleteObjectsCommand({
              Bucket: bucket,
              Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
            }),
          )
          .catch(failed)
        const refused = (done.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey')
        if (refused.length > 0) {
          const first = refused[0]!
          throw new StorageError(
            `${where}: ${refused.length} of ${batch.length} keys not deleted (${first.Key}: ${first.Code})`,
          )
        }
      }
    },

    async *list(prefix) {
      const { sdk, client } = await load()
      let token: string | undefined
      do {
        const page = await client
          .send(
            new sdk.ListObjectsV2Command({
              Bucket: bucket,
              Prefix: prefix,
              ContinuationToken: token,
            }),
          )
          .catch(failed)
        for (const item of page.Contents ?? []) {
          // Only what the store could have made: anything else in the bucket is not ours.
          if (!item.Key || !partsOfKey(item.Key)) continue
          yield { key: item.Key, size: item.Size ?? 0, modified: item.LastModified ?? new Date(0) }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
    },

    async copy(from, to, headers) {
      checkedKey(from)
      checkedKey(to)
      const { sdk, client } = await load()
      await client
        .send(
          new sdk.CopyObjectCommand({
            Bucket: bucket,
            Key: to,
            CopySource: `${bucket}/${from}`,
            ...(headers
              ? {
                  MetadataDirective: 'REPLACE',
                  ContentType: headers.type,
                  CacheControl: headers.cacheControl,
                }
              : {}),
          }),
        )
        .catch((error) => {
          if (isMissingKey(error)) throw new StorageError(`${where}: no ${from} to copy`)
          failed(error)
        })
    },

    localPath() {
      return undefined
    },

    async abortUploads(startedBefore) {
      const { sdk, client } = await load()
      const aborted: string[] = []
      let KeyMarker: string | undefined
      let UploadIdMarker: string | undefined
      do {
        const page = await client
          .send(new sdk.ListMultipartUploadsCommand({ Bucket: bucket, KeyMarker, UploadIdMarker }))
          .catch(failed)
        for (const upload of page.Uploads ?? []) {
          const { Key, UploadId, Initiated } = upload
          // Only the store's own keys: tus keeps its uploads in progress under `uploads/`, which
          // no storage key can name, and anything else in the bucket is not ours.
          if (!Key || !UploadId || !partsOfKey(Key)) continue
          if (!Initiated || Initiated.getTime() >= startedBefore.getTime()) continue
          await client
            .send(new sdk.AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId }))
            .catch((error) => {
              // Completed or aborted by its writer meanwhile.
              if (nameOf(error) !== 'NoSuchUpload') failed(error)
            })
          aborted.push(Key)
        }
        KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined
        UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined
      } while (KeyMarker)
      return aborted
    },

    async check() {
      const { sdk, client } = await load().catch(failed)
      await client
        .send(new sdk.HeadBucketCommand({ Bucket: bucket }), {
          abortSignal: AbortSignal.timeout(CHECK_SECONDS * 1000),
        })
        .catch((error) => {
          throw unreachable(error)
        })
    },
  }
}
