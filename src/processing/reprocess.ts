// `bun run media:reprocess [id…]`: runs the media pipeline again for the given videos, or for
// all of them (after a change to the ladder in src/processing/ladder.ts). It only queues jobs,
// through the database, so it works while the server runs: with DATABASE_URL directly, on the
// embedded database through the server's private socket. The server's workers or `bun run
// worker` do the work; each video keeps serving its current streams until the new ones are in.
import { videos } from '../../db/schema.ts'
import { ConfigError, loadConfig } from '../config.ts'
import { connectDatabase } from '../db/database.ts'
import { EmbeddedNotServedError } from '../db/embedded-socket.ts'
import { DatabaseUnreachableError } from '../db/wait.ts'
import { requeue } from '../videos/rows.ts'
import { startMediaQueue } from './queue.ts'

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

class UsageError extends Error {}

async function main() {
  const args = process.argv.slice(2)
  const bad = args.filter((a) => !UUID_RE.test(a))
  if (bad.length > 0) throw new UsageError(`Not a video id: ${bad.join(', ')}`)
  const config = loadConfig()
  const database = await connectDatabase(config)
  const queue = await startMediaQueue({
    target: database.poolTarget,
    embedded: database.embedded,
    media: config.media,
    supervise: false,
  })
  try {
    const rows = await database.db
      .select({ id: videos.id, status: videos.status, title: videos.title })
      .from(videos)
    const known = new Map(rows.map((row) => [row.id, row]))
    const wanted = args.length > 0 ? args.map((a) => a.toLowerCase()) : [...known.keys()]
    const unknown = wanted.filter((id) => !known.has(id))
    const done = new Set(
      await requeue(
        database.db,
        queue,
        wanted.filter((id) => known.has(id)),
        ['ready', 'failed'],
      ),
    )
    for (const id of wanted) {
      const row = known.get(id)
      if (!row) continue
      const said = done.has(id) ? 'queued' : `left alone: already ${row.status}`
      console.log(`  ${id}  ${row.title}: ${said}`)
    }
    for (const id of unknown) console.log(`  ${id}: no such video`)
    console.log(
      `Re-queued ${done.size} video(s); the server's media workers (or \`bun run worker\`) process them.`,
    )
    if (unknown.length > 0) process.exitCode = 1
  } finally {
    await queue.stop()
    await database.close()
  }
}

const EXPLAINED = [ConfigError, UsageError, EmbeddedNotServedError, DatabaseUnreachableError]
main().catch((e) => {
  console.error(EXPLAINED.some((type) => e instanceof type) ? (e as Error).message : e)
  process.exit(1)
})
