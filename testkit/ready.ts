// Works made ready as the media worker makes them, without an ffmpeg run per work: a master's
// outputs are made once per test process by the pipeline itself (src/processing/transcode.ts) and
// every work with the same master bytes gets them, stored under a folder of its own by the
// pipeline's own write (markReady). Visitors see a work only once its streams exist
// (docs/decisions/086-visitors-get-a-work-once-its-streams-exist.md): tests of the public page
// start from ready works this way.
import { createHash } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq, inArray, isNull, or } from 'drizzle-orm'
import { videos, videoVersions } from '../db/schema.ts'
import { loadConfig } from '../src/config.ts'
import { connectDatabase, type Db } from '../src/db/database.ts'
import { type ProcessedVideo, processVideo } from '../src/processing/transcode.ts'
import { createStorage } from '../src/storage/index.ts'
import { keyOfName } from '../src/storage/layout.ts'
import { type MediaStore, mediaStore, removeFolders } from '../src/storage/store.ts'
import { markReady } from '../src/videos/rows.ts'

type Outputs = { dir: string; result: ProcessedVideo }
const made = new Map<string, Promise<Outputs>>()

/** The master's bytes from the store. */
async function masterBytes(store: MediaStore, name: string): Promise<Uint8Array> {
  const key = keyOfName(name)
  const read = key ? await store.storage.read(key) : undefined
  if (!read) throw new Error(`the master ${name} is not in the store`)
  return new Uint8Array(await new Response(read.body).arrayBuffer())
}

/** The outputs of these master bytes, made once per process (kept read-only in a temp folder). */
function outputsOf(bytes: Uint8Array): Promise<Outputs> {
  const hash = createHash('sha256').update(bytes).digest('hex')
  let outputs = made.get(hash)
  if (!outputs) {
    outputs = (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'ready-outputs-'))
      const source = join(dir, 'master')
      await Bun.write(source, bytes)
      const out = join(dir, 'out')
      return { dir: out, result: await processVideo({ source, outDir: out }) }
    })()
    made.set(hash, outputs)
    // A failed run is not kept: the next call tries again (and says why).
    outputs.catch(() => made.delete(hash))
  }
  return outputs
}

/**
 * Makes the outputs of the master at `path` ahead (a test's beforeAll): an ffmpeg run takes
 * seconds, longer than one test may on a loaded machine.
 */
export async function prepareOutputs(path: string): Promise<void> {
  await outputsOf(await Bun.file(path).bytes())
}

/**
 * Makes the given works ready (or every work still waiting for its first streams): each gets a
 * new stream folder, and a folder a work had before is removed, as after a reprocess. Returns
 * the ids made ready.
 */
export async function makeReady(db: Db, store: MediaStore, ids?: string[]): Promise<string[]> {
  return (await readyRows(db, store, ids)).map((row) => row.id)
}

async function readyRows(db: Db, store: MediaStore, ids?: string[]) {
  const rows = await db
    .select({ id: videos.id, videoKey: videos.videoKey, published: videos.published })
    .from(videos)
    .where(
      ids
        ? inArray(videos.id, ids)
        : and(
            isNull(videos.streamsKey),
            or(eq(videos.status, 'queued'), eq(videos.status, 'processing')),
          ),
    )
  const done: typeof rows = []
  for (const row of rows) {
    const { dir, result } = await outputsOf(await masterBytes(store, row.videoKey))
    const job = { videoId: row.id, sourceKey: row.videoKey }
    const ready = await markReady(
      db,
      store,
      job,
      dir,
      result.probe,
      result.preview,
      result.loudness,
    )
    if (!ready) continue
    if (ready.previous) await removeFolders(store, [ready.previous])
    done.push(row)
  }
  return done
}

/** An in-process app (testkit/test-app.ts): its works made ready, its cached answers dropped. */
export async function readyWorks(
  t: {
    app: { database: { db: Db }; services: { media: MediaStore; videos: { invalidate(): void } } }
  },
  ids?: string[],
): Promise<string[]> {
  const done = await makeReady(t.app.database.db, t.app.services.media, ids)
  t.app.services.videos.invalidate()
  return done
}

/**
 * A version that is not current made ready as the worker makes it (its own outputs, written by
 * the pipeline's own write, which makes it current when it is the newest); false when it is gone.
 */
export async function readyVersion(
  t: {
    app: { database: { db: Db }; services: { media: MediaStore; videos: { invalidate(): void } } }
  },
  versionId: string,
): Promise<boolean> {
  const { db } = t.app.database
  const store = t.app.services.media
  const [row] = await db
    .select({ videoId: videoVersions.videoId, masterKey: videoVersions.masterKey })
    .from(videoVersions)
    .where(eq(videoVersions.id, versionId))
  if (!row?.masterKey) return false
  const { dir, result } = await outputsOf(await masterBytes(store, row.masterKey))
  const job = { videoId: row.videoId, sourceKey: row.masterKey, versionId }
  const ready = await markReady(db, store, job, dir, result.probe, result.preview, result.loudness)
  if (ready !== false && ready.previous) await removeFolders(store, [ready.previous])
  t.app.services.videos.invalidate()
  return !!ready
}

/** A running server (testkit/server.ts), as the processes beside it reach it. */
type RunningServer = { url: string; env: Record<string, string | undefined> }

/**
 * Runs `work` on a running server's database (through its socket when embedded) and media
 * storage, as `bun run worker` reaches them. The server notices writes to the videos within
 * about a second (src/db/changes.ts).
 */
export async function onServer<T>(
  server: RunningServer,
  work: (db: Db, store: MediaStore) => Promise<T>,
): Promise<T> {
  const config = loadConfig(server.env)
  const database = await connectDatabase(config)
  try {
    return await work(database.db, mediaStore(config.dataDir, createStorage(config)))
  } finally {
    await database.close()
  }
}

/**
 * A running server's works made ready (as `makeReady`), once its cached answers name their new
 * streams; returns their ids.
 */
export async function readyServerWorks(server: RunningServer, ids?: string[]): Promise<string[]> {
  const publicList = async () => {
    const res = await fetch(`${server.url}/api/public/videos`)
    return ((await res.json()) as { data: { videos: { _id: string; hlsUrl: string }[] } }).data
      .videos
  }
  // Kept by the server from before the write: once it names the new streams, the server has
  // dropped every answer it kept (it drops them all at once), a work's page and embed included.
  await publicList()
  const done = await onServer(server, async (db, store) => {
    const rows = await readyRows(db, store, ids)
    if (rows.length === 0) return []
    const folders = await db
      .select({ id: videos.id, streamsKey: videos.streamsKey })
      .from(videos)
      .where(
        inArray(
          videos.id,
          rows.map((row) => row.id),
        ),
      )
    const folderOf = new Map(folders.map((row) => [row.id, row.streamsKey]))
    return rows.map((row) => ({ ...row, folder: folderOf.get(row.id) ?? '' }))
  })
  const deadline = Date.now() + 15_000
  for (;;) {
    const shown = new Map((await publicList()).map((v) => [v._id, v.hlsUrl]))
    const seen = (row: (typeof done)[number]) =>
      !row.published || shown.get(row.id)?.includes(`/${row.folder}/`)
    if (done.every(seen)) return done.map((row) => row.id)
    if (Date.now() > deadline) throw new Error('the server did not show the new streams in 15 s')
    await Bun.sleep(100)
  }
}
