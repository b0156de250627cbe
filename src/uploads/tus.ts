// tus resumable uploads at /uploads/ (@tus/server + @tus/file-store), and the hand-over of a
// finished upload to the video service. Uploads live in DATA_DIR/uploads for 24 h from their
// creation, finished or not, unless a video change takes them first.
import { readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  type CancellationContext,
  type DataStore,
  ERRORS,
  Server,
  type ServerOptions,
  Upload,
} from '@tus/server'
import { isDiskFull, STORAGE_FULL } from '../errors.ts'
import { type FileKind, fileKinds, MiB, maxBytes } from '../schemas/limits.ts'
import { msg } from '../schemas/messages.ts'
import { CHECKSUM_ALGORITHMS, type Checksum, parseChecksum } from './checksum.ts'
import { DirectFileStore, isExpired } from './file-store.ts'
import { kindAccepts, sniffFile } from './sniff.ts'

export const UPLOADS_PATH = '/uploads'
export const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000
const CLEANUP_EVERY_MS = 60 * 60 * 1000
/** What a client should send per PATCH: far below Bun's maxRequestBodySize and proxy limits. */
export const CLIENT_CHUNK_BYTES = 50 * MiB

// @tus/server's default naming (Uid.rand): 16 random bytes in hex. Anything else in a URL is not
// an upload of ours, whatever it decodes to (`..`, `%2F`, absolute paths).
const ID_RE = /^[0-9a-f]{32}$/
const newId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')

export const tooLargeMessage = (kind: FileKind, mode: 'create' | 'edit' = 'create') =>
  kind === 'video'
    ? msg.videoSize
    : kind === 'thumbnail'
      ? msg.thumbnailSize
      : mode === 'edit'
        ? msg.brandLogoSizeEdit
        : msg.brandLogoSize

export const wrongTypeMessage = (kind: FileKind) =>
  kind === 'video' ? msg.videoType : msg.imageType

/** A refusal in @tus/server's own shape: it answers with this status and body. */
const refuse = (status_code: number, body: string) => ({ status_code, body })

export type FinishedUpload = { id: string; kind: FileKind; path: string; size: number }

export type UploadLookup =
  | { ok: true; upload: FinishedUpload }
  | { ok: false; reason: 'missing' | 'incomplete' }

export type TusEndpoint = {
  /**
   * Answers a request under /uploads/; `userId` is the signed-in caller, checked before this.
   * `closeIfIdle` closes the request's connection once it is quiet (Bun's server.timeout).
   */
  handle(request: Request, userId: string | null, closeIfIdle?: () => void): Promise<Response>
  /** A finished, unexpired upload that `ownerId` created, ready for the media store to take. */
  finished(id: string, ownerId: string): Promise<UploadLookup>
  /**
   * Marks an upload as being taken by one video change; false when another change holds it.
   * While claimed, it cannot be changed or deleted over tus and the clean-up leaves it alone.
   */
  claim(id: string): boolean
  unclaim(id: string): void
  /** Forgets an upload once the change that took its file has committed. */
  release(id: string): Promise<void>
  /** Registers a file already on disk (a streamed multipart part) as a finished upload. */
  register(path: string, kind: FileKind, ownerId: string): Promise<string>
  /** Removes expired uploads and stray files; run at start-up and periodically. */
  cleanUp(): Promise<number>
  /** Starts the periodic clean-up; returns its stop function. */
  startCleanup(): () => void
}

/** What the PATCH writer needs to know about a request's body. */
type BodyInfo = {
  /** The body's Content-Length; undefined for a chunked body, whose end is unknown. */
  length?: number
  /** Closes the request's connection once it goes quiet; see `stopOnRelease`. */
  closeIfIdle?: () => void
  /** The client's Upload-Checksum of this body. */
  checksum?: Checksum
}

/**
 * @tus/server's PATCH handler, writing through `DirectFileStore.append` instead of its Node
 * stream chain. Offsets, locks, hooks and answers stay the library's.
 */
function appendingPatchHandler(
  server: Server,
  store: DirectFileStore,
  bodies: WeakMap<object, BodyInfo>,
) {
  const Base = server.handlers.PATCH.constructor as new (
    store: DataStore,
    options: ServerOptions,
  ) => Server['handlers']['PATCH']
  return new (class extends Base {
    protected override async writeToStore(
      body: ReadableStream | null,
      upload: Upload,
      maxBodySize: number,
      context: CancellationContext,
    ): Promise<number> {
      if (context.signal.aborted) throw ERRORS.ABORTED
      const info = body ? bodies.get(body) : undefined
      // Another request asked for this upload's lock (a client resuming after its old connection
      // stalled): @tus/server aborts this one after lockDrainTimeout. Bun's native write cannot be
      // stopped from here, so the stalled connection is closed, which ends the write.
      const stopOnRelease = () => info?.closeIfIdle?.()
      context.signal.addEventListener('abort', stopOnRelease, { once: true })
      try {
        return await store.append(upload.id, upload.offset, body, {
          limit: maxBodySize,
          length: info?.length,
          checksum: info?.checksum,
        })
      } finally {
        context.signal.removeEventListener('abort', stopOnRelease)
      }
    }
  })(store, server.handlers.PATCH.options)
}

const kindOf = (value: unknown): FileKind | undefined => fileKinds.find((kind) => kind === value)

/** tus answers carry no CORS headers: the dashboard is same-origin, and others get nothing. */
function withoutCors(response: Response): Response {
  for (const name of [...response.headers.keys()]) {
    if (name.startsWith('access-control-')) response.headers.delete(name)
  }
  return response
}

export function createTusEndpoint(dir: string, expiryMs = UPLOAD_EXPIRY_MS): TusEndpoint {
  const claimed = new Set<string>()
  const datastore = new DirectFileStore({
    directory: dir,
    expirationPeriodInMilliseconds: expiryMs,
    inUse: (id) => claimed.has(id),
  })
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
    namingFunction: newId,
    getFileIdFromRequest: (_req, last) => (last && ID_RE.test(last) ? last : undefined),
    // Creation: decided from the declared length and kind, before a byte is stored.
    async onUploadCreate(req, upload) {
      const kind = kindOf(upload.metadata?.kind)
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
      if (req.method !== 'HEAD' && claimed.has(id)) {
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
      const kind = kindOf(upload.metadata?.kind)
      if (!kind || !kindAccepts(kind, await sniffFile(join(dir, upload.id)))) {
        await datastore.remove(upload.id).catch(() => undefined)
        throw refuse(415, wrongTypeMessage(kind ?? 'video'))
      }
      return {}
    },
  })

  server.handlers.PATCH = appendingPatchHandler(server, datastore, bodies)

  async function sweepStrays(): Promise<number> {
    // Pairs are `<id>` + `<id>.json`; a crash between creating one and the other leaves a half.
    const names = await readdir(dir).catch(() => [] as string[])
    const present = new Set(names)
    const cutoff = Date.now() - expiryMs
    let removed = 0
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -5) : name
      const paired = present.has(id) && present.has(`${id}.json`)
      if (paired && ID_RE.test(id)) continue
      const info = await stat(join(dir, name)).catch(() => undefined)
      if (info && info.mtimeMs < cutoff) {
        await rm(join(dir, name), { recursive: true, force: true })
        removed++
      }
    }
    return removed
  }

  async function cleanUp(): Promise<number> {
    // deleteExpired stops at the first upload whose data file is already gone; the stray
    // sweep below then removes what it left.
    const expired = await server.cleanUpExpiredUploads().catch(() => 0)
    return expired + (await sweepStrays())
  }

  return {
    cleanUp,
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

    async finished(id, ownerId) {
      if (!ID_RE.test(id)) return { ok: false, reason: 'missing' }
      const info = await datastore.configstore.get(id)
      const kind = kindOf(info?.metadata?.kind)
      if (!info || !kind || info.metadata?.owner !== ownerId || isExpired(info, expiryMs))
        return { ok: false, reason: 'missing' }
      const path = join(dir, id)
      const size = await stat(path).then(
        (s) => s.size,
        () => undefined,
      )
      if (size === undefined) return { ok: false, reason: 'missing' }
      if (size !== info.size) return { ok: false, reason: 'incomplete' }
      return { ok: true, upload: { id, kind, path, size } }
    },

    claim(id) {
      if (claimed.has(id)) return false
      claimed.add(id)
      return true
    },

    unclaim(id) {
      claimed.delete(id)
    },

    async release(id) {
      // The info file first: without it the upload is gone at once, whatever a crash leaves.
      if (ID_RE.test(id)) await datastore.configstore.delete(id).catch(() => undefined)
      if (ID_RE.test(id)) await rm(join(dir, id), { force: true })
    },

    async register(path, kind, ownerId) {
      const id = newId()
      const size = (await stat(path)).size
      await rename(path, join(dir, id))
      const upload = new Upload({ id, size, offset: size, metadata: { kind, owner: ownerId } })
      await datastore.configstore.set(id, upload)
      return id
    },

    startCleanup() {
      const timer = setInterval(() => {
        cleanUp().catch((error) => console.error('[tus] clean-up failed', error))
      }, CLEANUP_EVERY_MS)
      timer.unref()
      return () => clearInterval(timer)
    },
  }
}
