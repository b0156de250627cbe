// /metrics: Prometheus text (prom-client), behind METRICS_TOKEN
// (docs/decisions/062-limits-in-the-database-health-and-metrics.md). Two registries: what modules
// deep in the process count without knowing the app (bytes uploaded, media job durations:
// ./process-metrics.ts) is process-wide; what the app serves (request latency) and what is read
// from the shared queue at scrape time (jobs by state, queue lag) belongs to one app. Every label
// takes its value from a small fixed set, so the series stay few: a request's route is a pattern or
// a path family, never its raw path.
import { createHash, timingSafeEqual } from 'node:crypto'
import { Gauge, Histogram, Registry } from 'prom-client'
import { logUnexpected } from '../db/errors.ts'
import { AppError } from '../errors.ts'
import { fail } from '../http/respond.ts'
import { JOB_STATES, type MediaQueue, QUEUES } from '../processing/queue.ts'
import { processRegistry } from '../telemetry/process-metrics.ts'

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** The route label of a request: a pattern or a path family, from the app's route table. */
export type RouteOf = (method: string, pathname: string) => string

export type Metrics = {
  /** Records one answered request, `started` being its `performance.now()` on arrival. */
  observe(request: Request, pathname: string, status: number, started: number): void
  /** Answers GET /metrics: 404 when no token is configured, 401 without the right one. */
  answer(request: Request): Promise<Response>
}

export function createMetrics(deps: {
  token: string | undefined
  queue: MediaQueue
  routeOf: RouteOf
}): Metrics {
  const { routeOf } = deps
  const registry = new Registry()
  const requestDuration = new Histogram({
    name: 'studio_http_request_duration_seconds',
    help: 'Time until the answer is ready to send (a streamed body is not included), by route.',
    labelNames: ['method', 'route', 'status'] as const,
    // Up to tus chunks and multipart bodies that take minutes to arrive.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
    registers: [registry],
  })
  const jobs = new Gauge({
    name: 'studio_media_jobs',
    help: 'Media jobs stored in the queue now, by queue and state.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
  })
  const lag = new Gauge({
    name: 'studio_media_queue_lag_seconds',
    help: 'How long the oldest job ready to run has waited for a worker (0: none waits).',
    labelNames: ['queue'] as const,
    registers: [registry],
  })
  const tokenDigest = deps.token === undefined ? undefined : digest(deps.token)

  /** Jobs and lag as the queue holds them now; left out of this answer when it cannot say. */
  async function readQueue(): Promise<void> {
    jobs.reset()
    lag.reset()
    const stats = await deps.queue.stats().catch((e) => {
      logUnexpected('metrics: queue', e)
    })
    if (!stats) return
    for (const queue of QUEUES) {
      for (const state of JOB_STATES) jobs.set({ queue, state }, 0)
      lag.set({ queue }, stats.lagSeconds[queue] ?? 0)
    }
    for (const { queue, state, count } of stats.jobs) jobs.set({ queue, state }, count)
  }

  return {
    observe(request, pathname, status, started) {
      const method = METHODS.has(request.method) ? request.method : 'other'
      requestDuration.observe(
        { method, route: routeOf(request.method, pathname), status: String(status) },
        (performance.now() - started) / 1000,
      )
    },

    async answer(request) {
      if (!tokenDigest) throw new AppError('NOT_FOUND', 'Not found')
      const header = request.headers.get('authorization') ?? ''
      const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? ''
      // Compared as digests: equal lengths whatever was sent, and no early exit on a mismatch.
      if (!timingSafeEqual(digest(given), tokenDigest)) {
        const refused = fail(new AppError('UNAUTHORIZED', 'A valid metrics token is required.'))
        refused.headers.set('WWW-Authenticate', 'Bearer')
        refused.headers.set('Cache-Control', 'no-store')
        return refused
      }
      await readQueue()
      const text = await Registry.merge([processRegistry, registry]).metrics()
      return new Response(text, {
        headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
      })
    },
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest()
