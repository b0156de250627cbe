// `bun run restore FILE`: fills an empty site (the configured database and media store) from an
// archive. It reads the archive twice: first only to check every entry against the manifest
// (a damaged or foreign archive is refused before anything changes), then to write the objects,
// each checked again as it streams, and last the rows, in one transaction that commits only once
// every object is in. A failure removes the objects it wrote and rolls the rows back.
import { Readable } from 'node:stream'
import type postgres from 'postgres'
import { extract as tarExtract } from 'tar-stream'
import type { Config } from '../config.ts'
import { openDatabase, runMigrations } from '../database.ts'
import { KEY_PREFIXES, ownerOfKey } from '../storage/keys.ts'
import type { Storage } from '../storage/types.ts'
import {
  BackupError,
  FORMAT_VERSION,
  MANIFEST,
  type Manifest,
  mediaEntry,
  tableEntry,
  typeOfKey,
} from './archive.ts'
import { insertRows, restoreSequences } from './tables.ts'
import { knownSchemas, openStorage } from './target.ts'

export type RestoreOptions = {
  config: Config
  file: string
  log?: (line: string) => void
}

export type RestoreResult = { rows: number; objects: number }

// At most this much JSON goes into one insert.
const BATCH_BYTES = 4 * 1024 * 1024
const MANIFEST_MAX_BYTES = 256 * 1024 * 1024

type Entry = { name: string; size: number; body: AsyncIterable<Uint8Array> }

async function* entriesOf(file: string): AsyncGenerator<Entry> {
  const extract = tarExtract()
  const source = Bun.file(file).stream() as unknown as import('node:stream/web').ReadableStream
  Readable.fromWeb(source).pipe(extract)
  for await (const entry of extract) {
    yield {
      name: entry.header.name,
      size: entry.header.size ?? 0,
      body: entry as AsyncIterable<Uint8Array>,
    }
  }
}

/** First pass: every entry hashed; the manifest checked against them. Changes nothing. */
async function checkArchive(file: string): Promise<Manifest> {
  const seen = new Map<string, { size: number; sha256: string }>()
  let manifestText: string | undefined
  try {
    for await (const entry of entriesOf(file)) {
      const hasher = new Bun.CryptoHasher('sha256')
      const parts: Uint8Array[] = []
      let size = 0
      const keep = entry.name === MANIFEST && entry.size <= MANIFEST_MAX_BYTES
      for await (const chunk of entry.body) {
        hasher.update(chunk)
        size += chunk.byteLength
        if (keep) parts.push(chunk)
      }
      if (keep) manifestText = Buffer.concat(parts).toString('utf8')
      else seen.set(entry.name, { size, sha256: hasher.digest('hex') })
    }
  } catch (error) {
    throw new BackupError(`${file} is not a readable tar archive (${(error as Error).message}).`)
  }
  if (manifestText === undefined) throw new BackupError(`${file} has no ${MANIFEST}: not a backup.`)
  let manifest: Manifest
  try {
    manifest = JSON.parse(manifestText) as Manifest
  } catch {
    throw new BackupError(`${file}: ${MANIFEST} is not valid JSON.`)
  }
  if (manifest.format !== FORMAT_VERSION) {
    throw new BackupError(
      `${file} is in archive format ${String(manifest.format)}; this version reads format ${FORMAT_VERSION}.`,
    )
  }
  if (!knownSchemas().includes(manifest.app?.schema)) {
    throw new BackupError(
      `${file} comes from a newer version (schema ${String(manifest.app?.schema)}); restore it with that version or a later one.`,
    )
  }
  const expected = new Map<string, { size: number; sha256: string }>()
  for (const o of manifest.objects) expected.set(mediaEntry(o.key), o)
  for (const t of manifest.tables) expected.set(tableEntry(t.name), t)
  for (const [name, want] of expected) {
    const got = seen.get(name)
    if (!got)
      throw new BackupError(
        `${file} is damaged: ${name} is in the manifest but not in the archive.`,
      )
    if (got.size !== want.size || got.sha256 !== want.sha256) {
      throw new BackupError(
        `${file} is damaged: ${name} does not match its manifest (size or sha256).`,
      )
    }
  }
  for (const name of seen.keys()) {
    if (!expected.has(name)) throw new BackupError(`${file}: ${name} is not in its manifest.`)
  }
  return manifest
}

/** What makes a target not empty: a row in a table the archive fills, or any stored object. */
async function refuseNonEmpty(sql: postgres.Sql, storage: Storage, manifest: Manifest) {
  for (const table of manifest.tables) {
    const [exists] = await sql`select to_regclass(${`public."${table.name}"`}) as t`
    if (!exists?.t) continue
    const [row] = await sql.unsafe(`select 1 from "${table.name}" limit 1`)
    if (row) {
      throw new BackupError(
        `The target is not empty (table ${table.name} has rows): restore fills an empty site only.`,
      )
    }
  }
  for (const prefix of KEY_PREFIXES) {
    for await (const item of storage.list(prefix)) {
      throw new BackupError(
        `The target is not empty (the media store holds ${item.key}): restore fills an empty site only.`,
      )
    }
  }
}

/** Passes `body` on, failing before its end when its bytes are not what the manifest says. */
function verified(
  body: AsyncIterable<Uint8Array>,
  key: string,
  want: { size: number; sha256: string },
): ReadableStream<Uint8Array> {
  const hasher = new Bun.CryptoHasher('sha256')
  let size = 0
  const mismatch = () => new BackupError(`${key} does not match the manifest (size or sha256).`)
  const iterator = body[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next()
      if (done) {
        if (size !== want.size || hasher.digest('hex') !== want.sha256) controller.error(mismatch())
        else controller.close()
        return
      }
      size += value.byteLength
      hasher.update(value)
      if (size > want.size) controller.error(mismatch())
      else controller.enqueue(value)
    },
    async cancel() {
      await iterator.return?.()
    },
  })
}

async function readLines(body: AsyncIterable<Uint8Array>, onLine: (line: string) => Promise<void>) {
  const decoder = new TextDecoder()
  let rest = ''
  for await (const chunk of body) {
    const text = rest + decoder.decode(chunk, { stream: true })
    let start = 0
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', start)) {
      await onLine(text.slice(start, at))
      start = at + 1
    }
    rest = text.slice(start)
  }
  rest += decoder.decode()
  if (rest) await onLine(rest)
}

export async function restore(options: RestoreOptions): Promise<RestoreResult> {
  const { config, file } = options
  const log = options.log ?? (() => {})
  if (!(await Bun.file(file).exists())) throw new BackupError(`${file} does not exist.`)
  log(`restore: checking ${file}`)
  const manifest = await checkArchive(file)
  const storage = await openStorage(config)
  const database = await openDatabase(config)
  const written: string[] = []
  try {
    await refuseNonEmpty(database.sql, storage, manifest)
    // Rows go into this version's schema, naming the archive's columns: a column added since
    // takes its default.
    await runMigrations(database)
    const objects = new Map(manifest.objects.map((o) => [mediaEntry(o.key), o]))
    const tables = new Map(manifest.tables.map((t) => [tableEntry(t.name), t]))
    let rows = 0
    await database.sql.begin(async (tx) => {
      for await (const entry of entriesOf(file)) {
        const object = objects.get(entry.name)
        const table = tables.get(entry.name)
        if (object) {
          if (!ownerOfKey(object.key)) throw new BackupError(`${object.key} is not a storage key.`)
          written.push(object.key)
          await storage.write(object.key, verified(entry.body, object.key, object), {
            type: typeOfKey(object.key),
          })
          if (written.length % 100 === 0) log(`restore: objects ${written.length}/${objects.size}`)
        } else if (table) {
          let batch: string[] = []
          let bytes = 0
          let count = 0
          const flush = async () => {
            await insertRows(tx, table, batch)
            batch = []
            bytes = 0
          }
          await readLines(entry.body, async (line) => {
            batch.push(line)
            bytes += line.length
            count++
            if (bytes >= BATCH_BYTES || batch.length >= 1000) await flush()
          })
          await flush()
          if (count !== table.rows) {
            throw new BackupError(
              `${entry.name} holds ${count} rows; its manifest says ${table.rows}.`,
            )
          }
          rows += count
        } else {
          for await (const _ of entry.body) {
            // The manifest itself, read in the first pass.
          }
        }
      }
      await restoreSequences(tx, manifest.sequences)
      // A video whose processing the backup caught midway has no job here: queued, the server
      // gives it one at start-up.
      await tx`update videos set status = 'queued', progress = 0 where status = 'processing'`
    })
    return { rows, objects: written.length }
  } catch (error) {
    await storage.delete(written).catch(() => {})
    throw error
  } finally {
    await database.close()
  }
}
