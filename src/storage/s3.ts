// The S3 engine: every key is an object of one bucket, through the AWS SDK (record 065). The SDK
// is imported on first use, so a server on the disk engine never pays for loading it; record 067
// says why the parts, the HEAD after a write and the error handling are what they are.
import type { S3Client } from '@aws-sdk/client-s3'
import type { S3Config } from '../config.ts'
import { checkedKey, partsOfKey } from './keys.ts'
import { type ObjectInfo, type Storage, type StorageBody, StorageError } from './types.ts'

// A part is held in memory while it is sent: size × parts in flight bounds a write's memory,
// whatever the object's size (S3 allows 10,000 parts: 78 GiB at this size).
const PART_BYTES = 8 * 1024 * 1024
const PARTS_IN_FLIGHT = 4
// S3's limit for one DeleteObjects request.
const DELETE_BATCH = 1000
// How long `check` waits for an answer: a start-up must end, not hang on a firewall.
const CHECK_SECONDS = 10

type Sdk = typeof import('@aws-sdk/client-s3')
type Loaded = { sdk: Sdk; client: S3Client; Upload: typeof import('@aws-sdk/lib-storage').Upload }

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
  if (name === 'AbortError' || name === 'TimeoutError') return 'ETIMEDOUT'
  return typeof e?.code === 'string' && /^[A-Z0-9_]{2,40}$/.test(e.code) ? e.code : undefined
}

/** The stream, passed through, remembering whether reading it failed. */
function watched(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader()
  const out: { stream: ReadableStream<Uint8Array>; failure?: { error: unknown } } = {
    stream: new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read()
          if (done) controller.close()
          else controller.enqueue(value)
        } catch (error) {
          out.failure = { error }
          throw error
        }
      },
      cancel: (reason) => reader.cancel(reason),
    }),
  }
  return out
}

export function s3Storage(s3: S3Config): Storage {
  const { bucket } = s3
  const where = `S3 bucket "${bucket}" at ${s3.endpoint ?? `AWS ${s3.region}`}`
  let loading: Promise<Loaded> | undefined
  const load = () => {
    loading ??= (async () => {
      const [sdk, storage, { s3ClientConfig }] = await Promise.all([
        import('@aws-sdk/client-s3'),
        import('@aws-sdk/lib-storage'),
        import('./s3-client.ts'),
      ])
      return { sdk, client: new sdk.S3Client(s3ClientConfig(s3)), Upload: storage.Upload }
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

  return {
    engine: 's3',

    async write(key, body: StorageBody, opts) {
      checkedKey(key)
      const { client, Upload } = await load()
      // A file is read as a stream too: parts are cut from it one at a time, never all of it.
      const source = watched('path' in body ? Bun.file(body.path).stream() : body)
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: key, Body: source.stream, ContentType: opts.type },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      })
      await upload.done().catch((error) => {
        // The body's own failure (a client gone, a missing file) is not the store's.
        if (source.failure) throw source.failure.error
        failed(error)
      })
      // RGW answers CompleteMultipartUpload with an empty ETag and no size: the object says.
      const info = await head(key)
      if (!info) throw new StorageError(`${where}: ${key} is missing right after its write`)
      return { size: info.size }
    },

    async read(key, range) {
      checkedKey(key)
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

    async copy(from, to) {
      checkedKey(from)
      checkedKey(to)
      const { sdk, client } = await load()
      await client
        .send(
          new sdk.CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: `${bucket}/${from}` }),
        )
        .catch((error) => {
          if (isMissingKey(error)) throw new StorageError(`${where}: no ${from} to copy`)
          failed(error)
        })
    },

    localPath() {
      return undefined
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
