// `bun run worker`: media workers in a process of their own, on the server's database and data
// folder (the same DATABASE_URL and DATA_DIR; the outputs go to the media storage). With
// DATABASE_URL it may run anywhere that shares DATA_DIR; on the embedded database it reaches the
// database through the server's private socket, so it runs beside a running server, as its user.
import { ConfigError, loadConfig } from './config.ts'
import { connectDatabase } from './db/database.ts'
import { EmbeddedNotServedError } from './db/embedded-socket.ts'
import { DatabaseUnreachableError } from './db/wait.ts'
import { StorageError } from './errors.ts'
import { missingTools } from './processing/index.ts'
import { type MediaQueue, startMediaQueue } from './processing/queue.ts'
import { createStorage } from './storage/index.ts'
import { ensureDirs, mediaStore } from './storage/store.ts'

// A lost socket: the server that serves the embedded database has stopped.
const GONE = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE'])

class MissingToolError extends Error {}

async function main() {
  const config = loadConfig()
  if (config.s3) await createStorage(config).check()
  const missing = missingTools()
  if (missing) throw new MissingToolError(`A media worker needs ${missing}.`)
  // What this process writes under DATA_DIR is for its user only, as the server's is.
  process.umask(0o077)
  const database = await connectDatabase(config)
  const store = mediaStore(config.dataDir, createStorage(config))
  await ensureDirs(store)
  let stopping = false
  let queue: MediaQueue | undefined
  const stop = async (code: number) => {
    if (stopping) return
    stopping = true
    await queue?.stop().catch(() => {})
    await database.close()
    process.exit(code)
  }
  queue = await startMediaQueue({
    target: database.poolTarget,
    embedded: database.embedded,
    media: config.media,
    supervise: true,
    onError(error) {
      const code = (error as NodeJS.ErrnoException).code ?? ''
      if (database.embedded && GONE.has(code)) {
        console.error('The server stopped serving the embedded database: this worker stops too.')
        void stop(1)
      } else {
        console.error(`[media] queue: ${error.message}`)
      }
    },
  })
  // MEDIA_WORKERS counts the server's own workers; 0 there is what sends the work here.
  const workers = Math.max(1, config.media.workers)
  await queue.work(workers, {
    db: database.db,
    store,
    previewMaxBytes: config.media.previewMaxBytes,
    growingKeepSeconds: config.media.growingKeepSeconds,
  })
  const where = database.embedded ? 'embedded database, through the server' : 'DATABASE_URL'
  console.log(`Media worker ready: ${workers} at a time (${where}, pid ${process.pid})`)
  process.on('SIGTERM', () => void stop(0))
  process.on('SIGINT', () => void stop(0))
}

const EXPLAINED = [
  ConfigError,
  EmbeddedNotServedError,
  DatabaseUnreachableError,
  MissingToolError,
  StorageError,
]
main().catch((e) => {
  console.error(EXPLAINED.some((type) => e instanceof type) ? (e as Error).message : e)
  process.exit(1)
})
