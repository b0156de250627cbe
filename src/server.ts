// Wiring only: configuration, the app, Bun.serve, graceful shutdown.
import { createApp, StartupError } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { DatabaseLockedError } from './db-lock.ts'
import { limits } from './schemas/limits.ts'

// The REST multipart upload carries all three files in one body; tus chunks stay far below this.
const MAX_BODY =
  limits.videoBytes + limits.thumbnailBytes + limits.brandLogoBytes + 16 * 1024 * 1024

async function main() {
  const config = loadConfig()
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

main().catch((e) => {
  if (e instanceof ConfigError || e instanceof StartupError || e instanceof DatabaseLockedError) {
    console.error(e.message)
  } else {
    console.error(e)
  }
  process.exit(1)
})
