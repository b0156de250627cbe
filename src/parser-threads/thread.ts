// Work on untrusted input that could hold the server's main thread (a parser over a crafted file)
// runs on a worker thread with a time limit: every other request goes on meanwhile. One worker per
// kind is kept while work comes (loading a parser can take seconds) and ended after a minute
// without any; work over its time limit ends it, and the next piece starts a new one, so nothing of
// a runaway parse goes on (docs/decisions/056-svg-logos-within-a-budget-sanitised-on-a-worker.md).
// The worker's side is answer.ts.

/** What a worker sends back for one piece of work; `error` goes to the server's log only. */
export type Reply<Out> = { id: number; result: Out; error?: string }

export type ThreadOptions = {
  /** The worker's module (a file calling `answerOnThread`). */
  url: URL
  /** Names the worker in the log and in errors. */
  name: string
  /** A worker with nothing to do is ended after this long. */
  idleMs?: number
  /** Loading on a busy machine; a worker that cannot load in this time is a server fault. */
  loadMs?: number
}

type Thread<Out> = {
  worker: Worker
  ready: Promise<void>
  pending: Map<number, (reply: Reply<Out> | Error) => void>
}

export type OffThread<In, Out> = {
  /** The worker's answer, or 'timeout' when it took longer than `limitMs` (the worker is ended). */
  run(input: In, limitMs: number): Promise<Out | 'timeout'>
}

export function offThread<In, Out>(options: ThreadOptions): OffThread<In, Out> {
  const { url, name, idleMs = 60_000, loadMs = 60_000 } = options
  let thread: Thread<Out> | undefined
  let idle: ReturnType<typeof setTimeout> | undefined
  let nextId = 0

  function end(ended: Thread<Out>, reason: Error) {
    if (thread === ended) thread = undefined
    for (const settle of ended.pending.values()) settle(reason)
    ended.pending.clear()
    ended.worker.terminate()
  }

  function start(): Thread<Out> {
    const worker = new Worker(url.href)
    // A worker waiting for work must not keep a stopping server alive.
    ;(worker as Worker & { unref(): void }).unref()
    const pending = new Map<number, (reply: Reply<Out> | Error) => void>()
    let loaded = () => {}
    let failed = (_: Error) => {}
    const ready = new Promise<void>((resolve, reject) => {
      loaded = resolve
      failed = reject
    })
    const made: Thread<Out> = { worker, ready, pending }
    worker.onmessage = ({ data }: MessageEvent<Reply<Out> | { ready: true }>) => {
      if ('ready' in data) return loaded()
      if (data.error) console.warn(`[${name}] the worker could not read a file: ${data.error}`)
      pending.get(data.id)?.(data)
      pending.delete(data.id)
    }
    worker.onerror = (event) => end(made, new Error(`${name} worker failed: ${event.message}`))
    worker.addEventListener('close', () => end(made, new Error(`${name} worker ended`)))
    const timer = setTimeout(() => failed(new Error(`${name} worker did not load in time`)), loadMs)
    ready.then(
      () => clearTimeout(timer),
      (error: Error) => end(made, error),
    )
    return made
  }

  return {
    async run(input, limitMs) {
      clearTimeout(idle)
      thread ??= start()
      const current = thread
      try {
        await current.ready
        const id = ++nextId
        return await new Promise<Out | 'timeout'>((resolve, reject) => {
          const timer = setTimeout(() => {
            current.pending.delete(id)
            end(current, new Error(`${name} worker ended after a timeout`))
            resolve('timeout')
          }, limitMs)
          current.pending.set(id, (reply) => {
            clearTimeout(timer)
            if (reply instanceof Error) reject(reply)
            else resolve(reply.result)
          })
          current.worker.postMessage({ id, input })
        })
      } finally {
        if (thread === current && current.pending.size === 0) {
          idle = setTimeout(() => thread === current && end(current, new Error('idle')), idleMs)
          idle.unref()
        }
      }
    },
  }
}
