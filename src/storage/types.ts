// One interface for every stored byte (masters, images, streams): the code above it never talks
// to node:fs or an S3 client for media. docs/storage.md describes the engines and the keys.

/** Where bytes for `write` come from: a stream, or a finished file on local disk. */
export type StorageBody = ReadableStream<Uint8Array> | { path: string }

export type ObjectInfo = { size: number; modified: Date; etag: string }

export type CopyHeaders = { type: string; cacheControl: string }

export type ListedObject = { key: string; size: number; modified: Date }

export type Storage = {
  /** `disk` or `s3`: what health checks and logs name. */
  readonly engine: 'disk' | 's3'
  /** Streams `body` to `key`; resolves once the object is complete, durable and visible. */
  write(key: string, body: StorageBody, opts: { type: string }): Promise<{ size: number }>
  /** The bytes of `key`, whole or one range (`end` inclusive); undefined when missing. */
  read(
    key: string,
    range?: { start: number; end: number },
  ): Promise<{ body: ReadableStream<Uint8Array>; size: number } | undefined>
  /** Size, last change and an ETag; undefined when missing. */
  stat(key: string): Promise<ObjectInfo | undefined>
  /** Removes keys; a missing key is not an error (removal runs after commits). */
  delete(keys: Iterable<string>): Promise<void>
  /** Every key under a prefix (`streams/<folder>/` for one folder), with its size and change. */
  list(prefix: string): AsyncIterable<ListedObject>
  /**
   * A copy inside the store, without passing the bytes through the app where the engine can;
   * `headers` replace the copy's Content-Type and Cache-Control where the engine keeps them (s3).
   */
  copy(from: string, to: string, headers?: CopyHeaders): Promise<void>
  /** A path on this machine holding `key`'s bytes, when the engine keeps them there (disk). */
  localPath(key: string): string | undefined
  /** Answers when the store is reachable and usable; throws a one-line reason otherwise. */
  check(): Promise<void>
  /**
   * Aborts the store's unfinished multipart uploads to its own keys begun before `startedBefore`
   * (what a crash mid-write leaves), and returns their keys. Only engines that have them.
   */
  abortUploads?(startedBefore: Date): Promise<string[]>
}
