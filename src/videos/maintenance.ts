// What a start runs over the videos: a job for every video still queued, and the sweep of media
// files and scratch folders no row or running job accounts for.
import { eq, sql } from 'drizzle-orm'
import { videoCaptions, videos, videoVersions } from '../../db/schema.ts'
import { scratchJobId } from '../storage/layout.ts'
import { removeFolders, sweep } from '../storage/store.ts'
import type { VideosContext } from './context.ts'
import { keysOf } from './files.ts'
import { versionFiles } from './versions.ts'

export function createVideoMaintenance(ctx: VideosContext) {
  const { db, store, queue } = ctx

  return {
    /** Start-up: every queued video gets its job, unless it has one (idempotent). */
    async enqueueQueued(): Promise<number> {
      const rows = await db
        .select({ videoId: videos.id, sourceKey: videos.videoKey })
        .from(videos)
        .where(eq(videos.status, 'queued'))
      // Versions waiting to be processed too (the current one's state is on its work's row).
      const versions = await db
        .select({
          videoId: videoVersions.videoId,
          sourceKey: videoVersions.masterKey,
          versionId: videoVersions.id,
        })
        .from(videoVersions)
        .where(eq(videoVersions.status, 'queued'))
      let added = 0
      for (const row of rows) if (await queue.enqueue(row)) added++
      for (const { sourceKey, ...row } of versions) {
        if (sourceKey && (await queue.enqueue({ ...row, sourceKey }))) added++
      }
      if (added > 0) queue.wake()
      return added
    },

    /**
     * Growing streams of ready works a stopped process left (docs/media.md#growing-streams):
     * removed, then forgotten, once `keepSeconds` have passed since the work was ready (those
     * not due yet on a timer that does not keep the process alive). Returns how many were found.
     */
    async retireGrowing(keepSeconds: number): Promise<number> {
      const ended = await db
        .select({
          id: videos.id,
          growing: videos.growing,
          dueMs: sql<number>`extract(epoch from ((${videos.growing}->>'endedAt')::timestamptz
            + make_interval(secs => ${keepSeconds}) - now())) * 1000`.mapWith(Number),
        })
        .from(videos)
        .where(sql`${videos.growing}->>'endedAt' is not null`)
      const retire = async (id: string, folder: string) => {
        await removeFolders(store, [folder])
        await db
          .update(videos)
          .set({ growing: null })
          .where(sql`${videos.id} = ${id} and ${videos.growing}->>'folder' = ${folder}`)
      }
      for (const { id, growing, dueMs } of ended) {
        if (!growing) continue
        if (dueMs <= 0) await retire(id, growing.folder)
        else {
          setTimeout(() => {
            retire(id, growing.folder).catch((error) =>
              console.error(`[housekeeping] growing stream: ${(error as Error).message}`),
            )
          }, dueMs).unref()
        }
      }
      return ended.length
    },

    /**
     * Start-up: media files and streams folders no row names are removed (see docs/media.md
     * "On disk"), and the scratch folders of jobs no worker is running. Rows are read after the
     * store is listed and under a share lock, so a worker process finishing meanwhile (it holds
     * the row while it stores its folder) is waited for, not swept.
     */
    async sweepOrphans(): Promise<string[]> {
      return sweep(store, async (listed) => {
        const jobs = listed.flatMap((name) => scratchJobId(name) ?? [])
        // A job still active may have a worker process writing there (a crashed one's retry
        // clears its own); any other job's scratch is a leftover.
        const active = await queue.activeJobs(jobs)
        const rows = await db
          .select({
            videoKey: videos.videoKey,
            thumbnailKey: videos.thumbnailKey,
            brandLogoKey: videos.brandLogoKey,
            streamsKey: videos.streamsKey,
            growing: videos.growing,
          })
          .from(videos)
          .for('share')
        const captions = await db
          .select({ key: videoCaptions.key })
          .from(videoCaptions)
          .for('share')
        const versions = await db
          .select({
            masterKey: videoVersions.masterKey,
            streamsKey: videoVersions.streamsKey,
            captions: videoVersions.captions,
          })
          .from(videoVersions)
          .for('share')
        const keep = new Set([
          ...rows.flatMap((row) => [
            ...keysOf(row),
            row.streamsKey ?? '',
            row.growing?.folder ?? '',
          ]),
          ...captions.map((row) => row.key),
          ...versions.flatMap((row) => {
            const files = versionFiles(row)
            return [...files.names, ...files.folders]
          }),
        ])
        for (const name of listed) {
          const job = scratchJobId(name)
          if (job && active.has(job)) keep.add(name)
        }
        return keep
      })
    },
  }
}
