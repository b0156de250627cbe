// tus resumable uploads at /uploads/ (@tus/server + @tus/file-store): the endpoint and its hooks.
// Uploads live in DATA_DIR/uploads, or under uploads/ in the bucket when S3_BUCKET is set
// (bucket-store.ts, so that any server can take an upload's next request), for 24 h from their
// creation, finished or not, unless a video change takes them first (registry.ts, intake.ts).
// The protocol rules the library reads otherwise are in protocol.ts; the write path is ours
// (patch-handler.ts, file-store.ts, bucket-store.ts), as is the HEAD answer (head-handler.ts);
// the expiry rules are in expiry.ts, the record's fields in record.ts.
import { AsyncLocalStorage } from 'node:async_hooks'
import { join } from 'node:path'
import { ERRORS, type Locker, Metadata } from '@tus/server'
import type { S3Config } from '../config.ts'
import { CAPTIONS_UPLOAD_KIND } from '../contract/captions.ts'
import { fileKinds, kindAccepts, maxBytes, wrongTypeMessage } from '../contract/file-rules.ts'
import { MiB } from '../contract/limits.ts'
import { isDiskFull, isStorageUnavailable, STORAGE_FULL, STORAGE_UNAVAILABLE } from '../errors.ts'
import type { BucketUploadStore } from './bucket-store.ts'
import { parseChecksum } from './checksum.ts'
import { scheduleCleanup, sweepStrays, UPLOAD_EXPIRY_MS } from './expiry.ts'
import { DirectFileStore } from './file-store.ts'
import { echoingHeadHandler } from './head-handler.ts'
import { asUploadKind, type UploadKind, uploadMaxBytes, uploadTooLarge } from './kinds.ts'
import { appendingPatchHandler, type BodyInfo } from './patch-handler.ts'
import { TusServer } from './protocol.ts'
import { ownerOf, stampRecord, type UploadRecord } from './record.ts'
import { createUploadRegistry, type UploadRegistry } from './registry.ts'
import { sniff, sniffFile } from './sniff.ts'
import { isUploadId, newUploadId } from './upload-ids.ts'

export const UPLOADS_PATH = '/uploads'
/** What a client should send per PATCH: far below Bun's maxRequestBodySize and proxy limits. */
export const CLIENT_CHUNK_BYTES = 50 * MiB
/** Tus-Max-Size: no upload may be larger than the largest kind's limit (the video's). */
export const LARGEST_UPLOAD = Math.max(...fileKinds.map((kind) => maxBytes(kind)))

const PAST_LENGTH = "The body goes past the upload's Upload-Length"
const GONE = 'This upload has expired or was removed. Please upload the file again'

/** A refusal in @tus/server's own shape: it answers with this status and body. */
const refuse = (status_code: number, body: string) => ({ status_code, body })

export type TusEndpoint = Omit<UploadRegistry, 'isClaimed'> & {
  /**
   * Answers a request under /uploads/; `userId` is the signed-in caller, whom the /uploads entry's
   * session guard has let through. `closeIfIdle` closes the request's connection once it is
   * quiet (Bun's server.timeout).
   */
  handle(request: Request, userId: string, closeIfIdle?: () => void): Promise<Response>
  /** Answers a preflight (OPTIONS), which carries no credentials. */
  preflight(request: Request): Promise<Response>
  /** Removes expired uploads and stray files; run at start-up and periodically. */
  cleanUp(): Promise<number>
  /** Starts the periodic clean-up; returns its stop function. */
  startCleanup(): () => void
}

/** tus answers carry no CORS headers: the dashboard is same-origin, and others get nothing. */
function withoutCors(response: Response): Response {
  for (const name of [...response.headers.keys()]) {
    if (name.startsWith('access-control-')) response.headers.delete(name)
  }
  return response
}

/** The kind a creation request's Upload-Metadata names, if it is valid and names one. */
function kindInHeader(req: Request): UploadKind | undefined {
  try {
    return asUploadKind(Metadata.parse(req.headers.get('upload-metadata') ?? undefined).kind)
  } catch {
    return undefined
  }
}

const uploadIdIn = (req: Request) => {
  const last = new URL(req.url).pathname.split('/').pop()
  return isUploadId(last) ? last : undefined
}

/**
 * The bucket's store, loaded only when a bucket is configured: with it comes the AWS SDK, which a
 * server on the disk never loads (as the storage's S3 engine does). Synchronous, since the
 * endpoint is built with the services.
 */
function loadBucketStore(): typeof BucketUploadStore {
  return (require('./bucket-store.ts') as typeof import('./bucket-store.ts')).BucketUploadStore
}

/**
 * `locker` keeps two requests off one upload at once; @tus/server's in-memory one when not given
 * (one process, the embedded database), the PostgreSQL one when servers share a database. With
 * `s3`, tus uploads are kept in that bucket; `dir` then holds only registered multipart parts.
 */
export function createTusEndpoint(
  dir: string,
  expiryMs = UPLOAD_EXPIRY_MS,
  locker?: Locker,
  s3?: S3Config,
): TusEndpoint {
  const inUse = (id: string) => registry.isClaimed(id)
  const local = new DirectFileStore({
    directory: dir,
    expirationPeriodInMilliseconds: expiryMs,
    inUse,
  })
  const bucket = s3
    ? new (loadBucketStore())({ s3, expirationPeriodInMilliseconds: expiryMs, inUse })
    : undefined
  const datastore = bucket ?? local
  const registry = createUploadRegistry(dir, local.configstore, expiryMs, bucket)
  const recordOf = (id: string | undefined): Promise<UploadRecord | undefined> =>
    id ? datastore.configstore.get(id) : Promise.resolve(undefined)
  // The signed-in admin behind the request being handled; the hooks see the library's copy of
  // the request (a method override makes a new one), so not a map keyed by it.
  const caller = new AsyncLocalStorage<string>()
  const bodies = new WeakMap<object, BodyInfo>()

  /**
   * A 413's answer: the kind's own message when the upload would outgrow its kind (a declared
   * length, or bytes of an upload whose length is deferred), otherwise the body ran past the
   * length the upload declared.
   */
  async function tooLarge(req: Request) {
    const record = await recordOf(uploadIdIn(req))
    const kind = asUploadKind(record?.metadata?.kind) ?? kindInHeader(req)
    if (!kind) return undefined
    const declared = req.headers.get('upload-length')
    const outgrowsKind =
      declared !== null ? Number(declared) > uploadMaxBytes(kind) : record?.size === undefined
    return refuse(413, outgrowsKind ? uploadTooLarge(kind) : PAST_LENGTH)
  }

  const server = new TusServer({
    path: UPLOADS_PATH,
    datastore,
    ...(locker ? { locker } : {}),
    // Relative: right behind any proxy, whatever host or scheme it rewrites.
    relativeLocation: true,
    allowedHeaders: ['Upload-Checksum'],
    // No origin is allowed (the library's default is `*`); withoutCors drops the rest.
    allowedOrigins: [],
    namingFunction: newUploadId,
    getFileIdFromRequest: (_req, last) => (isUploadId(last) ? last : undefined),
    // The library holds every length to this: on OPTIONS (Tus-Max-Size) the largest kind's
    // limit; on a creation, the kind its metadata names; on a PATCH, the upload's kind, for a
    // length declared late and for the bytes of an upload whose length is still deferred. Without
    // a kind, no limit here: onUploadCreate refuses a creation without one.
    async maxSize(req, id) {
      if (id === null) return LARGEST_UPLOAD
      const kind = asUploadKind((await recordOf(id))?.metadata?.kind) ?? kindInHeader(req)
      return kind ? uploadMaxBytes(kind) : 0
    },
    // Creation: decided from the declared length and kind, before a byte is stored.
    async onUploadCreate(req, upload) {
      const kind = asUploadKind(upload.metadata?.kind)
      if (!kind) {
        throw refuse(400, 'Upload-Metadata kind must be video, thumbnail, brandLogo or captions')
      }
      if (upload.size === 0) throw refuse(400, 'The file is empty')
      const owner = caller.getStore()
      if (!owner) throw refuse(401, 'Please sign in to continue')
      // Who created it, beside the metadata, which stays the client's own.
      stampRecord(upload, {
        owner,
        metadataHeader: req.headers.get('upload-metadata') ?? undefined,
      })
      return {}
    },
    // Every later request must come from the upload's creator; others see nothing there.
    async onIncomingRequest(req, id) {
      if (req.method === 'POST') return
      const info = await recordOf(id)
      if (info && ownerOf(info) !== caller.getStore()) throw ERRORS.FILE_NOT_FOUND
      if (req.method !== 'HEAD' && registry.isClaimed(id)) {
        throw refuse(423, 'This upload is being saved with a video. Try again in a moment')
      }
    },
    async onResponseError(req, error) {
      if (isDiskFull(error)) {
        console.error('[tus]', error)
        return refuse(507, STORAGE_FULL)
      }
      // The bucket kept silent past its limits (docs/limits.md): the client resumes later.
      if (isStorageUnavailable(error)) {
        console.error('[tus]', (error as Error).message)
        return refuse(503, STORAGE_UNAVAILABLE)
      }
      const status = (error as { status_code?: number }).status_code
      if (status === 413) return tooLarge(req)
      if (status === 410) return refuse(410, GONE)
      return undefined
    },
    // A wrong type is known as soon as the bytes are in: say so now, not at videos.create.
    // Caption files are text, checked line by line when a change takes them.
    async onUploadFinish(_req, upload) {
      const kind = asUploadKind(upload.metadata?.kind)
      // A length declared late may be 0, which a creation could not say.
      const refusal =
        upload.size === 0
          ? refuse(400, 'The file is empty')
          : kind === CAPTIONS_UPLOAD_KIND
            ? undefined
            : !kind || !kindAccepts(kind, await firstBytesType(upload.id))
              ? refuse(415, wrongTypeMessage(kind ?? 'video'))
              : undefined
      if (refusal) {
        await datastore.remove(upload.id).catch(() => undefined)
        throw refusal
      }
      return {}
    },
  })

  /** The type a finished tus upload's first bytes show. */
  const firstBytesType = async (id: string) =>
    bucket ? sniff(await bucket.head(id)) : sniffFile(join(dir, id))

  server.handlers.PATCH = appendingPatchHandler(server, datastore, bodies)
  server.handlers.HEAD = echoingHeadHandler(server, datastore)

  async function cleanUp(): Promise<number> {
    // deleteExpired stops at the first upload whose data file is already gone; the stray
    // sweep below then removes what it left.
    const expired = await server.cleanUpExpiredUploads().catch((error) => {
      if (bucket) console.error('[tus] clean-up of the bucket failed', error)
      return 0
    })
    // With a bucket, DATA_DIR/uploads still holds registered multipart parts a crash left.
    const localExpired = bucket ? await local.deleteExpired().catch(() => 0) : 0
    return expired + localExpired + (await sweepStrays(dir, expiryMs))
  }

  return {
    cleanUp,
    startCleanup: () => scheduleCleanup(cleanUp),
    finished: registry.finished,
    claim: registry.claim,
    unclaim: registry.unclaim,
    release: registry.release,
    register: registry.register,

    async handle(request, userId, closeIfIdle) {
      if (request.body) {
        const checksumHeader = request.headers.get('upload-checksum')
        const checksum = checksumHeader === null ? undefined : parseChecksum(checksumHeader)
        if (checksumHeader !== null && !checksum) {
          return new Response('Unsupported checksum algorithm', { status: 400 })
        }
        // The bucket's parts leave as they fill, so a body cannot be checked whole before any
        // of it is kept: no checksum extension there (OPTIONS does not offer one).
        if (checksum && !datastore.hasExtension('checksum')) {
          return new Response('Upload-Checksum is not supported by this server', { status: 400 })
        }
        const declared = request.headers.get('content-length')
        const framed = declared !== null && !request.headers.has('transfer-encoding')
        const length = framed ? Number(declared) : undefined
        // Keyed by the body's stream, which a method override hands on as it is.
        bodies.set(request.body, { length, closeIfIdle, checksum })
      }
      return withoutCors(await caller.run(userId, () => server.handleWeb(request)))
    },

    async preflight(request) {
      return withoutCors(await server.handleWeb(request))
    },
  }
}
