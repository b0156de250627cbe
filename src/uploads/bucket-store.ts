// tus uploads in the media bucket (S3_BUCKET), so that any server behind the load balancer can take
// an upload's next request: @tus/s3-store keeps an upload as one S3 multipart upload, its record as
// `<id>.info` and a PATCH's tail shorter than a part (S3 refuses parts under 5 MiB but the last) as
// `<id>.part`, and works out the offset from the parts each time, so a server holds nothing of an
// upload between requests. docs/decisions/072-tus-uploads-in-the-bucket-with-tus-s3-store.md says
// why this library and what is ours around it.
//
// Overrides of @tus/s3-store 2.0.7, pinned exactly in package.json because they lean on its
// protected members (`client`, `bucket`, `saveMetadata`, `getMetadata`):
// - every key it makes goes under `uploads/` (a client middleware): it writes at the bucket's
//   root, next to nothing of ours, and no prefix option exists as of 2026-11. The media store's
//   listings and start-up sweep read masters/, images/ and streams/ only;
// - no cache of records: its default keeps them in this process, which another server's PATCH
//   or DELETE would make stale;
// - `remove` goes on when the multipart upload is already completed (a finished upload) and
//   removes the `.part` too; `declareUploadLength` keeps our fields of the record (owner, the
//   metadata as sent); `deleteExpired` expires finished uploads too (expiry.ts) and only under
//   `uploads/` (the library's aborts every multipart upload of the bucket past the period);
// - `append`: the PATCH body as the request's web stream (patch-handler.ts), which keeps what
//   arrived when the client goes away or another request takes the upload, as the disk store does.
import { ReadStream } from 'node:fs'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough, type Readable } from 'node:stream'
import { type MetadataValue, S3Store } from '@tus/s3-store'
import { ERRORS, type KvStore, Upload } from '@tus/server'
import type { S3Config } from '../config.ts'
import { isDiskFull } from '../errors.ts'
import { s3ClientConfig } from '../storage/s3-client.ts'
import { countUploadedBytes } from '../telemetry/process-metrics.ts'
import { isExpired } from './expiry.ts'
import type { UploadRecord } from './record.ts'
import { canSeek, seek } from './seek.ts'
import { SNIFF_BYTES } from './sniff.ts'
import { isUploadId } from './upload-ids.ts'

/** Where in the bucket uploads live while in progress; nothing else of the app is there. */
export const BUCKET_UPLOADS_PREFIX = 'uploads/'
// 8 MiB parts: a 50 MiB chunk is six parts and a 2 MiB tail kept as `<id>.part` until the next.
const PART_BYTES = 8 * 1024 * 1024
// Parts of one PATCH sent at once; each waits in a temporary file until it is sent. Two saved no
// memory on bench/storage, and 16 MiB parts cost more (bench/README.md).
const PARTS_IN_FLIGHT = 4

/** The keys @tus/s3-store makes for an upload: the object, its record and its short tail. */
const STORE_KEY = /^[0-9a-f]{32}(\.info|\.part)?$/

const nameOf = (error: unknown) => (error as { name?: string })?.name
const isMissing = (error: unknown) =>
  ['NoSuchKey', 'NotFound', 'NoSuchUpload'].includes(nameOf(error) ?? '')

/**
 * A part the library waits in a temporary file goes as that file: Bun's fetch reads a Node
 * stream body into memory whole before sending (+431 MB against +237 MB through node:http on
 * bench/storage), a file it sends from the disk. The stream, never read, is closed.
 */
function partBody<T>(body: T): T {
  if (!(body instanceof ReadStream) || typeof body.path !== 'string') return body
  body.destroy()
  return Bun.file(body.path) as unknown as T
}

/** A cache that keeps nothing: every request reads the record another server may have changed. */
const noCache: KvStore<MetadataValue> = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
}

/** Puts the library's keys under the prefix; keys of ours (masters/…) pass as they are. */
function prefixed(key: unknown) {
  return typeof key === 'string' && STORE_KEY.test(key) ? `${BUCKET_UPLOADS_PREFIX}${key}` : key
}

export type BucketStoreOptions = {
  s3: S3Config
  expirationPeriodInMilliseconds: number
  /** Uploads a video change is taking right now: the clean-up leaves them alone. */
  inUse?: (id: string) => boolean
}

export class BucketUploadStore extends S3Store {
  private readonly inUse: (id: string) => boolean

  /** Records as written, our fields included (the library's `getUpload` drops them). */
  readonly configstore = {
    get: (id: string) => this.record(id),
  }

  constructor({ s3, expirationPeriodInMilliseconds, inUse }: BucketStoreOptions) {
    super({
      // Through fetch, bounded, as the storage engine's requests go (s3-client.ts): Bun's node:http
      // client holds about two copies of a part in flight
      // (docs/decisions/067-the-s3-engine-parts-head-after-write-missing-bucket-batch-deletes.md).
      s3ClientConfig: { ...s3ClientConfig(s3), bucket: s3.bucket },
      partSize: PART_BYTES,
      maxConcurrentPartUploads: PARTS_IN_FLIGHT,
      expirationPeriodInMilliseconds,
      // Tags drive a bucket lifecycle rule we do not rely on, and not every store has them.
      useTags: false,
      cache: noCache,
    })
    this.inUse = inUse ?? (() => false)
    this.client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as {
          Key?: string
          Delete?: { Objects?: { Key?: string }[] }
        }
        if (input.Key !== undefined) input.Key = prefixed(input.Key) as string
        for (const object of input.Delete?.Objects ?? [])
          object.Key = prefixed(object.Key) as string
        return next(args)
      },
      { step: 'initialize', name: 'tusUploadsPrefix' },
    )
  }

  /** An upload's record, or undefined when it has none (never created, removed or expired). */
  async record(id: string): Promise<UploadRecord | undefined> {
    if (!isUploadId(id)) return undefined
    try {
      const got = await this.client.getObject({ Bucket: this.bucket, Key: `${id}.info` })
      return JSON.parse((await got.Body?.transformToString()) ?? 'null') ?? undefined
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
  }

  /** The finished upload's size; undefined while it is in progress (no object yet) or gone. */
  async finishedSize(id: string): Promise<number | undefined> {
    try {
      const got = await this.client.headObject({ Bucket: this.bucket, Key: id })
      return got.ContentLength
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
  }

  /** The finished upload's first bytes, for the type check. */
  async head(id: string): Promise<Uint8Array> {
    const got = await this.client.getObject({
      Bucket: this.bucket,
      Key: id,
      Range: `bytes=0-${SNIFF_BYTES - 1}`,
    })
    return (await got.Body?.transformToByteArray()) ?? new Uint8Array(0)
  }

  /** The finished upload's first `size` bytes (a small upload read whole: a caption file). */
  async bytes(id: string, size: number): Promise<Uint8Array> {
    if (size === 0) return new Uint8Array(0)
    const got = await this.client.getObject({
      Bucket: this.bucket,
      Key: id,
      Range: `bytes=0-${size - 1}`,
    })
    return (await got.Body?.transformToByteArray()) ?? new Uint8Array(0)
  }

  /**
   * Copies the finished upload to `key` of the same bucket inside the store (CopyObject: no byte
   * passes through this server); the upload stays until its change has committed. A missing
   * upload is ENOENT, as a missing file is.
   */
  async copyTo(id: string, key: string): Promise<void> {
    await this.client
      .copyObject({
        Bucket: this.bucket,
        Key: key,
        CopySource: `${this.bucket}/${BUCKET_UPLOADS_PREFIX}${id}`,
      })
      .catch((error) => {
        if (isMissing(error)) throw Object.assign(new Error(`no upload ${id}`), { code: 'ENOENT' })
        throw error
      })
  }

  protected override uploadPart(
    metadata: MetadataValue,
    readStream: ReadStream | Readable | Buffer,
    partNumber: number,
  ): Promise<string> {
    return super.uploadPart(metadata, partBody(readStream), partNumber)
  }

  protected override uploadIncompletePart(id: string, readStream: ReadStream | Readable) {
    return super.uploadIncompletePart(id, partBody(readStream) as unknown as Readable)
  }

  override async declareUploadLength(id: string, length: number): Promise<void> {
    const { 'upload-id': multipartId } = await this.getMetadata(id)
    const record = await this.record(id)
    if (!record) throw ERRORS.FILE_NOT_FOUND
    await this.saveMetadata(
      Object.assign(new Upload(record), record, { size: length }),
      multipartId,
    )
  }

  override async remove(id: string): Promise<void> {
    let multipartId: string | undefined
    try {
      multipartId = (await this.getMetadata(id))['upload-id']
    } catch (error) {
      if (isMissing(error)) throw ERRORS.FILE_NOT_FOUND
      throw error
    }
    if (multipartId) {
      await this.client
        .abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: multipartId })
        .catch((error) => {
          // Completed already: the upload is finished and its object is removed below.
          if (!isMissing(error)) throw error
        })
    }
    // The record last: while it stands, a clean-up finds the upload again.
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [{ Key: id }, { Key: `${id}.part` }] },
    })
    await this.client.deleteObject({ Bucket: this.bucket, Key: `${id}.info` })
  }

  /**
   * Removes every upload past its period from creation, finished or not, then what a crash left
   * without a record (objects, tails and multipart uploads older than the period).
   */
  override async deleteExpired(): Promise<number> {
    const expiry = this.getExpiration()
    if (expiry <= 0) return 0
    let removed = 0
    const withRecord = new Set<string>()
    const strays: string[] = []
    const cutoff = Date.now() - expiry
    let token: string | undefined
    do {
      const page = await this.client.listObjectsV2({
        Bucket: this.bucket,
        Prefix: BUCKET_UPLOADS_PREFIX,
        ContinuationToken: token,
      })
      for (const item of page.Contents ?? []) {
        const name = item.Key?.slice(BUCKET_UPLOADS_PREFIX.length) ?? ''
        const id = name.replace(/\.(info|part)$/, '')
        if (name.endsWith('.info') && isUploadId(id)) withRecord.add(id)
        // Only keys the library makes: anything else under the prefix is left as it is.
        else if (STORE_KEY.test(name) && (item.LastModified?.getTime() ?? 0) < cutoff) {
          strays.push(name)
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    for (const id of withRecord) {
      if (this.inUse(id)) continue
      const record = await this.record(id)
      if (record && !isExpired(record, expiry)) continue
      await this.remove(id).catch(() => undefined)
      removed++
    }
    const orphans = strays.filter((name) => !withRecord.has(name.replace(/\.part$/, '')))
    for (let at = 0; at < orphans.length; at += 1000) {
      await this.client.deleteObjects({
        Bucket: this.bucket,
        Delete: { Objects: orphans.slice(at, at + 1000).map((name) => ({ Key: name })) },
      })
    }
    return removed + orphans.length + (await this.abortOrphanedMultiparts(withRecord, cutoff))
  }

  /** Multipart uploads under the prefix whose upload has no record, begun before `cutoff`. */
  private async abortOrphanedMultiparts(withRecord: Set<string>, cutoff: number) {
    let aborted = 0
    let KeyMarker: string | undefined
    let UploadIdMarker: string | undefined
    do {
      const page = await this.client.listMultipartUploads({
        Bucket: this.bucket,
        Prefix: BUCKET_UPLOADS_PREFIX,
        KeyMarker,
        UploadIdMarker,
      })
      for (const upload of page.Uploads ?? []) {
        const id = upload.Key?.slice(BUCKET_UPLOADS_PREFIX.length) ?? ''
        if (withRecord.has(id) || (upload.Initiated?.getTime() ?? 0) >= cutoff) continue
        await this.client
          .abortMultipartUpload({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId })
          .catch(() => undefined)
        aborted++
      }
      KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined
      UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined
    } while (KeyMarker)
    return aborted
  }

  /**
   * Writes a PATCH body into upload `id` from `offset` and answers the new offset. `limit` is
   * what the upload may still take. When the client goes away, or `signal` says another request
   * wants the upload, the body ends there and what arrived is kept: whole parts go to the
   * multipart upload, a shorter tail to `<id>.part`, so the next HEAD reports every byte kept.
   */
  async append(
    id: string,
    offset: number,
    body: ReadableStream<Uint8Array> | null,
    { limit, length, signal }: { limit: number; length?: number; signal?: AbortSignal },
  ): Promise<number> {
    if (limit === 0) {
      // Whole already (its multipart upload may be completed): no byte may come, none goes out.
      for await (const chunk of body ?? []) if (chunk.length > 0) throw ERRORS.ERR_MAX_SIZE_EXCEEDED
      return offset
    }
    if (body && length !== undefined && length <= limit && canSeek) {
      let newOffset: number
      try {
        newOffset = await this.appendStaged(id, offset, body)
      } catch (error) {
        if (isDiskFull(error)) throw error
        console.error('[tus] bucket write failed', error)
        throw ERRORS.FILE_WRITE_ERROR
      }
      countUploadedBytes('tus', newOffset - offset)
      return newOffset
    }
    const source = new PassThrough()
    let refused = false
    const pump = async () => {
      if (!body) return
      const reader = body.getReader()
      const stop = () => reader.cancel().catch(() => undefined)
      signal?.addEventListener('abort', stop, { once: true })
      let received = 0
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done || source.destroyed) return
          received += value.length
          if (received > limit) {
            // Not a byte past the upload's size: nothing of this body's unsent tail is kept.
            refused = true
            source.destroy(new Error('past the upload size'))
            return
          }
          if (!source.write(value)) {
            // Both listeners go once either fires: a body that waits often would pile them up.
            await new Promise<void>((resolve) => {
              const go = () => {
                source.off('drain', go)
                source.off('close', go)
                resolve()
              }
              source.once('drain', go)
              source.once('close', go)
            })
          }
        }
      } catch {
        // The client went away or the body was cancelled: keep what arrived.
      } finally {
        signal?.removeEventListener('abort', stop)
        if (!source.destroyed) source.end()
      }
    }
    const pumped = pump()
    let newOffset: number
    try {
      newOffset = await this.write(source, id, offset)
    } catch (error) {
      await pumped
      if (refused) throw ERRORS.ERR_MAX_SIZE_EXCEEDED
      // No room for a part's temporary file: the endpoint answers 507 and logs it.
      if (isDiskFull(error)) throw error
      console.error('[tus] bucket write failed', error)
      throw ERRORS.FILE_WRITE_ERROR
    }
    await pumped
    countUploadedBytes('tus', newOffset - offset)
    return newOffset
  }

  /**
   * A PATCH body of known length, within what the upload may take. Bun writes it to a scratch
   * file natively, with no JavaScript chunk per read: the streamed path below makes a gigabyte
   * of short-lived chunks per gigabyte uploaded, which held the server about 100 MB above where
   * it started (bench/storage). Each part goes to the bucket as a slice of that file once the
   * file holds it, while the rest of the body is still landing. The previous PATCH's tail
   * (`.part`) goes first in the file. What arrived before the client went away, or before the
   * connection was closed for another request (patch-handler.ts), is kept as on the streamed
   * path: whole parts in the multipart upload, a shorter tail as `.part`.
   */
  private async appendStaged(id: string, offset: number, body: ReadableStream<Uint8Array>) {
    // Three reads of the bucket before the body is taken, two of them at once: each is a round
    // trip every PATCH pays.
    const [[metadata, parts], tail] = await Promise.all([
      this.getMetadata(id).then(
        async (metadata) => [metadata, await this.retrieveParts(id)] as const,
      ),
      this.tailBytes(id),
    ])
    const dir = await mkdtemp(join(tmpdir(), 'tus-s3-'))
    const path = join(dir, 'body')
    const handle = await open(path, 'w+')
    try {
      if (tail.length > 0) {
        await handle.write(tail, 0, tail.length, 0)
        // In the file now, and sent again from there as the file's first bytes. Removed before
        // any part lands, so no crash can count them twice (as `.part` and in a part): at worst
        // the next HEAD is that much shorter and the client sends them again.
        await this.deleteIncompletePart(id)
      }
      if (!seek(handle.fd, tail.length)) throw new Error('cannot place the body after the tail')
      let landed: number | undefined
      const writing = Bun.write(Bun.file(handle.fd), new Response(body))
        .catch((error) => {
          // The client went away, or its stalled connection was closed: keep what landed.
          if (isDiskFull(error)) throw error
        })
        .then(async () => {
          landed = (await handle.stat()).size
        })
      const sent = this.sendSlices(metadata, Bun.file(path), offset - tail.length, parts, {
        size: async () => landed ?? (await handle.stat()).size,
        final: () => landed,
        landing: writing,
      })
      await Promise.allSettled([writing, sent])
      await writing
      await sent
      const newOffset = offset - tail.length + (landed ?? 0)
      if (metadata.file.size === newOffset) {
        await this.finishMultipartUpload(metadata, await this.retrieveParts(id))
        await this.completeMetadata(metadata.file)
      }
      return newOffset
    } finally {
      await handle.close()
      await rm(dir, { recursive: true, force: true })
    }
  }

  /** The upload's `.part` (shorter than a part, so small), or nothing. */
  private async tailBytes(id: string): Promise<Uint8Array> {
    try {
      const got = await this.client.getObject({ Bucket: this.bucket, Key: this.partKey(id, true) })
      return (await got.Body?.transformToByteArray()) ?? new Uint8Array(0)
    } catch (error) {
      if (isMissing(error)) return new Uint8Array(0)
      throw error
    }
  }

  /**
   * Sends `file`, which holds the upload from `start` and is still being written, as parts after
   * `parts`, up to PARTS_IN_FLIGHT at once, each as soon as the file holds it (Bun's fetch sends
   * a slice of a file from the disk). Once the write is over (`final` says how long the file is),
   * a last slice shorter than the store's smallest part that does not finish the upload becomes
   * the `.part`.
   */
  private async sendSlices(
    metadata: MetadataValue,
    file: Blob,
    start: number,
    parts: { PartNumber?: number }[],
    written: { size(): Promise<number>; final(): number | undefined; landing: Promise<void> },
  ) {
    const partSize = this.calcOptimalPartSize(metadata.file.size)
    const firstPart = (parts.at(-1)?.PartNumber ?? 0) + 1
    let landingOver = false
    const over = written.landing.then(
      () => undefined,
      () => undefined,
    )
    void over.then(() => {
      landingOver = true
    })
    /** The end of slice `index` once the file holds it; null when the file ended before it. */
    const sliceEnd = async (index: number): Promise<number | null> => {
      const at = index * partSize
      for (;;) {
        const total = written.final()
        if (total !== undefined) return at < total ? Math.min(total, at + partSize) : null
        if ((await written.size()) >= at + partSize) return at + partSize
        // Polled: Bun's native write tells nothing until it is over.
        await Promise.race([over, Bun.sleep(10)])
        if (landingOver && written.final() === undefined) return null
      }
    }
    let next = 0
    let failed = false
    const lane = async () => {
      while (!failed) {
        const index = next++
        const end = await sliceEnd(index)
        if (end === null) return
        const at = index * partSize
        const Body = file.slice(at, end)
        const whole = end - at >= this.minPartSize || start + end === metadata.file.size
        if (whole) {
          await this.client.uploadPart({
            Bucket: this.bucket,
            Key: metadata.file.id,
            UploadId: metadata['upload-id'],
            PartNumber: firstPart + index,
            Body,
            ContentLength: end - at,
          })
        } else {
          await this.client.putObject({
            Bucket: this.bucket,
            Key: this.partKey(metadata.file.id, true),
            Body,
            ContentLength: end - at,
          })
        }
      }
    }
    // Every lane settles before the file is removed; after a failure none starts another part.
    const lanes = Array.from({ length: PARTS_IN_FLIGHT }, () =>
      lane().catch((error) => {
        failed = true
        throw error
      }),
    )
    const settled = await Promise.allSettled(lanes)
    const refusal = settled.find((result) => result.status === 'rejected')
    if (refusal) throw refusal.reason
  }
}
