// The database schema. Every change here is followed by `bun run db:generate` (a new migration).
import { sql } from 'drizzle-orm'
import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('videos_title_lower_idx').on(sql`lower(${t.title})`),
    // Newest first with a stable tie-breaker for pagination.
    index('videos_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
)

export type AdminRow = typeof admins.$inferSelect
export type VideoRow = typeof videos.$inferSelect
