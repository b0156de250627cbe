// Builds every domain service once per process; tRPC context, REST adapter and tus hooks share them.

import { join } from 'node:path'
import { createAdminsService } from './accounts/admins.ts'
import { createSessionGuard } from './accounts/guard.ts'
import { createLucia } from './accounts/lucia.ts'
import { createAuthService } from './accounts/sign-in.ts'
import { createActivityService } from './activity/log.ts'
import type { Config } from './config.ts'
import { mailFrom } from './contract/brand.ts'
import type { Database } from './db/database.ts'
import { createMailer } from './mail/mailer.ts'
import type { MediaQueue } from './processing/queue.ts'
import { createReviewLinksService } from './review-links/links.ts'
import { createNoteDigests } from './review-notes/digest.ts'
import { createReviewNotesService } from './review-notes/notes.ts'
import { createMasterLinks } from './signing/master-links.ts'
import { createMediaPrefixes } from './signing/media-prefixes.ts'
import type { ServerKeys } from './signing/server-keys.ts'
import { createSiteService } from './site/content.ts'
import { createStorage } from './storage/index.ts'
import { createPublicCopies } from './storage/public-copies.ts'
import { mediaStore } from './storage/store.ts'
import { createUploads } from './uploads/index.ts'
import { createVideosService } from './videos/index.ts'

/** `keys`: the shared keys, read before the first request (src/signing/server-keys.ts). */
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
  // What visitors may fetch, copied where the bucket lets anyone read
  // (docs/decisions/087-public-copies-under-public-for-shown-works-only.md); it asks the videos and
  // the site, which tell it of their changes.
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
  const noteDigests = createNoteDigests({ db: database.db, mailer, publicUrl: config.publicUrl })
  return {
    auth,
    /** The session behind a request, and the one guard of entries outside tRPC. */
    sessions: createSessionGuard(auth),
    admins: createAdminsService(database.db, (id) => auth.forgetUser(id)),
    /** The store of verified files (its storage engine) and its local scratch space. */
    media,
    uploads,
    videos,
    /**
     * Signs and checks the short-lived links to a master
     * (docs/decisions/059-a-master-for-admins-once-streams-exist-signed-links.md).
     */
    masterLinks,
    /**
     * Signs and checks the prefixes of hidden works' media for admins
     * (docs/decisions/064-a-hidden-works-media-by-set-lookup-signed-prefixes-and-link-paths.md).
     */
    prefixes,
    /**
     * Private review links of a work
     * (docs/decisions/063-review-links-hmac-tokens-hashed-path-scoped-cookie.md).
     */
    reviewLinks: createReviewLinksService({
      db: database.db,
      videos,
      activity,
      publicUrl: config.publicUrl,
      key: keys['review-links'],
    }),
    /** Clients' time-coded notes through review links, and the studio's replies (docs/review.md). */
    reviewNotes: createReviewNotesService({
      db: database.db,
      videos,
      // A new note may open its link's digest window at once; a failure waits for the next round.
      noted: () => {
        noteDigests.send().catch((error) => console.error('[review notes] digest failed', error))
      },
    }),
    /** The e-mail digests of new notes to each link's maker. */
    noteDigests,
    /**
     * The public page's editable content and its images
     * (docs/decisions/037-site-content-as-versions.md).
     */
    site,
    /**
     * Copies of what visitors may fetch at the bucket's public address
     * (docs/decisions/087-public-copies-under-public-for-shown-works-only.md).
     */
    publicCopies,
    /**
     * The append-only record of what admins did
     * (docs/decisions/042-activity-log-one-middleware-one-table.md).
     */
    activity,
  }
}

export type Services = ReturnType<typeof createServices>

// Housekeeping: what the database keeps bounded without anyone asking: site images uploaded but
// never saved (after a day), the activity log's retention (a year, 100,000 entries), and the
// bucket's public copies checked against the bucket itself
// (docs/decisions/087-public-copies-under-public-for-shown-works-only.md), and the growing streams
// a stopped process left once their works were ready (docs/media.md#growing-streams). Run before the first
// request and then hourly, beside the uploads' own clean-up (src/uploads/expiry.ts).
const EVERY_MS = 60 * 60 * 1000

/** One round; a failure of one task is logged and does not stop the other. */
export async function housekeep(
  services: Pick<Services, 'site' | 'activity' | 'publicCopies' | 'videos'>,
  growingKeepSeconds = 0,
): Promise<void> {
  const tasks: [string, () => Promise<unknown>][] = [
    ['site images', () => services.site.cleanUp()],
    ['activity retention', () => services.activity.prune()],
    ['public copies', () => services.publicCopies.reconcile({ copy: false })],
    ['growing streams', () => services.videos.retireGrowing(growingKeepSeconds)],
  ]
  for (const [name, run] of tasks) {
    await run().catch((error) => console.error(`[housekeeping] ${name} failed`, error))
  }
}

/** Runs a round now, then every `everyMs` (hourly) without keeping the process alive; returns the stop. */
export async function startHousekeeping(
  services: Pick<Services, 'site' | 'activity' | 'publicCopies' | 'videos'>,
  growingKeepSeconds = 0,
  everyMs = EVERY_MS,
): Promise<() => void> {
  await housekeep(services, growingKeepSeconds)
  const timer = setInterval(() => void housekeep(services, growingKeepSeconds), everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
