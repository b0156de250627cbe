// `bun run db:seed`: fills an instance that has no videos with sample projects made locally with
// ffmpeg, uploaded through the real REST path as the first super admin, so a newcomer sees a
// living page on the first run. Run it while the server is stopped (it opens the same data).
// `--once` (used by `bun run quickstart`) seeds a DATA_DIR at most once, so videos an admin
// deleted on purpose do not come back.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { makeSampleMedia } from '../bench/lighthouse-fixtures.ts'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { admins } from './schema.ts'

const once = process.argv.includes('--once')
const COUNT = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 6)
const config = loadConfig()
const marker = join(config.dataDir, '.seeded')
if (once && existsSync(marker)) process.exit(0)
const app = await createApp(config)
const dir = mkdtempSync(join(tmpdir(), 'studio-seed-'))
try {
  const { totalVideos } = await app.services.videos.stats()
  if (once) writeFileSync(marker, new Date().toISOString())
  if (totalVideos > 0) {
    console.log(`This instance already has ${totalVideos} video(s); nothing seeded.`)
  } else {
    const [owner] = await app.database.db
      .select({ id: admins.id })
      .from(admins)
      .where(eq(admins.role, 'super_admin'))
      .limit(1)
    if (!owner) throw new Error('No super admin to own the sample videos.')
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
    console.log(`Seeded ${samples.length} sample videos.`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
  await app.close()
}
