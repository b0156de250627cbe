// Test fixture: the real app (real database, real fetch handler) with helpers to call it as a
// client would. One per test file; `reset()` empties the tables between tests.
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { type App, createApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { createStorage } from '../src/storage/index.ts'
import { KEY_PREFIXES } from '../src/storage/layout.ts'
import { createTestDatabase, type TestDatabase } from './database.ts'
import { dropBucket, makeBucket, s3Available, s3Env } from './s3.ts'

export const ADMIN_EMAIL = 'owner@studio.test'
export const ADMIN_PASSWORD = 'owner-pass-123'

// biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes by path
export type Json = { status: string; data?: any; message?: string; field?: string }
export type CallOptions = {
  body?: unknown
  token?: string | null
  headers?: Record<string, string>
  ip?: string
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>

/**
 * TEST_STORAGE=s3 runs every app of the suite on a bucket of its own on the real S3 server
 * (testkit/s3.ts), dropped with the app: the same tests prove both engines.
 */
const onS3 = process.env.TEST_STORAGE === 's3' && storageOnS3()

function storageOnS3(): boolean {
  const s3 = s3Available()
  // The suite still runs where no S3 server is: the tests written for S3 say they were skipped.
  if (!s3.available) console.warn(`TEST_STORAGE=s3, but media stay on disk: ${s3.reason}`)
  return s3.available
}

/** For a test of what only the disk engine has: the reason it is skipped on s3. */
export const diskOnly = (reason: string) => onS3 && `on the disk engine only: ${reason}`

export async function startTestApp(env: Record<string, string> = {}) {
  const testDb: TestDatabase = await createTestDatabase()
  const bucket = onS3 && !env.S3_BUCKET ? await makeBucket() : undefined
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: testDb.dataDir,
    ...(testDb.databaseUrl ? { DATABASE_URL: testDb.databaseUrl } : {}),
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    PUBLIC_URL: 'https://studio.test',
    WEB_DIST: '/nonexistent',
    SSR_DIST: '/nonexistent',
    // Jobs are queued but not run: ffmpeg in the background of every video test would only load
    // the machine. The pipeline's tests turn workers on.
    MEDIA_WORKERS: '0',
    // A growing stream goes with its run (tests look at the store once a work is ready); the
    // tests of the stay set their own.
    MEDIA_GROWING_KEEP_SECONDS: '0',
    ...(bucket ? s3Env(bucket) : {}),
    ...env,
  })
  let app: App = await createApp(config)
  const storage = createStorage(config)
  let ipCounter = 0

  const t = {
    get app() {
      return app
    },
    config,
    dataDir: testDb.dataDir,
    /** Which engine the app stores media with. */
    engine: storage.engine,
    /** The app's media store, as the app configures it. */
    storage,

    /** The stored files' names (masters and images, not run folders), sorted. */
    async storedNames(): Promise<string[]> {
      return (await t.storedKeys())
        .filter((key) => !key.startsWith('streams/'))
        .map((key) => key.slice(key.indexOf('/') + 1))
        .sort()
    },

    /** Every key the app's store holds (masters/, images/, streams/), sorted. */
    async storedKeys(): Promise<string[]> {
      const keys: string[] = []
      for (const prefix of KEY_PREFIXES) {
        for await (const item of storage.list(prefix)) keys.push(item.key)
      }
      return keys.sort()
    },

    /** A raw request through the real fetch handler. A fresh client address unless `ip` is given. */
    fetch(path: string, init: RequestInit = {}, ip?: string) {
      return app.fetch(
        new Request(`http://localhost${path}`, init),
        ip ?? `10.0.0.${++ipCounter % 250}`,
      )
    },

    /** A JSON call; returns the status and parsed answer. */
    async call(method: string, path: string, opts: CallOptions = {}) {
      const headers: Record<string, string> = { ...opts.headers }
      if (opts.body !== undefined) headers['content-type'] ??= 'application/json'
      if (opts.token) headers.authorization = `Bearer ${opts.token}`
      const body =
        opts.body === undefined
          ? undefined
          : typeof opts.body === 'string'
            ? opts.body
            : JSON.stringify(opts.body)
      const res = await t.fetch(path, { method, headers, body }, opts.ip)
      const text = await res.text()
      let json: Json
      try {
        json = JSON.parse(text)
      } catch {
        json = { status: 'unparsed', message: text }
      }
      return { status: res.status, json, headers: res.headers }
    },

    async login(email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
      const r = await t.call('POST', '/api/auth/login', { body: { email, password } })
      if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.json)}`)
      return r.json.data.token
    },

    /** Creates a plain admin through the API and returns its id and token. */
    async createAdmin(username: string, ownerToken: string) {
      const email = `${username.toLowerCase()}@studio.test`
      const r = await t.call('POST', '/api/admins', {
        token: ownerToken,
        body: { username, email, password: 'password-123' },
      })
      if (r.status !== 201)
        throw new Error(`createAdmin failed: ${r.status} ${JSON.stringify(r.json)}`)
      return {
        id: r.json.data.admin._id as string,
        email,
        token: await t.login(email, 'password-123'),
      }
    },

    /** Empties every table and the media store and re-creates the first super admin, as on a first start. */
    async reset() {
      const media = join(testDb.dataDir, 'media')
      for (const name of await readdir(media).catch(() => [] as string[])) {
        await rm(join(media, name), { force: true, recursive: true })
      }
      if (bucket) await storage.delete(await t.storedKeys())
      await app.database.db.execute(
        sql`truncate table password_reset_tokens, sessions, videos, admins cascade`,
      )
      await app.services.admins.createFirstSuperAdmin(ADMIN_EMAIL, ADMIN_PASSWORD)
      app.services.videos.invalidate()
    },

    /** Closes and opens the app on the same data, as a process restart would. */
    async restart() {
      await app.close()
      app = await createApp(config)
    },

    async stop() {
      await app.close()
      await testDb.drop()
      if (bucket) await dropBucket(bucket)
    },
  }
  return t
}
