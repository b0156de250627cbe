// @tus/server's PATCH handler, writing through `DirectFileStore.append` instead of its Node stream
// chain (see file-store.ts for why). Offsets, locks, hooks and answers stay the library's.
//
// This reaches into @tus/server 2.4.5's internals (pinned exactly in package.json): the class of
// `server.handlers.PATCH`, its protected `writeToStore` and its `options`. It can go when the
// library's BaseHandler.writeToStore hands the request's web stream to the store instead of
// wrapping it in Readable.fromWeb → PassThrough → StreamLimiter; no upstream issue found as of
// 2026-11. While it stands, the library's POST_RECEIVE progress event is not emitted for PATCH
// bodies (nothing here listens to it).
// It also puts `Upload-Expires` on the answer to the PATCH that finishes an upload: the library
// leaves it off there, but our finished uploads expire too (expiry.ts), and the tus spec asks for
// it on every PATCH answer when the upload is going to expire.
import {
  type CancellationContext,
  type DataStore,
  ERRORS,
  type Server,
  type ServerOptions,
  type Upload,
} from '@tus/server'
import type { Checksum } from './checksum.ts'
import { expiresHeader } from './expiry.ts'
import type { UploadRecord } from './record.ts'

/** What the PATCH writer needs to know about a request's body, keyed by the body's stream. */
export type BodyInfo = {
  /** The body's Content-Length; undefined for a chunked body, whose end is unknown. */
  length?: number
  /** Closes the request's connection once it goes quiet; see `stopOnRelease`. */
  closeIfIdle?: () => void
  /** The client's Upload-Checksum of this body. */
  checksum?: Checksum
}

/** A store that takes a PATCH body as the request's web stream (file-store.ts, bucket-store.ts). */
export type AppendingStore = DataStore & {
  configstore: { get(id: string): Promise<UploadRecord | undefined> }
  append(
    id: string,
    offset: number,
    body: ReadableStream<Uint8Array> | null,
    options: { limit: number; length?: number; checksum?: Checksum; signal?: AbortSignal },
  ): Promise<number>
}

/** The class of @tus/server's handler of `method`, to extend (2.4.5: see the note above). */
export function handlerClass<M extends 'HEAD' | 'PATCH'>(server: Server, method: M) {
  return server.handlers[method].constructor as new (
    store: DataStore,
    options: ServerOptions,
  ) => Server['handlers'][M]
}

export function appendingPatchHandler(
  server: Server,
  store: AppendingStore,
  bodies: WeakMap<object, BodyInfo>,
) {
  return new (class extends handlerClass(server, 'PATCH') {
    override async send(...args: Parameters<Server['handlers']['PATCH']['send']>) {
      const response = await super.send(...args)
      const [req] = args
      const id =
        response.ok && !response.headers.has('upload-expires') && this.getFileIdFromRequest(req)
      const record = id ? await store.configstore.get(id) : undefined
      const expires = record && expiresHeader(record, store.getExpiration())
      if (expires) response.headers.set('Upload-Expires', expires)
      return response
    }

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
          signal: context.signal,
        })
      } finally {
        context.signal.removeEventListener('abort', stopOnRelease)
      }
    }
  })(store, server.handlers.PATCH.options)
}
