// One way to build the S3 client, for the storage engine and the tus store alike: the settings a
// bucket needs, and the bounds every request to it keeps (docs/limits.md).
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3'
import { FetchHttpHandler } from '@smithy/fetch-http-handler'
import type { S3Config } from '../config.ts'
import { StorageTimeoutError } from '../errors.ts'

/**
 * How long the bucket may keep a request waiting. No total time: a part on a slow link takes as
 * long as it takes while its bytes move.
 * - `answerMs`: from the request (or its body's last byte) to the answer's headers.
 * - `longAnswerMs`: the same for what the store works on before answering (a server-side copy of
 *   up to 5 GiB, completing a multipart upload of many parts).
 * - `idleMs`: a body, sent or received, that moves no byte for this long.
 */
export const BUCKET_LIMITS = { answerMs: 10_000, longAnswerMs: 300_000, idleMs: 30_000 }

// A body handed to fetch in pieces, so that its progress can be seen.
const PIECE = 64 * 1024

/** `body` as a stream that calls `moved` whenever fetch takes a piece of it, and `sent` at its end. */
function watchedBody(
  body: Uint8Array | Blob | ReadableStream<Uint8Array>,
  moved: () => void,
  sent: () => void,
): ReadableStream<Uint8Array> {
  if (body instanceof Uint8Array) {
    let at = 0
    return new ReadableStream(
      {
        pull(controller) {
          moved()
          if (at >= body.length) {
            sent()
            controller.close()
            return
          }
          controller.enqueue(body.subarray(at, at + PIECE))
          at += PIECE
        },
      },
      { highWaterMark: 0 },
    )
  }
  const reader = (body instanceof Blob ? body.stream() : body).getReader()
  return new ReadableStream(
    {
      async pull(controller) {
        moved()
        const { done, value } = await reader.read()
        if (done) {
          sent()
          controller.close()
        } else controller.enqueue(value)
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  )
}

/** A received body that fails once the bucket sends no byte for `idleMs` while it is read. */
function idleBounded(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  abort: (error: StorageTimeoutError) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  return new ReadableStream(
    {
      async pull(controller) {
        let timer: ReturnType<typeof setTimeout> | undefined
        const stalled = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            const error = new StorageTimeoutError('the bucket stopped sending', idleMs / 1000)
            abort(error)
            reject(error)
          }, idleMs)
        })
        try {
          const { done, value } = await Promise.race([reader.read(), stalled])
          if (done) controller.close()
          else controller.enqueue(value)
        } catch (error) {
          reader.cancel(error).catch(() => undefined)
          controller.error(error)
        } finally {
          clearTimeout(timer)
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  )
}

/**
 * fetch, bounded: every request has an AbortSignal of its own that fires when the bucket keeps
 * it waiting past BUCKET_LIMITS, and its answer's body fails when it stalls. A caller's own
 * signal still aborts it.
 */
export class BoundedHttpHandler extends FetchHttpHandler {
  constructor(private readonly limits = BUCKET_LIMITS) {
    super()
  }

  override async handle(
    request: Parameters<FetchHttpHandler['handle']>[0],
    options: Parameters<FetchHttpHandler['handle']>[1] = {},
  ): ReturnType<FetchHttpHandler['handle']> {
    const { answerMs, longAnswerMs, idleMs } = this.limits
    const controller = new AbortController()
    const outer = options.abortSignal as AbortSignal | undefined
    if (outer?.aborted) controller.abort(outer.reason)
    else outer?.addEventListener?.('abort', () => controller.abort(outer.reason), { once: true })
    let timer: ReturnType<typeof setTimeout> | undefined
    let timedOut: StorageTimeoutError | undefined
    const wait = (ms: number, what: string) => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        timedOut = new StorageTimeoutError(what, ms / 1000)
        controller.abort(timedOut)
      }, ms)
    }
    // A server-side copy, or the completion of a multipart upload: the store works before it answers.
    const working =
      'x-amz-copy-source' in request.headers ||
      (request.method === 'POST' && 'uploadId' in (request.query ?? {}))
    const answerIn = working ? longAnswerMs : answerMs
    const what = `${request.method} ${request.path}`
    const { body } = request
    let sent = request
    if (body instanceof Uint8Array || body instanceof Blob || body instanceof ReadableStream) {
      // A copy of the request: the SDK may send the same one again on a retry, with its body whole.
      sent = Object.assign(Object.create(Object.getPrototypeOf(request)), request, {
        body: watchedBody(
          body,
          () => wait(idleMs, `${what} took no byte`),
          () => wait(answerIn, what),
        ),
      })
      wait(idleMs, `${what} took no byte`)
    } else {
      wait(answerIn, what)
    }
    try {
      const { response } = await super.handle(sent, { abortSignal: controller.signal })
      clearTimeout(timer)
      if (response.body instanceof ReadableStream) {
        response.body = idleBounded(response.body, idleMs, (error) => controller.abort(error))
      }
      return { response }
    } catch (error) {
      clearTimeout(timer)
      throw timedOut ?? error
    }
  }
}

/**
 * The client settings for a configured bucket. Checksums only where a request requires one: the
 * SDK's default (aws-chunked bodies with a CRC trailer) is refused with 411 by several
 * S3-compatible stores (Ceph RGW among them), and AWS accepts both. Requests go through fetch,
 * which holds less of a part in flight than Bun's node:http client
 * (docs/decisions/067-the-s3-engine-parts-head-after-write-missing-bucket-batch-deletes.md),
 * bounded.
 */
export function s3ClientConfig(s3: S3Config): S3ClientConfig {
  return {
    region: s3.region,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    forcePathStyle: s3.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: new BoundedHttpHandler(),
  }
}

export const s3Client = (s3: S3Config) => new S3Client(s3ClientConfig(s3))
