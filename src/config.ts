// The only reader of process.env: parsed once with zod; a bad value stops start-up with one line.

import { isIP } from 'node:net'
import { z } from 'zod'

/** A setting that may be left out or empty: either way it is unset (undefined). */
const optionalText = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))

/** A secret that may be unset, but when set is long enough to guess at no better than chance. */
const optionalSecret = (minLength: number) =>
  optionalText().refine(
    (v) => v === undefined || v.length >= minLength,
    `must be at least ${minLength} characters`,
  )

const optionalUrl = (protocols: string[]) =>
  optionalText().refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
    message: `must start with ${protocols.join(' or ')}`,
  })

// What postgres.js parses: a URL with the first of a comma-separated host list in place, each
// host with an optional numeric port, and user and password whose %-escapes decode. One `@` only:
// postgres.js splits at the first, so an unescaped `@` in a password sends it to the wrong host.
function isPostgresUrl(v: string): boolean {
  const authority = v.slice(v.indexOf('://') + 3).split(/[?/#]/)[0] ?? ''
  const hosts = authority.slice(authority.indexOf('@') + 1)
  if (authority.split('@').length > 2) return false
  try {
    const url = new URL(v.replace(hosts, hosts.split(',')[0] ?? ''))
    decodeURIComponent(url.username)
    decodeURIComponent(url.password)
  } catch {
    return false
  }
  return hosts.split(',').every((h) => /^(\[[0-9a-fA-F:.]+\]|[^:[\]]*)(:\d{1,5})?$/.test(h))
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']).refine(
    (v) => v === undefined || isPostgresUrl(v),
    'must look like postgres://user:password@host:5432/database (with @ : / # % in the password written as %40 %3A %2F %23 %25)',
  ),
  // Seconds to wait for DATABASE_URL's server at start-up (it may start after the app).
  DATABASE_WAIT: z.coerce.number().min(0).max(3600).default(30),
  DATA_DIR: z.string().min(1).default('./data'),
  ADMIN_EMAIL: z.email().default('admin@example.com'),
  ADMIN_PASSWORD: z
    .string()
    .min(6, 'must be at least 6 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PUBLIC_URL: optionalUrl(['http://', 'https://']),
  SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
  WEB_DIST: z.string().default('web/dist'),
  // The public pages' server render (`bun run build` makes both).
  SSR_DIST: z.string().default('web/dist-ssr'),
  // Seconds a connection may send nothing before it is dropped (Bun allows up to 255).
  IDLE_TIMEOUT: z.coerce.number().int().min(1).max(255).default(60),

  // Media workers the server runs itself (0: none; `bun run worker` processes then do the work).
  MEDIA_WORKERS: z.coerce.number().int().min(0).max(8).default(1),
  // A job whose worker sends no heartbeat for this long is retried (pg-boss's minimum is 10).
  MEDIA_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(15),
  // How often pg-boss's supervisor looks for such jobs (and does its upkeep).
  MEDIA_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // How often an idle worker asks for a job when nothing wakes it sooner.
  MEDIA_POLL_SECONDS: z.coerce.number().min(0.5).max(600).default(5),
  // On a stop (a deploy), how long the runs in hand may take to finish on their own before they
  // are ended and their jobs given back: a short clip's run is not thrown away for seconds' work.
  MEDIA_STOP_FINISH_SECONDS: z.coerce.number().min(0).max(60).default(5),
  // How long a work's growing stream stays once its final streams exist, for players still on it
  // (they move to the final streams at their next look at the work).
  MEDIA_GROWING_KEEP_SECONDS: z.coerce.number().min(0).max(3600).default(30),
  // The preview loop's size cap: a loop over it is not kept (the tile shows its poster).
  MEDIA_PREVIEW_MAX_BYTES: z.coerce.number().int().min(1000).max(10_000_000).default(500_000),

  // The bearer token /metrics asks for; unset, /metrics is not served.
  METRICS_TOKEN: optionalSecret(16),

  // Signs each backup's manifest, and a restore then takes only archives signed with it
  // (docs/backup.md). Read by `bun run backup` and `bun run restore` only.
  BACKUP_KEY: optionalSecret(32),

  // Object storage (any S3-compatible store): set S3_BUCKET to keep media there instead of on
  // DATA_DIR's disk. Credentials come from the AWS SDK's usual chain (AWS_ACCESS_KEY_ID, …).
  S3_BUCKET: optionalText().refine(
    (v) => v === undefined || /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v),
    'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens',
  ),
  S3_ENDPOINT: optionalUrl(['http://', 'https://']),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  // The bucket's public base (a CDN in front of it, or its own public URL): set, /media answers a
  // shown work's public files with a redirect there instead of streaming them
  // (docs/decisions/073-public-media-stream-by-default-redirect-with-media-public-url.md).
  MEDIA_PUBLIC_URL: optionalUrl(['http://', 'https://']).refine(
    (v) => v === undefined || URL.canParse(v),
    'must be a URL such as https://cdn.example.com',
  ),

  // Reverse proxies whose X-Forwarded-For names the client (addresses or CIDR ranges).
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const parsed = parseProxyList(v)
      if ('ok' in parsed) return parsed.ok
      ctx.addIssue({ code: 'custom', message: `has '${parsed.bad}', not an address or range` })
      return z.NEVER
    }),
})

/** An IP address's family for node:net; undefined for anything else. */
export function addressFamily(address: string): 'ipv4' | 'ipv6' | undefined {
  const v = isIP(address)
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : undefined
}

/**
 * Parses TRUSTED_PROXIES: addresses or CIDR ranges, separated by commas or spaces. Returns the
 * entries, or the first one that is not an address or range (for the start-up message).
 */
export function parseProxyList(text: string): { ok: string[] } | { bad: string } {
  const entries = text.split(/[\s,]+/).filter(Boolean)
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/')
    const family = addressFamily(address)
    const bits = family === 'ipv4' ? 32 : 128
    const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits)
    if (!family || !validPrefix || rest.length) return { bad: entry }
  }
  return { ok: entries }
}

export type Config = {
  env: 'development' | 'production' | 'test'
  port: number
  host: string
  databaseUrl: string | undefined
  databaseWaitSeconds: number
  dataDir: string
  adminEmail: string
  adminPassword: string | undefined
  publicUrl: string
  smtpUrl: string | undefined
  webDist: string
  ssrDist: string
  idleTimeoutSeconds: number
  trustedProxies: string[]
  metricsToken: string | undefined
  /** The key backups are signed with and restores check signatures against. */
  backupKey: string | undefined
  media: MediaConfig
  /** Set: media live in this bucket; unset: on DATA_DIR's disk. */
  s3: S3Config | undefined
  /**
   * Set (with a bucket only): the public base URL of the bucket's keys, without a trailing
   * slash; /media redirects a shown work's public files to `<mediaPublicUrl>/<key>`.
   */
  mediaPublicUrl: string | undefined
}

export type S3Config = {
  bucket: string
  /** Omitted for AWS. */
  endpoint: string | undefined
  region: string
  forcePathStyle: boolean
}

export type MediaConfig = {
  workers: number
  heartbeatSeconds: number
  superviseSeconds: number
  pollSeconds: number
  /** On a stop, how long runs in hand may finish on their own before they are given back. */
  stopFinishSeconds: number
  /** How long a growing stream stays once the final streams exist. */
  growingKeepSeconds: number
  previewMaxBytes: number
}

export class ConfigError extends Error {}

/** Parse an environment (process.env by default). Throws ConfigError with a one-line message. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const key = issue?.path.join('.') ?? 'environment'
    throw new ConfigError(`Invalid configuration: ${key} ${issue?.message ?? 'is invalid'}`)
  }
  const e = parsed.data
  if (e.MEDIA_PUBLIC_URL && !e.S3_BUCKET) {
    // Its URLs name the bucket's keys: without a bucket they would lead nowhere.
    throw new ConfigError('Invalid configuration: MEDIA_PUBLIC_URL needs S3_BUCKET')
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseWaitSeconds: e.DATABASE_WAIT,
    dataDir: e.DATA_DIR,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    webDist: e.WEB_DIST,
    ssrDist: e.SSR_DIST,
    idleTimeoutSeconds: e.IDLE_TIMEOUT,
    trustedProxies: e.TRUSTED_PROXIES,
    metricsToken: e.METRICS_TOKEN,
    backupKey: e.BACKUP_KEY,
    media: {
      workers: e.MEDIA_WORKERS,
      heartbeatSeconds: e.MEDIA_HEARTBEAT_SECONDS,
      superviseSeconds: e.MEDIA_SUPERVISE_SECONDS,
      pollSeconds: e.MEDIA_POLL_SECONDS,
      stopFinishSeconds: e.MEDIA_STOP_FINISH_SECONDS,
      growingKeepSeconds: e.MEDIA_GROWING_KEEP_SECONDS,
      previewMaxBytes: e.MEDIA_PREVIEW_MAX_BYTES,
    },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    mediaPublicUrl: e.MEDIA_PUBLIC_URL?.replace(/\/+$/, ''),
  }
}
