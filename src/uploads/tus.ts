// tus resumable uploads at /uploads/ (@tus/server + @tus/file-store): the endpoint and its hooks.
// Uploads live in DATA_DIR/uploads for 24 h from their creation, finished or not, unless a video
// change takes them first (registry.ts, intake.ts). The write path is ours: patch-handler.ts and
// file-store.ts; the expiry rules are in expiry.ts.
import { join } from 'node:path'
import { ERRORS, Server } from '@tus/server'
import { isDiskFull, STORAGE_FULL } from '../errors.ts'
import {
  asFileKind,
  kindAccepts,
  maxBytes,
  tooLargeMessage,
  wrongTypeMessage,
} from '../schemas/file-rules.ts'
import { MiB } from '../schemas/limits.ts'
import { CHECKSUM_ALGORITHMS, parseChecksum } from './checksum.ts'
import { scheduleCleanup, sweepStrays, UPLOAD_EXPIRY_MS } from './expiry.ts'
import { DirectFileStore } from './file-store.ts'
import { appendingPatchHandler, type BodyInfo } from './patch-handler.ts'
import { createUploadRegistry, type UploadRegistry } from './registry.ts'
import { sniffFile } from './sniff.ts'
import { isUploadId, newUploadId } from './upload-ids.ts'

export const UPLOADS_PATH = '/uploads'
/** What a client should send per PATCH: far below Bun's maxRequestBodySize and proxy limits. */
export const CLIENT_CHUNK_BYTES = 50 * MiB

/** A refusal in @tus/server's own shape: it answers with this status and body. */
const refuse = (status_code: number, body: string) => ({ status_code, body })

export type TusEndpoint = Omit<UploadRegistry, 'isClaimed'> & {
  /**
   * Answers a request under /uploads/; `userId` is the signed-in caller, checked before this.
   * `closeIfIdle` closes the request's connection once it is quiet (Bun's server.timeout).
   */
  handle(request: Request, userId: string | null, closeIfIdle?: () => void): Promise<Response>
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

export function createTusEndpoint(dir: string, expiryMs = UPLOAD_EXPIRY_MS): TusEndpoint {
  const datastore = new DirectFileStore({
    directory: dir,
    expirationPeriodInMilliseconds: expiryMs,
    inUse: (id) => registry.isClaimed(id),
  })
  const registry = createUploadRegistry(dir, datastore.configstore, expiryMs)
  const callers = new WeakMap<Request, string>()
  const bodies = new WeakMap<object, BodyInfo>()

  const server = new Server({
    path: UPLOADS_PATH,
    datastore,
    // Relative: right behind any proxy, whatever host or scheme it rewrites.
    relativeLocation: true,
    allowedHeaders: ['Upload-Checksum'],
    // No origin is allowed (the library's default is `*`); withoutCors drops the rest.
    allowedOrigins: [],
    namingFunction: newUploadId,
    getFileIdFromRequest: (_req, last) => (isUploadId(last) ? last : undefined),
    // Creation: decided from the declared length and kind, before a byte is stored.
    async onUploadCreate(req, upload) {
      const kind = asFileKind(upload.metadata?.kind)
      if (!kind) throw refuse(400, 'Upload-Metadata kind must be video, thumbnail or brandLogo')
      if (upload.sizeIsDeferred) throw refuse(400, 'Upload-Length is required')
      if (upload.size === 0) throw refuse(400, 'The file is empty')
      if ((upload.size ?? 0) > maxBytes(kind)) throw refuse(413, tooLargeMessage(kind))
      // The owner is ours to write; a client's `owner` metadata is overwritten.
      return { metadata: { ...upload.metadata, kind, owner: callers.get(req) ?? null } }
    },
    // Every later request must come from the upload's creator; others see nothing there.
    async onIncomingRequest(req, id) {
      if (req.method === 'POST') return
      const info = await datastore.configstore.get(id)
      if (info && info.metadata?.owner !== callers.get(req)) throw ERRORS.FILE_NOT_FOUND
      if (req.method !== 'HEAD' && registry.isClaimed(id)) {
        throw refuse(423, 'This upload is being saved with a video. Try again in a moment')
      }
    },
    async onResponseError(_req, error) {
      if (!isDiskFull(error)) return undefined
      console.error('[tus]', error)
      return refuse(507, STORAGE_FULL)
    },
    // A wrong type is known as soon as the bytes are in: say so now, not at videos.create.
    async onUploadFinish(_req, upload) {
      const kind = asFileKind(upload.metadata?.kind)
      if (!kind || !kindAccepts(kind, await sniffFile(join(dir, upload.id)))) {
        await datastore.remove(upload.id).catch(() => undefined)
        throw refuse(415, wrongTypeMessage(kind ?? 'video'))
      }
      return {}
    },
  })

  server.handlers.PATCH = appendingPatchHandler(server, datastore, bodies)

  async function cleanUp(): Promise<number> {
    // deleteExpired stops at the first upload whose data file is already gone; the stray
    // sweep below then removes what it left.
    const expired = await server.cleanUpExpiredUploads().catch(() => 0)
    return expired + (await sweepStrays(dir, expiryMs))
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
      // Preflight carries no credentials; everything else needs a signed-in admin.
      if (request.method !== 'OPTIONS' && !userId) {
        return new Response('Please sign in to continue', { status: 401 })
      }
      const checksumHeader = request.headers.get('upload-checksum')
      const checksum = checksumHeader === null ? undefined : parseChecksum(checksumHeader)
      if (request.method === 'PATCH' && checksumHeader !== null && !checksum) {
        return new Response('Unsupported checksum algorithm', {
          status: 400,
          headers: { 'Tus-Resumable': '1.0.0' },
        })
      }
      if (request.body) {
        const declared = request.headers.get('content-length')
        const framed = declared !== null && !request.headers.has('transfer-encoding')
        const length = framed ? Number(declared) : undefined
        bodies.set(request.body, { length, closeIfIdle, checksum })
      }
      if (userId) callers.set(request, userId)
      const response = withoutCors(await server.handleWeb(request))
      if (request.method === 'OPTIONS') {
        response.headers.set('Tus-Checksum-Algorithm', CHECKSUM_ALGORITHMS.join(','))
      }
      return response
    },
  }
}
