// The media job queue: pg-boss on the project's own PostgreSQL (embedded or real), through its
// own pg pool (the embedded database's private socket, or DATABASE_URL). One queue `media`
// (one job per video file to process) and its dead-letter queue `media-failed`, whose worker
// marks the video failed when every attempt died without an answer (a killed process, a hang).
// Settings and their measurements: docs/decisions/023-pg-boss-for-media-jobs.md.
import { sql } from 'drizzle-orm'
import type { JobWithMetadata, PgBoss } from 'pg-boss'
import type { MediaConfig } from '../config.ts'
import { assertOutsideTransaction, type PoolTarget } from '../db/database.ts'
import { timeMediaJob } from '../telemetry/process-metrics.ts'
import type { MediaJobs, ProcessVideoPayload, QueueTx } from '../videos/job.ts'
import { type DeadLetterDeps, markDeadLettered } from './jobs/dead-letter.ts'
import { type ProcessVideoDeps, processVideoJob } from './jobs/process-video.ts'

export const MEDIA_QUEUE = 'media'
export const MEDIA_FAILED_QUEUE = 'media-failed'

/** The one job per video file: a replaced file's job is another key, a repeat is refused. */
const singletonKey = (videoId: string, sourceKey: string) => `${videoId}:${sourceKey}`

const LIVE_STATES = new Set(['created', 'retry', 'active'])

export type MediaQueue = MediaJobs & {
  /** Runs `count` media workers in this process, and the dead-letter worker. */
  work(count: number, deps: ProcessVideoDeps & DeadLetterDeps): Promise<void>
  /**
   * Stops polling, lets the runs in hand finish on their own for up to MEDIA_STOP_FINISH_SECONDS,
   * then ends the others, giving their jobs back without counting an attempt; a run that has not
   * given its job back within `graceMs` is failed (retried later).
   */
  stop(graceMs?: number): Promise<void>
  /** Resolves when pg-boss's own pool reaches its schema and the media queue is there. */
  ping(): Promise<void>
  /** Jobs stored now by queue and state, and how long each queue's oldest ready job has waited. */
  stats(): Promise<QueueStats>
}

export const JOB_STATES = [
  'created',
  'retry',
  'active',
  'completed',
  'cancelled',
  'failed',
] as const
export const QUEUES = [MEDIA_QUEUE, MEDIA_FAILED_QUEUE] as const

export type QueueStats = {
  jobs: { queue: string; state: string; count: number }[]
  /** Seconds the oldest job ready to run (created or retry, its start time passed) has waited. */
  lagSeconds: Record<string, number>
}

export type QueueOptions = {
  target: PoolTarget
  embedded: boolean
  media: MediaConfig
  /** Upkeep (expired heartbeats, retention) runs in the server and in workers, not in one-off scripts. */
  supervise: boolean
  /** pg-boss's own errors (a lost connection while polling); logged in one line when not given. */
  onError?: (error: Error) => void
}

export async function startMediaQueue(options: QueueOptions): Promise<MediaQueue> {
  const { embedded, media } = options
  // Loaded here, not with the module: pg-boss and its pg driver take 0.3–1 s to load on this
  // machine, which would otherwise come before the first attempt to reach DATABASE_URL.
  const { PgBoss, fromDrizzle } = await import('pg-boss')
  const boss = new PgBoss({
    ...options.target,
    application_name: 'studio-media',
    // PGlite runs one statement at a time: more connections only queue.
    max: embedded ? 2 : 4,
    backend: embedded ? 'pglite' : 'postgres',
    // No cron: its worker polled every 5 s for nothing.
    schedule: false,
    supervise: options.supervise,
    // Recovery from a killed worker takes the heartbeat plus one supervise pass.
    superviseIntervalSeconds: media.superviseSeconds,
    monitorIntervalSeconds: media.superviseSeconds,
    flowIntervalSeconds: 60,
    bamIntervalSeconds: 300,
    // NOTIFY is not delivered through the embedded socket (one PGlite session); polling is.
    useListenNotify: !embedded,
  })
  boss.on('error', options.onError ?? ((error) => console.error(`[media] queue: ${error.message}`)))
  guardPool(boss)
  await boss.start()
  await boss.createQueue(MEDIA_FAILED_QUEUE)
  const settings = {
    heartbeatSeconds: media.heartbeatSeconds,
    // A 2 GB master at ~1× real time can take hours; a hang is caught by the heartbeat.
    expireInSeconds: 6 * 3600,
    retryLimit: 2,
    retryDelay: 5,
    retryBackoff: true,
    deadLetter: MEDIA_FAILED_QUEUE,
    notify: !embedded,
  }
  await boss.createQueue(MEDIA_QUEUE, { policy: 'exclusive', ...settings })
  // createQueue leaves an existing queue as it was: a changed setting applies from here on.
  await boss.updateQueue(MEDIA_QUEUE, settings)

  const workerIds: string[] = []
  const viaTx = (tx?: QueueTx) => (tx ? { db: fromDrizzle(tx, sql) } : {})

  // A stop (a deploy, a scale-down) is not a failed attempt. pg-boss's own stop fails the jobs
  // in hand, which counts an attempt each: three deploys during one long transcode would fail
  // the video. So a stop first ends this process's runs itself, and each run, once its ffmpeg
  // has ended and its partial output is gone, puts its job back as it was before it was taken
  // (pg-boss's restore: state `created`, attempts unchanged) for the next worker to run afresh.
  // The handler then returns, and pg-boss's completion, fenced to the attempt it fetched while
  // active, changes nothing.
  let stopping = false
  // The runs in hand: how to stop each, and when it has ended (a stop waits for that, not a poll).
  const inHand = new Map<string, { stop: AbortController; ended: Promise<void> }>()
  const giveBack = (id: string) =>
    boss.getDb().executeSql(
      `update pgboss.job set state = 'created', started_on = null, heartbeat_on = null
         where name = $1 and id = $2::uuid and state = 'active'`,
      [MEDIA_QUEUE, id],
    )

  return {
    async enqueue(job, tx) {
      return boss.send(MEDIA_QUEUE, job, {
        ...viaTx(tx),
        singletonKey: singletonKey(job.videoId, job.sourceKey),
      })
    },

    async cancel(job, tx) {
      const found = await boss.findJobs(MEDIA_QUEUE, {
        ...viaTx(tx),
        key: singletonKey(job.videoId, job.sourceKey),
      })
      const live = found.filter((j) => LIVE_STATES.has(j.state)).map((j) => j.id)
      if (live.length > 0) await boss.cancel(MEDIA_QUEUE, live, viaTx(tx))
    },

    wake() {
      for (const id of workerIds) boss.notifyWorker(id)
    },

    async activeJobs(ids) {
      const active = new Set<string>()
      for (const id of ids) {
        const [job] = await boss.findJobs(MEDIA_QUEUE, { id })
        if (job?.state === 'active') active.add(id)
      }
      return active
    },

    async work(count, deps) {
      if (count <= 0) return
      const handle = processVideoJob(deps)
      // NOTIFY wakes a worker for a new job only: a retry whose delay has passed is found by
      // polling, so polling keeps its pace when NOTIFY is on (pg-boss would relax it to 30 s).
      const polling = {
        pollingIntervalSeconds: media.pollSeconds,
        notifyPollingIntervalSeconds: media.pollSeconds,
      }
      for (let i = 0; i < count; i++) {
        workerIds.push(
          await boss.work<ProcessVideoPayload>(MEDIA_QUEUE, polling, async ([job]) => {
            if (!job) return
            const stop = new AbortController()
            if (stopping) stop.abort()
            const ended = Promise.withResolvers<void>()
            inHand.set(job.id, { stop, ended: ended.promise })
            // A run that ended on its own (ready, failed with a reason, or obsolete) is done even
            // when the stop came while it cleaned up: given back, it would run again at the next
            // start and show a finished work as processing.
            let finished = false
            try {
              if (!stopping) {
                const signal = AbortSignal.any([job.signal, stop.signal])
                await timeMediaJob(() => handle({ ...job, signal }))
                finished = true
              }
            } catch (error) {
              if (!stop.signal.aborted) throw error
            } finally {
              inHand.delete(job.id)
              ended.resolve()
            }
            if (stop.signal.aborted && !finished) await giveBack(job.id)
          }),
        )
      }
      workerIds.push(
        await boss.work(
          MEDIA_FAILED_QUEUE,
          { ...polling, includeMetadata: true },
          async ([job]: JobWithMetadata<ProcessVideoPayload>[]) => {
            if (job) await markDeadLettered(deps, job, (id) => originalOf(boss, id))
          },
        ),
      )
    },

    async stop(graceMs = 2000) {
      // No new run starts from here (a job fetched now is given back at once); those in hand may
      // still end on their own, as most short clips do within seconds.
      stopping = true
      if (inHand.size > 0) {
        const runs = Promise.all([...inHand.values()].map((run) => run.ended))
        const finish = Bun.sleep(media.stopFinishSeconds * 1000)
        await Promise.race([runs, finish])
      }
      for (const run of inHand.values()) run.stop.abort()
      await boss.stop({ graceful: true, timeout: graceMs })
    },

    async ping() {
      if (!(await boss.getQueue(MEDIA_QUEUE))) throw new Error(`queue ${MEDIA_QUEUE} is missing`)
    },

    async stats() {
      // Counted live from the job table: getQueues' counts are a snapshot of the last monitor
      // pass, up to MEDIA_SUPERVISE_SECONDS old.
      const { rows } = await boss.getDb().executeSql(
        `select name, state::text as state, count(*)::int as count,
           extract(epoch from now() - min(start_after)
             filter (where state in ('created', 'retry') and start_after <= now()))::float8 as lag
         from pgboss.job where name = any($1::text[]) group by name, state`,
        [[...QUEUES]],
      )
      const stats: QueueStats = { jobs: [], lagSeconds: {} }
      for (const queue of QUEUES) stats.lagSeconds[queue] = 0
      for (const row of rows as {
        name: string
        state: string
        count: number
        lag: number | null
      }[]) {
        stats.jobs.push({ queue: row.name, state: row.state, count: row.count })
        if (row.lag !== null) {
          stats.lagSeconds[row.name] = Math.max(stats.lagSeconds[row.name] ?? 0, row.lag)
        }
      }
      return stats
    },
  }
}

/** The job that was dead-lettered, for its last error (pg-boss keeps it as the job's output). */
async function originalOf(
  boss: PgBoss,
  id: string,
): Promise<JobWithMetadata<ProcessVideoPayload> | undefined> {
  const [job] = await boss.findJobs<ProcessVideoPayload>(MEDIA_QUEUE, { id })
  return job
}

/**
 * pg-boss's pool is a connection of its own: a transaction must not wait on it (src/db/database.ts,
 * docs/decisions/084-a-transaction-never-waits-on-another-connection.md). Every statement pg-boss
 * sends through it goes through this one object, shared by all its parts; a job written in a
 * transaction goes through that transaction instead (`viaTx`), which stays allowed.
 */
function guardPool(boss: PgBoss): void {
  const pool = boss.getDb() as unknown as Record<string, unknown>
  for (const method of ['executeSql', 'beginTransaction', 'withTransaction', 'listen']) {
    const original = pool[method]
    if (typeof original !== 'function') continue
    pool[method] = (...args: unknown[]) => {
      assertOutsideTransaction('the job queue')
      return original.apply(pool, args)
    }
  }
}
