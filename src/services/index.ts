// Builds every domain service once per process; tRPC context, REST adapter and tus hooks share them.

import { join } from 'node:path'
import { createLucia } from '../auth/lucia.ts'
import type { Config } from '../config.ts'
import type { Database } from '../database.ts'
import { createMailer } from '../mail/mailer.ts'
import { createMedia } from '../media/index.ts'
import { mailFrom } from '../schemas/brand.ts'
import { createAdminsService } from './admins.ts'
import { createAuthService } from './auth.ts'
import { createVideosService } from './videos.ts'

export function createServices(config: Config, database: Database) {
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: join(config.dataDir, 'outbox'),
    from: mailFrom(new URL(config.publicUrl).hostname),
  })
  const lucia = createLucia(database.authSql)
  const media = createMedia(config.dataDir)
  const auth = createAuthService({ db: database.db, lucia, mailer, publicUrl: config.publicUrl })
  return {
    auth,
    admins: createAdminsService(database.db, (id) => auth.forgetUser(id)),
    media,
    videos: createVideosService({ db: database.db, store: media.store, uploads: media.tus }),
  }
}

export type Services = ReturnType<typeof createServices>
