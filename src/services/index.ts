// Builds every domain service once per process; tRPC context, REST adapter and tus hooks share them.

import { join } from 'node:path'
import { createSessionGuard } from '../auth/guard.ts'
import { createLucia } from '../auth/lucia.ts'
import type { Config } from '../config.ts'
import type { Database } from '../database.ts'
import { createMailer } from '../mail/mailer.ts'
import { createMasterLinks } from '../media/master-links.ts'
import { createMediaPrefixes } from '../media/media-prefixes.ts'
import { createPublicCopies } from '../media/public-copies.ts'
import { mediaStore } from '../media/store.ts'
import type { MediaQueue } from '../processing/queue.ts'
import { mailFrom } from '../schemas/brand.ts'
import { createStorage } from '../storage/index.ts'
import { createUploads } from '../uploads/index.ts'
import { createVideosService } from '../videos/index.ts'
import { createActivityService } from './activity.ts'
import { createAdminsService } from './admins.ts'
import { createAuthService } from './auth.ts'
import { createReviewLinksService } from './review-links.ts'
import type { ServerKeys } from './server-keys.ts'
import { createSiteService } from './site.ts'

/** `keys`: the shared keys, read before the first request (src/services/server-keys.ts). */
export function createServices(
  config: Config,
  database: Database,
  queue: MediaQueue,
  keys: ServerKeys,
) {
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: join(config.dataDir, 'outbox'),
    from: mailFrom(new URL(config.publicUrl).hostname),
  })
  const lucia = createLucia(database.authSql)
  const media = mediaStore(config.dataDir, createStorage(config))
  const uploads = createUploads(config.dataDir, config.databaseUrl, config.s3)
  const masterLinks = createMasterLinks(keys['media-links'])
  const prefixes = createMediaPrefixes(keys['media-links'])
  const auth = createAuthService({ db: database.db, lucia, mailer, publicUrl: config.publicUrl })
  // What visitors may fetch, copied where the bucket lets anyone read (docs/decisions/087); it
  // asks the videos and the site, which tell it of their changes.
  const publicCopies = createPublicCopies({
    db: database.db,
    storage: media.storage,
    publicUrl: config.mediaPublicUrl,
    wanted: async () => new Set([...(await videos.publicNames()), ...(await site.imageNames())]),
  })
  const videos = createVideosService({
    db: database.db,
    store: media,
    uploads: uploads.tus,
    queue,
    links: masterLinks,
    prefixes,
    publicCopies,
  })
  const site = createSiteService({
    db: database.db,
    store: media,
    imagesChanged: publicCopies.schedule,
  })
  const activity = createActivityService(database.db)
  return {
    auth,
    /** The session behind a request, and the one guard of entries outside tRPC. */
    sessions: createSessionGuard(auth),
    admins: createAdminsService(database.db, (id) => auth.forgetUser(id)),
    /** The store of verified files (its storage engine) and its local scratch space. */
    media,
    uploads,
    videos,
    /** Signs and checks the short-lived links to a master (docs/decisions/059). */
    masterLinks,
    /** Signs and checks the prefixes of hidden works' media for admins (docs/decisions/064). */
    prefixes,
    /** Private review links of a work (docs/decisions/063). */
    reviewLinks: createReviewLinksService({
      db: database.db,
      videos,
      activity,
      publicUrl: config.publicUrl,
      key: keys['review-links'],
    }),
    /** The public page's editable content and its images (docs/decisions/037). */
    site,
    /** Copies of what visitors may fetch at the bucket's public address (docs/decisions/087). */
    publicCopies,
    /** The append-only record of what admins did (record 042). */
    activity,
  }
}

export type Services = ReturnType<typeof createServices>
