// The database schema. Every change here is followed by `bun run db:generate` (a new migration).
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import type { GrowingState } from '../src/contract/growing-stream.ts'
import { videoStatuses } from '../src/contract/video.ts'

export const admins = pgTable(
  'admins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['super_admin', 'admin'] })
      .notNull()
      .default('admin'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('admins_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('admins_username_lower_idx').on(sql`lower(${t.username})`),
  ],
)

/** lucia's session table; `id` is SHA-256 of the bearer token, never the token itself. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
)

/**
 * The sign-in and reset limits' counters and locks (rate-limiter-flexible's Drizzle store), one
 * table for every server on this database: `points` counted in the window that ends at `expire`.
 * Expired rows are deleted by src/accounts/limit-store.ts
 * (docs/decisions/062-limits-in-the-database-health-and-metrics.md).
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull(),
    expire: timestamp('expire', { withTimezone: true }),
  },
  (t) => [index('rate_limits_expire_idx').on(t.expire)],
)

/**
 * Numbers the media pipeline's writes to `videos` (status, progress, outputs). Each such write
 * sets the row's `media_revision` from it, so a server can notice another process's changes by
 * polling `count(*)` and `sum(media_revision)`: a committed write always moves the sum, and an
 * uncommitted one is not seen (src/db/changes.ts).
 */
export const videoMediaRevision = pgSequence('video_media_revision')

/**
 * What a processing run writes, on a work's row (its current version) and on a version's row (any
 * other): the same columns in both, so a version made current moves them across one by one
 * (src/videos/version-switch.ts). A function: each table needs builders of its own.
 */
const processingColumns = () => ({
  // Processing (docs/media.md). A new or replaced video file starts `queued` again; progress
  // writes never touch `updated_at` (the dashboard's "Updated" is the edit time).
  status: text('status', { enum: videoStatuses }).notNull().default('queued'),
  progress: integer('progress').notNull().default(0),
  /** Seconds. */
  duration: real('duration'),
  /** Displayed size (rotation applied); null until probed. */
  width: integer('width'),
  height: integer('height'),
  frameRate: real('frame_rate'),
  videoCodec: text('video_codec'),
  audioCodec: text('audio_codec'),
  /** Bits per second of the master. */
  bitrate: integer('bitrate'),
  // The master's audio by EBU R128 (src/processing/loudness.ts): LUFS, LU, dBTP. Null until
  // measured and for a video without audio; the true peak also for digital silence.
  loudnessIntegrated: real('loudness_integrated'),
  loudnessRange: real('loudness_range'),
  loudnessTruePeak: real('loudness_true_peak'),
  /** The folder under DATA_DIR/media holding the streams, MP4 and preview of the last run. */
  streamsKey: text('streams_key'),
  /** Whether that folder holds a preview loop: one over its size cap is not kept. */
  hasPreview: boolean('has_preview').notNull().default(true),
  /** Why processing failed, in words an admin can act on. */
  processingError: text('processing_error'),
})

export const videos = pgTable(
  'videos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    videoKey: text('video_key').notNull(),
    videoType: text('video_type').notNull(),
    videoSize: bigint('video_size', { mode: 'number' }).notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    thumbnailType: text('thumbnail_type').notNull(),
    thumbnailSize: bigint('thumbnail_size', { mode: 'number' }).notNull(),
    brandLogoKey: text('brand_logo_key').notNull(),
    brandLogoType: text('brand_logo_type').notNull(),
    brandLogoSize: bigint('brand_logo_size', { mode: 'number' }).notNull(),
    ...processingColumns(),
    /**
     * While an attempt runs: the folder its stream is published to as the encoder makes it, and
     * how far it got (docs/media.md#growing-streams). Null otherwise; never a final folder.
     */
    growing: jsonb('growing').$type<GrowingState>(),
    mediaRevision: bigint('media_revision', { mode: 'number' }).notNull().default(0),
    // The curated portfolio (docs/decisions/050-curated-order-as-positions-handed-around.md): the
    // public order, lowest first (a new video takes one below the lowest, so it leads), and whether
    // visitors see the video at all.
    position: bigint('position', { mode: 'number' }).notNull().default(0),
    published: boolean('published').notNull().default(true),
    /**
     * The work's page is /work/<slug>
     * (docs/decisions/052-work-pages-as-the-built-shell-with-their-own-head.md): from the title,
     * unique.
     */
    slug: text('slug').notNull(),
    /**
     * The version the work plays everywhere (`video_versions`): the master and media columns
     * above are that version's. No foreign key: the versions point back at their work, and a
     * backup restores tables parents first (src/backup/tables.ts), which a cycle would forbid.
     */
    currentVersionId: uuid('current_version_id'),
    /** The highest version number this work has given: a deleted version's number is not reused. */
    lastVersion: integer('last_version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('videos_title_lower_idx').on(sql`lower(${t.title})`),
    uniqueIndex('videos_slug_idx').on(t.slug),
    // Newest first with a stable tie-breaker for pagination.
    index('videos_created_idx').on(t.createdAt.desc(), t.id.desc()),
    // The curated order, ties (concurrent creates) newest first.
    index('videos_position_idx').on(t.position, t.createdAt.desc(), t.id.desc()),
    check(
      'videos_status_check',
      sql`${t.status} in (${sql.raw(videoStatuses.map((s) => `'${s}'`).join(', '))})`,
    ),
    check('videos_progress_check', sql`${t.progress} between 0 and 100`),
  ],
)

/**
 * Slugs a work had before its title changed: /work/<old> redirects to its page for good, so a
 * shared link keeps working. Gone with the work.
 */
export const videoSlugs = pgTable(
  'video_slugs',
  {
    slug: text('slug').primaryKey(),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('video_slugs_video_idx').on(t.videoId)],
)

/**
 * A work's caption tracks (WebVTT, SRT converted on the way in): one per language, named in the
 * player's menu by `label`. `key` is the stored file's name (a new upload, a new name: its URL is
 * cached immutable). Gone with the work; its file goes after the delete commits.
 */
export const videoCaptions = pgTable(
  'video_captions',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    label: text('label').notNull(),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('video_captions_language_idx').on(t.videoId, t.language)],
)

/**
 * The cuts of one work (docs/review.md#versions), numbered 1, 2, … in upload order. The current
 * one's master and media live on its `videos` row (every page, embed and review link reads only
 * that), and its own row here keeps its number, uploader and date with the file columns null;
 * any other version keeps its master, its processing state, its stream folder, its loudness and
 * its caption tracks here. Making a version current swaps the two, in one transaction. Gone with
 * the work; a deleted version's files go after the delete commits.
 */
export const videoVersions = pgTable(
  'video_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    masterKey: text('master_key'),
    masterType: text('master_type'),
    masterSize: bigint('master_size', { mode: 'number' }),
    ...processingColumns(),
    /** Its caption tracks while it is not current: `[{ language, label, key }]`. */
    captions: jsonb('captions').notNull().default(sql`'[]'::jsonb`),
    /** The admin who uploaded it (kept by name too, so the list reads after they are deleted). */
    uploadedBy: uuid('uploaded_by'),
    uploadedByName: text('uploaded_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('video_versions_number_idx').on(t.videoId, t.number),
    check(
      'video_versions_status_check',
      sql`${t.status} in (${sql.raw(videoStatuses.map((s) => `'${s}'`).join(', '))})`,
    ),
    check('video_versions_progress_check', sql`${t.progress} between 0 and 100`),
  ],
)

export type VideoVersionRow = typeof videoVersions.$inferSelect

/**
 * Public copies in the bucket
 * (docs/decisions/087-public-copies-under-public-for-shown-works-only.md): with MEDIA_PUBLIC_URL, a
 * shown work's stream folder, thumbnail and logo, and the site's images, are copied to
 * `public/<copy_id>/<key>`, the only prefix a bucket lets anyone read, and removed from there when
 * the work is hidden. `name` is the folder or stored name; a row is written before its first object
 * is copied, so every object under `public/` has a row while it may be needed. `state`: `copying`
 * (a copier holds it until `claimed_until`), `done` (every object there: /media redirects to it),
 * `withdrawing` (being removed; nothing redirects to it). At most one copy of a name is copying or
 * done. Transient: a backup leaves it out, and a restored site makes its copies again.
 */
export const publicCopies = pgTable(
  'public_copies',
  {
    copyId: text('copy_id').primaryKey(),
    name: text('name').notNull(),
    state: text('state', { enum: ['copying', 'done', 'withdrawing'] }).notNull(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('public_copies_live_idx').on(t.name).where(sql`${t.state} in ('copying', 'done')`),
    index('public_copies_name_idx').on(t.name),
    check('public_copies_state_check', sql`${t.state} in ('copying', 'done', 'withdrawing')`),
  ],
)

export type AdminRow = typeof admins.$inferSelect
export type VideoRow = typeof videos.$inferSelect

/**
 * Keys the servers share, made once by the first that needs one (`media-links`: signs the
 * short-lived links to a master, src/signing/master-links.ts). In the database, so every process
 * serving the same site signs and checks with the same key.
 */
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  key: text('key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

// ---- Site content and activity log (docs/decisions/037-site-content-as-versions.md,
// docs/decisions/042-activity-log-one-middleware-one-table.md) -----------------------------------
// Kept in one block, apart from the tables above; none of them references another table, so
// deleting an admin or a video never rewrites history.

/**
 * Every save of the public page's editable content is a new row; the newest is current. `content`
 * is the whole editable content (src/contract/site.ts) with the images it names, so any row can be
 * restored on its own. `kind`: a save, or an undo that restored `restoredFrom`.
 */
export const siteVersions = pgTable('site_versions', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  content: jsonb('content').notNull(),
  kind: text('kind', { enum: ['save', 'undo', 'default'] }).notNull(),
  restoredFrom: bigint('restored_from', { mode: 'number' }),
  /** Sections that differ from the version before, for the dashboard and the log. */
  changed: text('changed').array().notNull().default(sql`'{}'::text[]`),
  createdBy: uuid('created_by'),
  createdByName: text('created_by_name'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Images uploaded for the site (hero and client logos), already converted: `image` describes the
 * files in the media store, `names` lists them for the store's sweep. A row no version names
 * (any may come back by undo) is removed with its files once older than a day, so an upload
 * whose form was never saved goes too.
 */
export const siteImages = pgTable('site_images', {
  id: uuid('id').primaryKey().defaultRandom(),
  purpose: text('purpose', { enum: ['heroWide', 'heroMobile', 'logo'] }).notNull(),
  image: jsonb('image').notNull(),
  names: text('names').array().notNull(),
  createdBy: uuid('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * What admins did, for trust: append-only (a trigger refuses UPDATE, and DELETE but the
 * retention's: db/migrations/0005_activity_retention.sql). `actor_name` is the username at the
 * time (or the e-mail typed, for a locked sign-in), so entries stay readable after the admin is
 * deleted.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id'),
    actorName: text('actor_name'),
    kind: text('kind').notNull(),
    summary: text('summary').notNull(),
    targetId: text('target_id'),
    targetTitle: text('target_title'),
    ip: text('ip'),
  },
  (t) => [
    index('activity_log_actor_idx').on(t.actorId, t.id.desc()),
    index('activity_log_kind_idx').on(t.kind, t.id.desc()),
  ],
)

/**
 * The count beside an entry that stands for many alike events (a review link's opens in a day):
 * the entry is written once, by the first, and never changes; the others count here. `key` names
 * what is counted; `addresses` how many of its events came from an address not seen before.
 */
export const activityCounts = pgTable(
  'activity_counts',
  {
    key: text('key').primaryKey(),
    entryId: bigint('entry_id', { mode: 'number' }),
    times: integer('times').notNull().default(1),
    addresses: integer('addresses').notNull().default(0),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('activity_counts_entry_idx').on(t.entryId)],
)

export type SiteVersionRow = typeof siteVersions.$inferSelect
export type ActivityRow = typeof activityLog.$inferSelect

/**
 * Private review links (docs/decisions/063-review-links-hmac-tokens-hashed-path-scoped-cookie.md):
 * a secret address that shows one work. Only the token's SHA-256 is kept; the token itself is an
 * HMAC of `id` under a server key, so the dashboard can show the address again. A link stays after
 * it is revoked or expires (the dashboard lists it), and goes with its work.
 */
export const reviewLinks = pgTable(
  'review_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    note: text('note'),
    passwordHash: text('password_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true }),
    openCount: integer('open_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('review_links_token_idx').on(t.tokenHash),
    index('review_links_video_idx').on(t.videoId, t.createdAt.desc()),
  ],
)

/**
 * The first open of a link per day per address, for the count and the activity log: the
 * address is kept only as an HMAC, and rows older than two days are swept.
 */
export const reviewLinkOpens = pgTable(
  'review_link_opens',
  {
    linkId: uuid('link_id')
      .notNull()
      .references(() => reviewLinks.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    addressHash: text('address_hash').notNull(),
  },
  (t) => [uniqueIndex('review_link_opens_idx').on(t.linkId, t.day, t.addressHash)],
)

export type ReviewLinkRow = typeof reviewLinks.$inferSelect

/**
 * A client's time-coded note on a work, made through one review link (docs/review.md). `at_ms`
 * and `until_ms` (a range, when given) are milliseconds into the version it was made on:
 * `version_number` is that version's number, kept even once the version itself is gone, and
 * `version_id` names it while it exists (no foreign key, so deleting a version keeps its notes).
 * `device_hash` is the SHA-256 of the secret the client's browser holds for its own notes;
 * `digested_at` says the note went out in the link maker's e-mail digest.
 */
export const reviewNotes = pgTable(
  'review_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => reviewLinks.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    // The version it was made on; null once that version is deleted (the number stays).
    versionId: uuid('version_id').references(() => videoVersions.id, { onDelete: 'set null' }),
    versionNumber: integer('version_number').notNull(),
    atMs: integer('at_ms').notNull(),
    untilMs: integer('until_ms'),
    name: text('name').notNull(),
    text: text('text').notNull(),
    deviceHash: text('device_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
    digestedAt: timestamp('digested_at', { withTimezone: true }),
  },
  (t) => [
    index('review_notes_link_idx').on(t.linkId, t.atMs),
    index('review_notes_video_idx').on(t.videoId, t.atMs),
    index('review_notes_undigested_idx').on(t.linkId).where(sql`${t.digestedAt} is null`),
    check('review_notes_range_check', sql`${t.untilMs} is null or ${t.untilMs} > ${t.atMs}`),
  ],
)

/** The studio's answer to a note; `author` is the admin's name at the time. */
export const reviewNoteReplies = pgTable(
  'review_note_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    noteId: uuid('note_id')
      .notNull()
      .references(() => reviewNotes.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    author: text('author').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('review_note_replies_note_idx').on(t.noteId, t.createdAt)],
)

/** When a link's maker was last mailed its new notes: one digest per link per window. */
export const reviewNoteDigests = pgTable('review_note_digests', {
  linkId: uuid('link_id')
    .primaryKey()
    .references(() => reviewLinks.id, { onDelete: 'cascade' }),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
})

export type ReviewNoteRow = typeof reviewNotes.$inferSelect
