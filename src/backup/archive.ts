// The archive's layout, shared by backup and restore: one tar holding `media/<key>` per object,
// `db/<table>.jsonl` per table (one row as JSON per line) and, last, `manifest.json`, which
// names all of them with their sizes and SHA-256. The manifest comes last because the hashes
// are computed while the objects stream in; restore reads the archive once to check it against
// the manifest before it touches the target.
import type { Pack } from 'tar-stream'
import type { SequenceValue } from './tables.ts'

/** Bumped when an older restore could not read what a newer backup writes. */
export const FORMAT_VERSION = 1

export const MANIFEST = 'manifest.json'
export const mediaEntry = (key: string) => `media/${key}`
export const tableEntry = (table: string) => `db/${table}.jsonl`

export type Manifest = {
  format: number
  app: { version: string; schema: string }
  createdAt: string
  database: 'embedded' | 'postgresql'
  tables: { name: string; columns: string[]; rows: number; size: number; sha256: string }[]
  sequences: SequenceValue[]
  objects: { key: string; size: number; sha256: string }[]
  /** Objects the rows name that the store did not have when the backup ran. */
  missing: string[]
}

export class BackupError extends Error {
  override name = 'BackupError'
}

/** Streams `source` into a new entry of `size` bytes, waiting whenever the archive is behind. */
export async function writeEntry(
  pack: Pack,
  name: string,
  size: number,
  source: AsyncIterable<Uint8Array>,
  onChunk: (chunk: Uint8Array) => void = () => {},
): Promise<void> {
  let done!: (error?: Error | null) => void
  const finished = new Promise<void>((resolve, reject) => {
    done = (error) => (error ? reject(error) : resolve())
  })
  const entry = pack.entry({ name, size, mode: 0o600, mtime: new Date() }, (error) => done(error))
  // A failed entry fails the whole archive: nothing after it could be trusted.
  finished.catch(() => {})
  entry.on('error', () => {})
  const fail = (error: Error) => {
    pack.destroy(error)
    return error
  }
  let written = 0
  try {
    for await (const chunk of source) {
      written += chunk.byteLength
      if (written > size) throw new BackupError(`${name}: more bytes than its listed ${size}`)
      onChunk(chunk)
      if (!entry.write(chunk)) await drained(entry, finished)
    }
  } catch (error) {
    throw fail(error as Error)
  }
  if (written < size) {
    throw fail(new BackupError(`short read of ${name}: ${written} of its ${size} bytes`))
  }
  entry.end(undefined)
  await finished
}

type Drains = { once(event: 'drain', listener: () => void): unknown }

function drained(entry: Drains, finished: Promise<void>): Promise<void> {
  return Promise.race([
    new Promise<void>((resolve) => entry.once('drain', () => resolve())),
    finished,
  ])
}

/** One buffer as a source for `writeEntry`. */
export async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

// The store's interface takes a type for each write; these are the kinds of file it holds.
const TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  m3u8: 'application/vnd.apple.mpegurl',
  m4s: 'video/iso.segment',
}

export const typeOfKey = (key: string) =>
  TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream'
