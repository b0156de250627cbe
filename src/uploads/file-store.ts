// @tus/file-store with leaner writes. @tus/server hands a PATCH body to the store through
// Readable.fromWeb, a PassThrough and a Transform: in Bun that chain ran tus at about a fifth of
// a plain disk write and grew RSS by hundreds of MB per GiB (bench/upload). `append` takes the
// request's web stream instead and lets Bun move it to the file natively.
// Not an fd opened for appending: for a body it already holds whole, Bun.write preallocates the
// file from 0 to the body's length, and O_APPEND then lands the bytes after that (measured in
// 1.4.5: a 2,860-byte first chunk made a 5,720-byte file); see also nativeWriteIsSafe.
// Semantics are the store's own: what arrived before a failure stays, and the next HEAD reports
// it (the offset is the file's size).
//
// Overrides of @tus/file-store 2.1.1, pinned exactly in package.json because they lean on its
// internals (the `configstore`'s list/get, `remove`, `extensions`, `getExpiration`):
// - `deleteExpired` can go if the store ever expires finished uploads too and goes on past an
//   upload whose data file is already gone. It skips finished ones on purpose (the expiration
//   extension is about unfinished uploads; the design proposed in tus/tus-node-server#315 removes
//   "uploads that are both expired AND incomplete"); no upstream issue asks otherwise, as of 2026-11.
// - `append` (with the PATCH handler of patch-handler.ts) can go when @tus/server hands a PATCH
//   body to the store as the request's web stream rather than through Readable.fromWeb; no
//   upstream issue found as of 2026-11.
// - the `checksum` extension: neither @tus/server nor @tus/file-store has it; no upstream issue
//   found as of 2026-11.
import { type FileHandle, open, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { FileStore } from '@tus/file-store'
import { ERRORS } from '@tus/server'
import { isDiskFull } from '../errors.ts'
import { countUploadedBytes } from '../telemetry/process-metrics.ts'
import { CHECKSUM_MISMATCH, type Checksum, hasherFor } from './checksum.ts'
import { isExpired } from './expiry.ts'
import { seek } from './seek.ts'

/** A body that stopped because its client went away or went quiet: keep what arrived. */
const clientGone = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'AbortError' || (error as { code?: string }).code === 'ECONNRESET')

async function writeAt(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    done += (await handle.write(bytes, done, bytes.length - done, position + done)).bytesWritten
  }
}

/**
 * Whether Bun.write may take this body. For a body it already holds whole, Bun first
 * preallocates the file from 0 to the body's length (fallocate mode 0, measured in 1.4.5). While
 * the upload is shorter than that, this grows the file before the bytes land, and a crash in
 * between would leave zeros that the next HEAD reports as received. That cannot happen once the
 * offset is at least the body's length (preallocation then changes nothing), nor for a body far
 * larger than what Bun reads ahead of the handler (bodies of 100 and 600 KB were held whole when
 * the handler started 300 ms late; 3 MB and more never were). Other bodies, and those without a
 * length, are written from JavaScript.
 */
const NEVER_HELD_WHOLE = 16 * 1024 * 1024
const nativeWriteIsSafe = (offset: number, length: number | undefined) =>
  length !== undefined && (length <= offset || length >= NEVER_HELD_WHOLE)

/** Writes a body chunk by chunk from JavaScript, counting it against `limit` and hashing it. */
async function writeCounted(
  handle: FileHandle,
  body: ReadableStream<Uint8Array>,
  offset: number,
  limit: number,
  checksum: Checksum | undefined,
): Promise<void> {
  const hasher = checksum && hasherFor(checksum)
  const end = offset + limit
  let position = offset
  for await (const chunk of body) {
    // Not a byte past the declared size; the caller drops what this body wrote before.
    if (position + chunk.length > end) throw ERRORS.ERR_MAX_SIZE_EXCEEDED
    await writeAt(handle, chunk, position)
    hasher?.update(chunk)
    position += chunk.length
  }
  if (checksum && hasher?.digest('base64') !== checksum.digest) throw CHECKSUM_MISMATCH
}

export type DirectFileStoreOptions = ConstructorParameters<typeof FileStore>[0] & {
  /** Uploads a video change is taking right now: the clean-up leaves them alone. */
  inUse?: (id: string) => boolean
}

export class DirectFileStore extends FileStore {
  private readonly dir: string
  private readonly inUse: (id: string) => boolean

  constructor({ inUse, ...options }: DirectFileStoreOptions) {
    super(options)
    this.dir = options.directory
    this.inUse = inUse ?? (() => false)
    this.extensions = [...this.extensions, 'checksum']
  }

  /**
   * Removes every upload past its expiry, finished or not. @tus/file-store's own skips uploads
   * whose recorded offset equals their size, which is how a file registered from a multipart
   * body is recorded, so those would never go; it also gives up at the first file already gone.
   */
  override async deleteExpired(): Promise<number> {
    const expiry = this.getExpiration()
    if (expiry <= 0) return 0
    let removed = 0
    for (const id of (await this.configstore.list?.()) ?? []) {
      if (this.inUse(id)) continue
      const info = await this.configstore.get(id)
      if (!info || !isExpired(info, expiry)) continue
      await this.remove(id).catch(() => undefined)
      removed++
    }
    return removed
  }

  /**
   * Writes a PATCH body into upload `id` from `offset` (which @tus/server has checked, under the
   * upload's lock, to be the file's size) and answers the new offset. `limit` is what the upload
   * may still take; `length` is the body's Content-Length, when it has one (HTTP framing then
   * bounds the body, and @tus/server has checked that it fits). With a `checksum`, the body is
   * kept only if it matches (whole: a cut-off body cannot be verified, so none of it is kept).
   */
  async append(
    id: string,
    offset: number,
    body: ReadableStream<Uint8Array> | null,
    { limit, length, checksum }: { limit: number; length?: number; checksum?: Checksum },
  ): Promise<number> {
    const path = join(this.dir, id)
    const handle = await open(path, 'r+')
    try {
      if (!body) {
        // Nothing to write.
      } else if (nativeWriteIsSafe(offset, length) && !checksum && seek(handle.fd, offset)) {
        // Bun's own body-to-file path writes at the descriptor's position with no JavaScript
        // per chunk, and holds the socket when the disk is slower than the client.
        await Bun.write(Bun.file(handle.fd), new Response(body))
      } else {
        await writeCounted(handle, body, offset, limit, checksum)
      }
    } catch (error) {
      const refused = error === ERRORS.ERR_MAX_SIZE_EXCEEDED || error === CHECKSUM_MISMATCH
      if (!refused && !clientGone(error)) {
        // A fault of ours (disk full, I/O error): drop this request's bytes so the offset is
        // one the client can trust, and let it send them again. A full disk goes on as itself
        // (the endpoint answers 507 and logs it); anything else is the store's write error.
        await handle.truncate(offset).catch(() => undefined)
        if (isDiskFull(error)) throw error
        console.error('[tus] write failed', error)
        throw ERRORS.FILE_WRITE_ERROR
      }
      // A refused body keeps nothing: a checksum covers it whole, and one that ran past the
      // upload's size must not leave it complete without the finish check (which runs only
      // when a PATCH succeeds).
      if (checksum || refused) await handle.truncate(offset)
      if (refused) throw error
    } finally {
      await handle.close().catch(() => undefined)
    }
    const size = (await stat(path)).size
    countUploadedBytes('tus', size - offset)
    return size
  }

  /** Creation-with-upload bodies (POST) still come through @tus/server's Node stream. */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const handle = await open(join(this.dir, id), 'r+')
    let position = offset
    try {
      for await (const chunk of readable as AsyncIterable<Uint8Array>) {
        await writeAt(handle, chunk, position)
        position += chunk.length
      }
    } catch (error) {
      throw isDiskFull(error) ? error : ERRORS.FILE_WRITE_ERROR
    } finally {
      await handle.close()
    }
    countUploadedBytes('tus', position - offset)
    return position
  }
}
