// `bun run db:seed`: fills an instance that has no videos with sample projects made locally with
// ffmpeg, uploaded through the real REST path as the first super admin, and processed into
// streams by the app's own media worker before it exits, so a newcomer sees streams play on the
// first run. Run it while the server is stopped (it opens the same data); in
// the Docker image: `docker run --rm -v studio-data:/data studio bun run db:seed`.
// `--once` (used by `bun run quickstart`) seeds a DATA_DIR at most once, so videos an admin
// deleted on purpose do not come back.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { count, eq } from 'drizzle-orm'
import { createApp, StartupError } from '../src/app.ts'
import { ConfigError, loadConfig } from '../src/config.ts'
import { DatabaseLockedError } from '../src/db/lock.ts'
import { checkSampleMediaTools, makeSampleMedia, SampleMediaError } from './sample-media.ts'
import { admins, videos } from './schema.ts'

const once = process.argv.includes('--once')
const COUNT = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 6)
// The samples are 12 s at 640×360: a few seconds each here. Past this the server carries on.
const PROCESSING_WAIT_MS = 10 * 60_000

type App = Awaited<ReturnType<typeof createApp>>

/** Waits until no video is queued or processing, printing how far it got. */
async function waitForProcessing(app: App): Promise<void> {
  const deadline = Date.now() + PROCESSING_WAIT_MS
  let said = ''
  for (;;) {
    const rows = await app.database.db
      .select({ status: videos.status, n: count() })
      .from(videos)
      .groupBy(videos.status)
    const by = Object.fromEntries(rows.map((r) => [r.status, r.n]))
    const total = rows.reduce((sum, r) => sum + r.n, 0)
    const pending = (by.queued ?? 0) + (by.processing ?? 0)
    const line = `  processing: ${by.ready ?? 0} of ${total} ready${by.failed ? `, ${by.failed} failed` : ''}`
    if (line !== said) console.log(line)
    said = line
    if (pending === 0) return
    if (Date.now() > deadline) {
      console.log('  The rest is processed when the server runs.')
      return
    }
    await Bun.sleep(500)
  }
}

async function seed(): Promise<void> {
  const config = loadConfig()
  const marker = join(config.dataDir, '.seeded')
  if (once && existsSync(marker)) return
  const app = await createApp(config)
  const dir = mkdtempSync(join(tmpdir(), 'studio-seed-'))
  try {
    const { totalVideos } = await app.services.videos.stats()
    if (totalVideos > 0) {
      if (once) writeFileSync(marker, new Date().toISOString())
      console.log(`This instance already has ${totalVideos} video(s); nothing seeded.`)
      return
    }
    // Before anything is written: without ffmpeg a later run (or `--once`) tries again.
    checkSampleMediaTools()
    const [owner] = await app.database.db
      .select({ id: admins.id })
      .from(admins)
      .where(eq(admins.role, 'super_admin'))
      .limit(1)
    if (!owner) throw new StartupError('No super admin to own the sample videos.')
    const token = await app.services.auth.startSessionFor(owner.id)
    const samples = await makeSampleMedia(dir, COUNT)
    for (const s of samples) {
      const body = new FormData()
      body.append('title', s.title)
      body.append('description', s.description)
      body.append('video', Bun.file(s.video), 'clip.mp4')
      body.append('thumbnail', Bun.file(s.thumbnail), 'thumb.jpg')
      body.append('brandLogo', Bun.file(s.brandLogo), 'logo.png')
      const res = await app.fetch(
        new Request('http://localhost/api/videos/upload', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body,
        }),
      )
      if (res.status !== 201) throw new Error(`seeding "${s.title}" failed: ${await res.text()}`)
      console.log(`  + ${s.title}`)
    }
    await app.fetch(
      new Request('http://localhost/api/auth/logout', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      }),
    )
    if (once) writeFileSync(marker, new Date().toISOString())
    console.log(`Seeded ${samples.length} sample videos.`)
    // With MEDIA_WORKERS=0 the `bun run worker` processes take them once the server runs.
    if (config.media.workers > 0) await waitForProcessing(app)
  } finally {
    rmSync(dir, { recursive: true, force: true })
    await app.close()
  }
}

// A set-up the operator can fix is one line saying what to do; anything else is a bug: all of it.
const EXPLAINED = [ConfigError, StartupError, DatabaseLockedError, SampleMediaError]
try {
  await seed()
} catch (e) {
  // The quick start goes on to start the site: without ffmpeg it starts empty (and tries again
  // next time) rather than not at all.
  if (once && e instanceof SampleMediaError) {
    console.warn(`No sample videos: ${e.message}`)
    process.exit(0)
  }
  console.error(EXPLAINED.some((type) => e instanceof type) ? (e as Error).message : e)
  process.exit(1)
}
