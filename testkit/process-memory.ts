// A process's memory as Linux reports it (/proc/<pid>/status), for tests and benches that bound
// or print what a server holds, measured apart from the process that measures.

/** Resident memory now (VmRSS) or its peak since the process started (VmHWM), in bytes. */
export async function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text()
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024
}

/** VmRSS of `pid` every `everyMs` until `stop()`, which resolves with the highest sample. */
export function sampleRss(pid: number, everyMs: number) {
  let peak = 0
  let running = true
  const done = (async () => {
    while (running) {
      peak = Math.max(peak, await memoryOf(pid).catch(() => 0))
      await Bun.sleep(everyMs)
    }
  })()
  return {
    async stop() {
      running = false
      await done
      return peak
    },
  }
}
