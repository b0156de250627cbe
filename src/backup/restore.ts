// `bun run restore FILE`: fills an empty site (the configured database and media store) from an
// archive. A restore loads only bytes it has checked. The first read of the archive checks every
// entry against an allow-list (each table and each object once, nothing else), every table's
// bytes and rows and every object's bytes against the manifest, and the manifest against
// BACKUP_KEY's signature, keeping the checked rows in private scratch space; nothing is written
// before it ends. Then the rows go in, in one transaction, and a second read writes the objects,
// each hashed again as it streams and the archive's entries held to what the first read saw;
// the transaction commits last. A failure (a signal included) rolls the rows back and deletes
// every object written before the command exits.
import { createReadStream } from 'node:fs'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type postgres from 'postgres'
import { extract as tarExtract } from 'tar-stream'
import { openDatabase, runMigrations } from '../db/database.ts'
import { StorageError } from '../errors.ts'
import { KEY_PREFIXES, ownerOfKey, partsOfKey } from '../storage/layout.ts'
import type { Storage } from '../storage/types.ts'
import {
  BackupError,
  FORMAT_VERSION,
  keyOfEntry,
  MANIFEST,
  type Manifest,
  manifestSchema,
  mediaEntry,
  SIGNATURE,
  signedWith,
  tableEntry,
  tableOfEntry,
  typeOfKey,
} from './archive.ts'
import {
  ARCHIVED_TABLES,
  firstNonEmptyTable,
  insertRows,
  listTables,
  namedMedia,
  publicSequences,
  restoreSequences,
} from './tables.ts'
import { type ArchiveCommandOptions, knownSchemas, openStorage } from './target.ts'

export type RestoreOptions = ArchiveCommandOptions & {
  /** Aborted (a signal): the restore stops, undoes what it wrote, and throws the reason. */
  signal?: AbortSignal
}

export type RestoreResult = { rows: number; objects: number }

// At most this much JSON goes into one insert.
const BATCH_BYTES = 4 * 1024 * 1024
const MANIFEST_MAX_BYTES = 256 * 1024 * 1024
const SIGNATURE_MAX_BYTES = 4096
// One row: far above any the site writes (its largest are site texts of a few hundred kB).
const LINE_MAX_BYTES = 64 * 1024 * 1024
// The checked rows kept in scratch space; the media are not kept, only hashed.
const STAGED_MAX_BYTES = 4 * 1024 ** 3
// Deleting what a failed restore wrote: tries, and the wait before each try again.
const DELETE_TRIES = 4
const DELETE_BATCH = 1000

type Entry = { name: string; size: number; type: string; body: AsyncIterable<Uint8Array> }

/** The archive's entries in order; each body must be read (or left) before the next. */
async function* entriesOf(file: string): AsyncGenerator<Entry> {
  const source = createReadStream(file)
  const extract = tarExtract()
  source.on('error', (error) => extract.destroy(error))
  source.pipe(extract)
  try {
    for await (const entry of extract) {
      yield {
        name: entry.header.name,
        size: entry.header.size ?? 0,
        type: entry.header.type ?? 'file',
        body: entry as AsyncIterable<Uint8Array>,
      }
    }
  } finally {
    source.destroy()
    extract.destroy()
  }
}

const refuse = (what: string) => new BackupError(what)

/** An entry's bytes, read whole; refused past `max`. */
async function collect(entry: Entry, max: number): Promise<Buffer> {
  if (entry.size > max) throw refuse(`${entry.name} is larger than a backup writes it.`)
  const parts: Uint8Array[] = []
  for await (const chunk of entry.body) parts.push(chunk)
  return Buffer.concat(parts)
}

async function digestOf(entry: Entry, signal?: AbortSignal) {
  const hasher = new Bun.CryptoHasher('sha256')
  let size = 0
  for await (const chunk of entry.body) {
    signal?.throwIfAborted()
    hasher.update(chunk)
    size += chunk.byteLength
  }
  return { size, sha256: hasher.digest('hex') }
}

const decoder = new TextDecoder('utf-8', { fatal: true })

/** Refuses a line that is not exactly one JSON object: blank, two values, trailing bytes. */
function checkLine(name: string, number: number, line: Uint8Array): void {
  let value: unknown
  try {
    value = JSON.parse(decoder.decode(line))
  } catch {
    value = undefined
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refuse(`${name}, line ${number}, is not one JSON object (one row per line).`)
  }
}

/**
 * Copies a table's entry to `path` while hashing it and checking each line; returns its size,
 * SHA-256 and number of rows. The copy is what the restore loads, once they match the manifest.
 */
async function stageRows(entry: Entry, path: string, signal?: AbortSignal) {
  const sink = await open(path, 'wx', 0o600)
  const hasher = new Bun.CryptoHasher('sha256')
  let size = 0
  let rows = 0
  let line: Uint8Array[] = []
  let lineBytes = 0
  try {
    for await (const chunk of entry.body) {
      signal?.throwIfAborted()
      hasher.update(chunk)
      size += chunk.byteLength
      await sink.write(chunk)
      let start = 0
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, start)) {
        line.push(chunk.subarray(start, at))
        checkLine(entry.name, ++rows, Buffer.concat(line))
        line = []
        lineBytes = 0
        start = at + 1
      }
      if (start < chunk.byteLength) {
        lineBytes += chunk.byteLength - start
        if (lineBytes > LINE_MAX_BYTES) {
          throw refuse(`${entry.name}, line ${rows + 1}, is longer than any row a backup writes.`)
        }
        line.push(chunk.subarray(start))
      }
    }
  } finally {
    await sink.close()
  }
  if (lineBytes > 0) {
    throw refuse(`${entry.name} does not end with a line break: line ${rows + 1} is cut off.`)
  }
  return { size, sha256: hasher.digest('hex'), rows }
}

type Checked = {
  manifest: Manifest
  /** Every entry's name and size in the archive's order: the second read must see the same. */
  order: { name: string; size: number }[]
  /** Each table's checked rows, in scratch space. */
  staged: Map<string, string>
}

/** The first read: the archive checked whole against the manifest and the key. Writes nothing. */
async function checkArchive(
  file: string,
  scratch: string,
  backupKey: string | undefined,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<Checked> {
  const order: Checked['order'] = []
  const hashed = new Map<string, { size: number; sha256: string; rows?: number }>()
  const staged = new Map<string, string>()
  let manifestBytes: Buffer | undefined
  let signature: Buffer | undefined
  let stagedBytes = 0
  const names = new Set<string>()
  const entries = entriesOf(file)
  for (;;) {
    let next: IteratorResult<Entry>
    try {
      next = await entries.next()
    } catch (error) {
      throw refuse(`${file} is not a readable tar archive (${(error as Error).message}).`)
    }
    if (next.done) break
    const entry = next.value
    const { name } = entry
    try {
      signal?.throwIfAborted()
      if (entry.type !== 'file') throw refuse(`${name} is a ${entry.type}; an archive holds files.`)
      if (names.has(name)) throw refuse(`${name} appears twice.`)
      names.add(name)
      order.push({ name, size: entry.size })
      const table = tableOfEntry(name)
      const key = keyOfEntry(name)
      if (name === MANIFEST) {
        manifestBytes = await collect(entry, MANIFEST_MAX_BYTES)
      } else if (name === SIGNATURE) {
        signature = await collect(entry, SIGNATURE_MAX_BYTES)
      } else if (table !== undefined) {
        if (!ARCHIVED_TABLES.has(table)) {
          throw refuse(`${name}: ${table} is not a table archives hold.`)
        }
        stagedBytes += entry.size
        if (stagedBytes > STAGED_MAX_BYTES) {
          throw refuse(`${name}: the tables come to more than a backup of a site holds.`)
        }
        const path = join(scratch, `${table}.jsonl`)
        hashed.set(name, await stageRows(entry, path, signal))
        staged.set(table, path)
      } else if (key !== undefined) {
        if (!partsOfKey(key)) throw refuse(`${name}: ${key} is not a key the media store makes.`)
        hashed.set(name, await digestOf(entry, signal))
      } else {
        throw refuse(`${name} is not an entry a backup writes.`)
      }
    } catch (error) {
      await entries.return(undefined)
      if (error instanceof BackupError) throw error
      throw refuse(`${file}: ${name} could not be read (${(error as Error).message}).`)
    }
  }
  if (!manifestBytes) throw refuse(`${file} has no ${MANIFEST}: not a backup.`)
  if (backupKey) {
    if (!signature) {
      throw refuse(
        `${file} is not signed; with BACKUP_KEY set, restore takes signed archives only.`,
      )
    }
    if (!signedWith(manifestBytes, signature, backupKey)) {
      throw refuse(
        `${file}: its signature does not match BACKUP_KEY (the archive was changed after it was signed, or signed with another key).`,
      )
    }
    log('restore: the manifest is signed with BACKUP_KEY')
  } else {
    log(
      `restore: warning: BACKUP_KEY is not set, so who made this ${signature ? 'signed ' : ''}archive is not checked; its entries are checked against its manifest`,
    )
  }
  const manifest = parseManifest(file, manifestBytes)
  matchManifest(manifest, hashed)
  return { manifest, order, staged }
}

function parseManifest(file: string, bytes: Buffer): Manifest {
  let json: { format?: unknown; app?: { schema?: unknown } }
  try {
    json = JSON.parse(bytes.toString('utf8'))
  } catch {
    throw refuse(`${file}: ${MANIFEST} is not valid JSON.`)
  }
  if (json?.format !== FORMAT_VERSION) {
    throw refuse(
      `${file} is in archive format ${String(json?.format)}; this version reads format ${FORMAT_VERSION}.`,
    )
  }
  if (!knownSchemas().includes(json.app?.schema as string)) {
    throw refuse(
      `${file} comes from a newer version (schema ${String(json.app?.schema)}); restore it with that version or a later one.`,
    )
  }
  const parsed = manifestSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw refuse(`${file}: ${MANIFEST} ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}.`)
  }
  return parsed.data
}

/** Every table and object of the manifest once, each as an entry that matches it; no other. */
function matchManifest(
  manifest: Manifest,
  hashed: Map<string, { size: number; sha256: string; rows?: number }>,
): void {
  const listed = new Set<string>()
  const once = (name: string) => {
    if (listed.has(name)) throw refuse(`${MANIFEST} lists ${name} twice.`)
    listed.add(name)
  }
  for (const table of manifest.tables) {
    const name = tableEntry(table.name)
    once(name)
    const columns = ARCHIVED_TABLES.get(table.name)
    if (!columns) throw refuse(`${MANIFEST} lists table ${table.name}, which archives never hold.`)
    for (const column of table.columns) {
      if (!columns.has(column)) {
        throw refuse(`${MANIFEST}: table ${table.name} has no column ${column} to restore.`)
      }
    }
    if (new Set(table.columns).size !== table.columns.length) {
      throw refuse(`${MANIFEST} lists a column of table ${table.name} twice.`)
    }
    const got = hashed.get(name)
    if (!got) throw refuse(`${name} is in the manifest but not in the archive.`)
    if (got.size !== table.size || got.sha256 !== table.sha256) {
      throw refuse(`${name} is damaged: it does not match its manifest (size or SHA-256).`)
    }
    if (got.rows !== table.rows) {
      throw refuse(`${name} holds ${got.rows} rows; its manifest says ${table.rows}.`)
    }
  }
  for (const object of manifest.objects) {
    const name = mediaEntry(object.key)
    once(name)
    if (!partsOfKey(object.key)) {
      throw refuse(`${MANIFEST} lists ${object.key}, which is not a key the media store makes.`)
    }
    const got = hashed.get(name)
    if (!got) throw refuse(`${name} is in the manifest but not in the archive.`)
    if (got.size !== object.size || got.sha256 !== object.sha256) {
      throw refuse(`${name} is damaged: it does not match its manifest (size or SHA-256).`)
    }
  }
  for (const name of hashed.keys()) {
    if (!listed.has(name)) throw refuse(`${name} is not in the archive's manifest.`)
  }
  const sequences = new Set<string>()
  for (const { name } of manifest.sequences) {
    if (sequences.has(name)) throw refuse(`${MANIFEST} lists sequence ${name} twice.`)
    sequences.add(name)
  }
}

/** What makes a target not empty: a row in a table archives fill, or any stored object. */
async function refuseNonEmpty(sql: postgres.Sql, storage: Storage) {
  const table = await firstNonEmptyTable(sql)
  if (table) {
    throw refuse(
      `The target is not empty (table ${table} has rows): restore fills an empty site only.`,
    )
  }
  for (const prefix of KEY_PREFIXES) {
    for await (const item of storage.list(prefix)) {
      throw refuse(
        `The target is not empty (the media store holds ${item.key}): restore fills an empty site only.`,
      )
    }
  }
}

/** Each table's checked rows, parents first, in batches; the counts held to the manifest. */
async function loadRows(
  tx: postgres.TransactionSql,
  checked: Checked,
  signal?: AbortSignal,
): Promise<number> {
  const listed = new Map(checked.manifest.tables.map((t) => [t.name, t]))
  const live = await listTables(tx)
  for (const name of listed.keys()) {
    if (!live.some((t) => t.name === name)) throw refuse(`This database has no table ${name}.`)
  }
  let total = 0
  for (const { name } of live) {
    const table = listed.get(name)
    const path = checked.staged.get(name)
    if (!table || !path) continue
    let batch: string[] = []
    let bytes = 0
    let count = 0
    const flush = async () => {
      signal?.throwIfAborted()
      try {
        count += await insertRows(tx, table, batch)
      } catch (error) {
        throw refuse(`${tableEntry(name)}: ${(error as Error).message}`)
      }
      batch = []
      bytes = 0
    }
    await readLines(Bun.file(path).stream(), async (line) => {
      batch.push(line)
      bytes += line.length
      if (bytes >= BATCH_BYTES || batch.length >= 1000) await flush()
    })
    await flush()
    if (count !== table.rows) {
      throw refuse(`${tableEntry(name)}: ${count} rows went in; its manifest says ${table.rows}.`)
    }
    total += count
  }
  return total
}

async function readLines(body: AsyncIterable<Uint8Array>, onLine: (line: string) => Promise<void>) {
  const lines = new TextDecoder()
  let rest = ''
  for await (const chunk of body) {
    const text = rest + lines.decode(chunk, { stream: true })
    let start = 0
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', start)) {
      await onLine(text.slice(start, at))
      start = at + 1
    }
    rest = text.slice(start)
  }
}

/** Every object of the manifest belongs to a name or folder its rows name, as a backup's do. */
async function refuseUnnamed(tx: postgres.TransactionSql, manifest: Manifest) {
  const { names, folders } = await namedMedia(tx)
  for (const { key } of manifest.objects) {
    const owner = ownerOfKey(key) ?? ''
    if (!names.has(owner) && !folders.has(owner)) {
      throw refuse(`${mediaEntry(key)} belongs to no work or image the archive's rows name.`)
    }
  }
}

async function refuseUnknownSequences(tx: postgres.TransactionSql, manifest: Manifest) {
  const known = await publicSequences(tx)
  for (const { name } of manifest.sequences) {
    if (!known.has(name))
      throw refuse(`${MANIFEST} sets sequence ${name}, which this database has no.`)
  }
}

/** Passes `body` on, failing before its end when its bytes are not what the manifest says. */
function verified(
  body: AsyncIterable<Uint8Array>,
  key: string,
  want: { size: number; sha256: string },
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  const hasher = new Bun.CryptoHasher('sha256')
  let size = 0
  const mismatch = () =>
    refuse(`${mediaEntry(key)} changed after it was checked: it no longer matches its manifest.`)
  const iterator = body[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (signal?.aborted) return controller.error(signal.reason)
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

/** The second read: each object written as it streams, hashed again; `written` names each. */
async function writeObjects(
  file: string,
  checked: Checked,
  storage: Storage,
  written: string[],
  log: (line: string) => void,
  signal?: AbortSignal,
) {
  const objects = new Map(checked.manifest.objects.map((o) => [mediaEntry(o.key), o]))
  const changed = () => refuse(`${file} changed while it was restored.`)
  let at = 0
  for await (const entry of entriesOf(file)) {
    signal?.throwIfAborted()
    const seen = checked.order[at++]
    if (seen?.name !== entry.name || seen.size !== entry.size || entry.type !== 'file') {
      throw changed()
    }
    const object = objects.get(entry.name)
    if (!object) {
      for await (const _ of entry.body) {
        // Rows, manifest and signature: read in the first pass.
      }
      continue
    }
    // Named before the write begins: a write cut off midway may still leave something to delete.
    written.push(object.key)
    await storage.write(object.key, verified(entry.body, object.key, object, signal), {
      type: typeOfKey(object.key),
    })
    if (written.length % 100 === 0) log(`restore: objects ${written.length}/${objects.size}`)
  }
  if (at !== checked.order.length) throw changed()
}

/**
 * Deletes every key written: in batches, then one by one where a batch fails, trying again what
 * still fails. Returns the keys the store still holds (none, normally).
 */
async function removeWritten(storage: Storage, keys: string[]): Promise<string[]> {
  let left = [...new Set(keys)]
  for (let attempt = 0; attempt < DELETE_TRIES && left.length > 0; attempt++) {
    if (attempt > 0) await Bun.sleep(500 * 2 ** attempt)
    const failed: string[] = []
    for (let at = 0; at < left.length; at += DELETE_BATCH) {
      const batch = left.slice(at, at + DELETE_BATCH)
      try {
        await storage.delete(batch)
      } catch {
        for (const key of batch) {
          try {
            await storage.delete([key])
          } catch {
            failed.push(key)
          }
        }
      }
    }
    left = failed
  }
  return left
}

const objects = (n: number) => `${n} object${n === 1 ? '' : 's'}`

/** The one line a failure ends with: what was wrong, then what became of the target. */
function failure(error: unknown, outcome: string): BackupError {
  const known = error instanceof BackupError || error instanceof StorageError
  const e = error as Error
  const cause = known ? e.message : `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`
  const sentence = /[.!?)]$/.test(cause) ? cause : `${cause}.`
  return new BackupError(`${sentence} ${outcome}`, { cause: error })
}

export async function restore(options: RestoreOptions): Promise<RestoreResult> {
  const { config, file, signal } = options
  const log = options.log ?? (() => {})
  if (!(await Bun.file(file).exists())) throw refuse(`${file} does not exist.`)
  const scratch = await mkdtemp(join(tmpdir(), 'studio-restore-'))
  try {
    log(`restore: checking ${file}`)
    let checked: Checked
    let storage: Storage
    let database: Awaited<ReturnType<typeof openDatabase>> | undefined
    try {
      checked = await checkArchive(file, scratch, config.backupKey, log, signal)
      storage = await openStorage(config)
      database = await openDatabase(config)
      await refuseNonEmpty(database.sql, storage)
    } catch (error) {
      await database?.close()
      throw failure(error, 'Nothing was written.')
    }
    const written: string[] = []
    let rows = 0
    try {
      // Rows go into this version's schema, naming the archive's columns: a column added since
      // takes its default.
      await runMigrations(database)
      await database.sql.begin(async (tx) => {
        // The transaction stays open while the objects are written, which can take hours; a
        // server-wide limit on idle transactions would end it with everything written.
        await tx`set local idle_in_transaction_session_timeout = 0`
        // Rows first: a row the database refuses stops the restore before any object is written.
        rows = await loadRows(tx, checked, signal)
        await refuseUnnamed(tx, checked.manifest)
        await refuseUnknownSequences(tx, checked.manifest)
        await restoreSequences(tx, checked.manifest.sequences)
        // A video whose processing the backup caught midway has no job here: queued, the server
        // gives it one at start-up. Its growing stream was not backed up (not a folder a row
        // keeps): its next run makes a new one.
        await tx`update videos set status = 'queued', progress = 0 where status = 'processing'`
        await tx`update videos set growing = null where growing is not null`
        await tx`update video_versions set status = 'queued', progress = 0
                  where status = 'processing'`
        log(`restore: ${rows} rows in; writing ${checked.manifest.objects.length} objects`)
        await writeObjects(file, checked, storage, written, log, signal)
        signal?.throwIfAborted()
      })
      return { rows, objects: written.length }
    } catch (error) {
      if (written.length === 0) {
        throw failure(
          error,
          'The rows were rolled back and no object was written: the target is empty again.',
        )
      }
      log(`restore: removing the ${objects(written.length)} written`)
      const left = await removeWritten(storage, written)
      throw failure(
        error,
        left.length === 0
          ? `The rows were rolled back and the ${objects(written.length)} written removed: the target is empty again.`
          : `The rows were rolled back, but ${left.length} of the ${objects(written.length)} written could not be removed (${left[0]}, …): delete them before restoring again.`,
      )
    } finally {
      await database.close()
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}
