// `bun run backup`: one tar of the database and the media the rows name, taken while the site
// runs. The rows are dumped first in one REPEATABLE READ transaction; the objects they name are
// copied after it (objects never change once written, so the copy matches the dump; what is
// uploaded meanwhile is simply not in this backup). Layout: ./archive.ts.
import { createWriteStream, existsSync } from 'node:fs'
import { mkdtemp, open, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { pack as tarPack } from 'tar-stream'
import type { Config } from '../config.ts'
import { KEY_PREFIXES, keyOfFolder, keyOfName, ownerOfKey } from '../storage/layout.ts'
import type { ListedObject, Storage } from '../storage/types.ts'
import {
  BackupError,
  FORMAT_VERSION,
  MANIFEST,
  type Manifest,
  mediaEntry,
  once,
  SIGNATURE,
  signatureOf,
  tableEntry,
  writeEntry,
} from './archive.ts'
import { dumpRows, dumpSequences, listTables, namedMedia } from './tables.ts'
import {
  type ArchiveCommandOptions,
  appVersion,
  openForBackup,
  openStorage,
  schemaOf,
} from './target.ts'

export type BackupOptions = ArchiveCommandOptions & {
  /** The store to read; the configured one when not given. */
  storage?: Storage
}

type Dumped = Pick<Manifest, 'tables' | 'sequences' | 'database'> & {
  schema: string
  names: Set<string>
  folders: Set<string>
}

export const defaultBackupName = (now = new Date()) =>
  `backup-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar`

/** Dumps every table into `dir` in one snapshot; returns what the manifest says of them. */
async function dumpDatabase(config: Config, dir: string): Promise<Dumped> {
  const database = await openForBackup(config)
  try {
    return await database.sql.begin('isolation level repeatable read read only', async (tx) => {
      const schema = await schemaOf(tx)
      const tables: Manifest['tables'] = []
      for (const table of await listTables(tx)) {
        const path = join(dir, tableEntry(table.name).replace('/', '-'))
        const sink = Bun.file(path).writer()
        const hasher = new Bun.CryptoHasher('sha256')
        let rows = 0
        let size = 0
        for await (const line of dumpRows(tx, table.name)) {
          const bytes = Buffer.from(`${line}\n`)
          hasher.update(bytes)
          sink.write(bytes)
          size += bytes.byteLength
          rows++
        }
        await sink.end()
        tables.push({ ...table, rows, size, sha256: hasher.digest('hex') })
      }
      const { names, folders } = await namedMedia(tx)
      // Read after the rows: a value a dumped row holds was handed out before the snapshot.
      const sequences = await dumpSequences(tx)
      const database = config.databaseUrl ? 'postgresql' : 'embedded'
      return { schema, tables, sequences, names, folders, database } as const
    })
  } finally {
    await database.close()
  }
}

/** The objects under the names and folders the rows name, and the named ones not found. */
async function namedObjects(storage: Storage, dumped: Dumped) {
  const objects: ListedObject[] = []
  const found = new Set<string>()
  for (const prefix of KEY_PREFIXES) {
    for await (const item of storage.list(prefix)) {
      const owner = ownerOfKey(item.key)
      if (!owner) continue
      if (item.key.startsWith('streams/') ? dumped.folders.has(owner) : dumped.names.has(owner)) {
        objects.push(item)
        found.add(item.key.startsWith('streams/') ? (keyOfFolder(owner) ?? '') : item.key)
      }
    }
  }
  const wanted = [
    ...[...dumped.names].map((name) => keyOfName(name) ?? name),
    ...[...dumped.folders].map((folder) => keyOfFolder(folder) ?? folder),
  ]
  return { objects, missing: wanted.filter((key) => !found.has(key)).sort() }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

/** Writes the archive; on any failure removes what it wrote and throws. */
export async function backup(options: BackupOptions): Promise<Manifest> {
  const { config, file } = options
  const log = options.log ?? (() => {})
  const toStdout = file === '-'
  if (!toStdout && existsSync(file)) throw new BackupError(`${file} already exists.`)
  const storage = options.storage ?? (await openStorage(config))
  const scratch = await mkdtemp(join(tmpdir(), 'studio-backup-'))
  const partial = `${file}.partial`
  let out: Writable | undefined
  try {
    const dumped = await dumpDatabase(config, scratch)
    const rows = dumped.tables.reduce((sum, t) => sum + t.rows, 0)
    log(`backup: ${rows} rows from ${dumped.tables.length} tables`)
    const { objects, missing } = await namedObjects(storage, dumped)
    for (const key of missing) log(`backup: warning: ${key} is named by a row but not stored`)
    const total = objects.reduce((sum, o) => sum + o.size, 0)
    log(`backup: ${objects.length} objects to copy (${mb(total)})`)

    out = toStdout ? process.stdout : createWriteStream(partial, { flags: 'wx', mode: 0o600 })
    const pack = tarPack()
    // A failed entry destroys the pack with its error, which reaches the caller as a throw.
    pack.on('error', () => {})
    const written = pipeline(pack, out, { end: !toStdout })
    // A failed write (disk full) ends the pipeline; the entry waiting on it must hear of it.
    written.catch((error) => pack.destroy(error))

    const manifestObjects: Manifest['objects'] = []
    let bytes = 0
    let shown = 0
    const progress = (force = false) => {
      if (!force && Date.now() - shown < 1000) return
      shown = Date.now()
      log(
        `backup: objects ${manifestObjects.length}/${objects.length}, ${mb(bytes)} of ${mb(total)}`,
      )
    }
    for (const object of objects) {
      const read = await storage.read(object.key)
      if (!read) throw new BackupError(`${object.key} went missing during the backup`)
      const hasher = new Bun.CryptoHasher('sha256')
      await writeEntry(pack, mediaEntry(object.key), object.size, read.body, (chunk) => {
        hasher.update(chunk)
        bytes += chunk.byteLength
        progress()
      })
      manifestObjects.push({ key: object.key, size: object.size, sha256: hasher.digest('hex') })
    }
    progress(true)
    for (const table of dumped.tables) {
      const path = join(scratch, tableEntry(table.name).replace('/', '-'))
      await writeEntry(pack, tableEntry(table.name), table.size, Bun.file(path).stream())
    }
    const manifest: Manifest = {
      format: FORMAT_VERSION,
      app: { version: appVersion(), schema: dumped.schema },
      createdAt: new Date().toISOString(),
      database: dumped.database,
      tables: dumped.tables,
      sequences: dumped.sequences,
      objects: manifestObjects,
      missing,
    }
    const json = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`)
    await writeEntry(pack, MANIFEST, json.byteLength, once(json))
    if (config.backupKey) {
      const signature = signatureOf(json, config.backupKey)
      await writeEntry(pack, SIGNATURE, signature.byteLength, once(signature))
      log('backup: manifest signed with BACKUP_KEY')
    }
    pack.finalize()
    await written
    if (!toStdout) {
      const handle = await open(partial, 'r')
      await handle.sync().finally(() => handle.close())
      await rename(partial, file)
    }
    return manifest
  } catch (error) {
    if (out && !toStdout) out.destroy()
    if (out && toStdout) out.end()
    await rm(partial, { force: true })
    throw error
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}
