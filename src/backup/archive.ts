// The archive's layout, shared by backup and restore: one tar holding `media/<key>` per object,
// `db/<table>.jsonl` per table (one row as JSON per line), then `manifest.json`, which names all
// of them with their sizes and SHA-256, and, when the backup had a key, `manifest.sig`: an
// HMAC-SHA256 of the manifest's bytes. The manifest comes after the entries because the hashes
// are computed while the objects stream in; restore reads the archive whole to check it against
// the manifest (and the signature) before it touches the target.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Pack } from 'tar-stream'
import { z } from 'zod'
import type { SequenceValue } from './tables.ts'

/** Bumped when an older restore could not read what a newer backup writes. */
export const FORMAT_VERSION = 1

export const MANIFEST = 'manifest.json'
export const SIGNATURE = 'manifest.sig'
export const mediaEntry = (key: string) => `media/${key}`
export const tableEntry = (table: string) => `db/${table}.jsonl`
/** The table a `db/<table>.jsonl` entry holds; undefined for any other name. */
export const tableOfEntry = (name: string) => /^db\/([a-z_][a-z0-9_]*)\.jsonl$/.exec(name)?.[1]
/** The key a `media/<key>` entry holds; undefined for any other name. */
export const keyOfEntry = (name: string) =>
  name.startsWith('media/') ? name.slice('media/'.length) : undefined

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

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex')
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)

/** What restore accepts as a manifest, once its format is known to be this version's. */
export const manifestSchema = z.object({
  format: z.literal(FORMAT_VERSION),
  app: z.object({ version: z.string(), schema: z.string() }),
  createdAt: z.string(),
  database: z.enum(['embedded', 'postgresql']),
  tables: z.array(
    z.object({
      name: z.string(),
      columns: z.array(z.string()).min(1),
      rows: count,
      size: count,
      sha256,
    }),
  ),
  sequences: z.array(z.object({ name: z.string(), value: z.string().regex(/^-?\d{1,19}$/) })),
  objects: z.array(z.object({ key: z.string(), size: count, sha256 })),
  missing: z.array(z.string()),
}) satisfies z.ZodType<Manifest>

/** The `manifest.sig` entry for a manifest's exact bytes. */
export function signatureOf(manifest: Uint8Array, key: string): Uint8Array {
  const mac = createHmac('sha256', key).update(manifest).digest('hex')
  return Buffer.from(`${JSON.stringify({ algorithm: 'HMAC-SHA256', mac })}\n`)
}

/** Whether `signature` (a `manifest.sig` entry) is the manifest's, made with `key`. */
export function signedWith(manifest: Uint8Array, signature: Uint8Array, key: string): boolean {
  const expected = Buffer.from(signatureOf(manifest, key))
  const given = Buffer.from(signature)
  return given.byteLength === expected.byteLength && timingSafeEqual(given, expected)
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
