// The whole application behind one fetch function: database, migrations, media queue, services
// and start-up work, composed; the path table is src/api/routes.ts. src/server.ts puts it on a port;
// tests call app.fetch directly.

import { type AppFetch, createPaths } from './api/routes.ts'
import type { Config } from './config.ts'
import { watchSiteChanges } from './db/changes.ts'
import { type Database, duringStartup, openDatabase, runMigrations } from './db/database.ts'
import { startProcessing } from './processing/index.ts'
import { type MediaQueue, startMediaQueue } from './processing/queue.ts'
import { createServices, type Services, startHousekeeping } from './services.ts'
import { loadServerKeys, type ServerKeys } from './signing/server-keys.ts'
import { startMedia } from './storage/media.ts'
import { startUploads } from './uploads/index.ts'

export type App = {
  config: Config
  database: Database
  services: Services
  fetch: AppFetch
  close(): Promise<void>
}

export class StartupError extends Error {}

async function ensureFirstAdmin(config: Config, services: Services): Promise<void> {
  if (!(await services.admins.isEmpty())) return
  let password = config.adminPassword
  if (!password) {
    if (config.env === 'production') {
      throw new StartupError(
        'ADMIN_PASSWORD is required in production to create the first super admin.',
      )
    }
    password = Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('base64url')
    console.log(
      `\n  First admin created. Sign in at ${config.publicUrl}/auth/signin\n  email:    ${config.adminEmail}\n  password: ${password}\n  (shown once; set ADMIN_PASSWORD to choose it)\n`,
    )
  }
  await services.admins.createFirstSuperAdmin(config.adminEmail, password)
}

export async function createApp(config: Config): Promise<App> {
  const database = await openDatabase(config)
  let keys: ServerKeys
  try {
    await runMigrations(database)
    // Read once, here: signing then never waits on the database
    // (docs/decisions/084-a-transaction-never-waits-on-another-connection.md).
    keys = await loadServerKeys(database.db)
  } catch (e) {
    await database.close()
    throw e
  }
  let queue: MediaQueue
  try {
    queue = await startMediaQueue({
      target: database.poolTarget,
      embedded: database.embedded,
      media: config.media,
      supervise: true,
    })
  } catch (e) {
    await database.close()
    throw e
  }
  const services = createServices(config, database, queue, keys)
  let stopUploads: () => Promise<void>
  let stopHousekeeping: () => void
  let stopProcessing: () => void
  let stopSiteWatch: () => void
  let stopDigests: () => Promise<void>
  let stopNoteWatch: () => void
  try {
    // Servers starting at once on an empty database would each create the first admin.
    await duringStartup(database, () => ensureFirstAdmin(config, services))
    // Before the first request: orphaned media, expired uploads, unsaved site images and log
    // entries past their retention go; the hourly jobs start.
    await startMedia(services.media, services.videos.sweepOrphans)
    // A hidden work's copies at the bucket's public address go before the first request; the
    // copies of shown works are made in the background (/media streams them meanwhile).
    await services.publicCopies.reconcile({ copy: false })
    stopUploads = await startUploads(services.uploads)
    stopHousekeeping = await startHousekeeping(services, config.media.growingKeepSeconds)
    // Queued videos get their jobs; MEDIA_WORKERS workers start here (0: other processes work).
    stopProcessing = await startProcessing({
      queue,
      db: database.db,
      store: services.media,
      workers: config.media.workers,
      previewMaxBytes: config.media.previewMaxBytes,
      growingKeepSeconds: config.media.growingKeepSeconds,
      videos: services.videos,
    })
    // A save on another server sharing the database shows here within about a second.
    stopSiteWatch = watchSiteChanges(database.db, services.site.invalidate)
    // Notes that arrived inside a link's digest window go out once it has passed.
    stopDigests = services.noteDigests.start()
    stopNoteWatch = services.reviewNotes.watch()
  } catch (e) {
    await queue.stop()
    await database.close()
    throw e
  }
  return {
    config,
    database,
    services,
    fetch: createPaths({ config, database, services, queue }),
    async close() {
      await stopUploads()
      stopHousekeeping()
      stopProcessing()
      stopSiteWatch()
      await stopDigests()
      stopNoteWatch()
      await services.publicCopies.stop()
      // Before the database: a running job is failed for a later retry and its ffmpeg killed.
      await queue.stop()
      await services.auth.settle()
      await database.close()
    },
  }
}
