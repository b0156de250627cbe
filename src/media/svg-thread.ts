// Runs the SVG sanitiser (svg.ts) on a worker thread with a time limit, so no file can hold the
// server's main thread: jsdom and DOMPurify take whole seconds on a file of tens of thousands of
// nodes. One worker is kept while files come (jsdom takes a second or two to load) and ended
// after a minute without one; a file over the time limit ends it, and the next file starts a new
// one (docs/decisions/056). Callers send one file at a time (the image queue in images.ts).
import { svgLimits } from '../schemas/site.ts'
import type { SvgResult } from './svg.ts'

const IDLE_MS = 60_000
/** Loading jsdom on a busy machine; a worker that cannot load in this time is a server fault. */
const LOAD_MS = 60_000

type Reply = { id: number; result: SvgResult; error?: string }
type Thread = {
  worker: Worker
  ready: Promise<void>
  pending: Map<number, (reply: Reply | Error) => void>
}

let thread: Thread | undefined
let idle: ReturnType<typeof setTimeout> | undefined
let nextId = 0

function start(): Thread {
  const worker = new Worker(new URL('./svg-worker.ts', import.meta.url).href)
  // A worker waiting for files must not keep a stopping server alive.
  ;(worker as Worker & { unref(): void }).unref()
  const pending = new Map<number, (reply: Reply | Error) => void>()
  let loaded = () => {}
  let failed = (_: Error) => {}
  const ready = new Promise<void>((resolve, reject) => {
    loaded = resolve
    failed = reject
  })
  const made: Thread = { worker, ready, pending }
  worker.onmessage = ({ data }: MessageEvent<Reply | { ready: true }>) => {
    if ('ready' in data) return loaded()
    if (data.error) console.warn(`[svg] the sanitiser could not read a file: ${data.error}`)
    pending.get(data.id)?.(data)
    pending.delete(data.id)
  }
  worker.onerror = (event) => end(made, new Error(`SVG worker failed: ${event.message}`))
  worker.addEventListener('close', () => end(made, new Error('SVG worker ended')))
  const timer = setTimeout(() => failed(new Error('SVG worker did not load in time')), LOAD_MS)
  ready.then(
    () => clearTimeout(timer),
    (error: Error) => end(made, error),
  )
  return made
}

function end(ended: Thread, reason: Error) {
  if (thread === ended) thread = undefined
  for (const settle of ended.pending.values()) settle(reason)
  ended.pending.clear()
  ended.worker.terminate()
}

/**
 * Sanitises an SVG on the worker; 'timeout' when it took longer than `limitMs` (the worker is
 * ended, so nothing of it goes on running).
 */
export async function sanitizeOnWorker(
  bytes: Uint8Array,
  limitMs: number = svgLimits.seconds * 1000,
): Promise<SvgResult | 'timeout'> {
  clearTimeout(idle)
  thread ??= start()
  const current = thread
  try {
    await current.ready
    const id = ++nextId
    return await new Promise<SvgResult | 'timeout'>((resolve, reject) => {
      const timer = setTimeout(() => {
        current.pending.delete(id)
        end(current, new Error('SVG worker ended after a timeout'))
        resolve('timeout')
      }, limitMs)
      current.pending.set(id, (reply) => {
        clearTimeout(timer)
        if (reply instanceof Error) reject(reply)
        else resolve(reply.result)
      })
      current.worker.postMessage({ id, bytes })
    })
  } finally {
    if (thread === current && current.pending.size === 0) {
      idle = setTimeout(() => thread === current && end(current, new Error('idle')), IDLE_MS)
      idle.unref()
    }
  }
}
