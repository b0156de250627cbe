// Wiring only: configuration, the app, Bun.serve, graceful shutdown.
import { createApp, StartupError } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { limits } from './contract/limits.ts'
import { explainDataDirError } from './db/data-dir.ts'
import { DatabaseLockedError } from './db/lock.ts'
import { DatabaseUnreachableError } from './db/wait.ts'
import { StorageError } from './errors.ts'
import { createStorage } from './storage/index.ts'

// The REST multipart upload carries all three files in one body; tus chunks stay far below this.
const MAX_BODY =
  limits.videoBytes + limits.thumbnailBytes + limits.brandLogoBytes + 16 * 1024 * 1024

let dataDir: string | undefined

async function main() {
  const config = loadConfig()
  dataDir = config.dataDir
  // A bucket that is missing or refuses us stops the start, before anything is opened.
  if (config.s3) await createStorage(config).check()
  const app = await createApp(config)
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: MAX_BODY,
    // Seconds without a byte before a connection is dropped: long enough for a slow chunk,
    // short enough that a stalled client does not hold a socket for ever (tus resumes it).
    idleTimeout: config.idleTimeoutSeconds,
    fetch: (req, srv) =>
      app.fetch(
        req,
        () => srv.requestIP(req)?.address ?? 'unknown',
        () => srv.timeout(req, 1),
      ),
    error: () =>
      Response.json(
        { status: 'error', message: 'Something went wrong. Please try again.' },
        { status: 500 },
      ),
  })
  const where = app.database.embedded ? 'embedded database' : 'DATABASE_URL'
  console.log(`Listening on http://${server.hostname}:${server.port} (${where})`)
  console.log(`Sign in at ${config.publicUrl}/auth/signin`)

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: finishing in-flight requests…`)
    await server.stop(false)
    await app.close()
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

// A set-up the operator can fix is told in one line with what to do; anything else is a bug and
// keeps its stack.
const SETUP_ERRORS = [
  ConfigError,
  StartupError,
  DatabaseLockedError,
  DatabaseUnreachableError,
  StorageError,
]

main().catch((e) => {
  const explained = dataDir === undefined ? undefined : explainDataDirError(e, dataDir)
  if (explained) console.error(explained.message)
  else if (SETUP_ERRORS.some((type) => e instanceof type)) console.error(e.message)
  else console.error(e)
  process.exit(1)
})
