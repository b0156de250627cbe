// Starts the real server (`bun src/server.ts`, serving web/dist) as a child process on a free
// port with a throwaway database: for browser tests (build the web app first), and for tests and
// benchmarks that kill it, restart it or read its memory from /proc.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createTestDatabase, sharedTestDatabase } from './database.ts'
import { memoryOf } from './process-memory.ts'

export const ADMIN_EMAIL = 'owner@studio.test'
export const ADMIN_PASSWORD = 'owner-pass-123'
const ROOT = join(import.meta.dir, '..')

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

export type E2EServer = Awaited<ReturnType<typeof startServer>>

// A test that fails before its stop() must not leave a server running after the test run;
// testkit/preload.ts calls this once every test has run.
const running = new Set<ReturnType<typeof Bun.spawn>>()
export function killStrayServers(): void {
  for (const child of running) child.kill('SIGKILL')
}

export type ServerOptions = {
  /** Serve the database of this server too (TEST_DATABASE_URL only); stop this one first. */
  databaseOf?: { databaseUrl: string | undefined }
}

/**
 * Two servers on one database (TEST_DATABASE_URL's): A makes it, B shares it. `stop()` stops B
 * first, since A's stop drops the database.
 */
export async function startServerPair(env: Record<string, string> = {}) {
  const a = await startServer(env)
  const b = await startServer(env, { databaseOf: a }).catch(async (error) => {
    await a.stop()
    throw error
  })
  return {
    a,
    b,
    async stop() {
      await b.stop()
      await a.stop()
    },
  }
}

export async function startServer(env: Record<string, string> = {}, options: ServerOptions = {}) {
  const db = options.databaseOf
    ? sharedTestDatabase(options.databaseOf)
    : await createTestDatabase()
  const port = freePort()
  const url = `http://127.0.0.1:${port}`
  const fullEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: db.dataDir,
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    PUBLIC_URL: url,
    WEB_DIST: join(ROOT, 'web', 'dist'),
    SSR_DIST: join(ROOT, 'web', 'dist-ssr'),
    // A growing stream goes with its run (tests look at the store once a work is ready); the
    // tests of the stay set their own.
    MEDIA_GROWING_KEEP_SECONDS: '0',
    ...env,
  }
  let proc: ReturnType<typeof Bun.spawn> | undefined
  let output = ''

  async function start() {
    output = ''
    proc = Bun.spawn([process.execPath, 'src/server.ts'], {
      cwd: ROOT,
      env: fullEnv,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const child = proc
    running.add(child)
    void child.exited.then(() => running.delete(child))
    for (const stream of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[]) {
      void (async () => {
        for await (const chunk of stream) output += new TextDecoder().decode(chunk)
      })()
    }
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`server exited early:\n${output}`)
      try {
        if ((await fetch(`${url}/healthz`)).ok) return
      } catch {}
      await Bun.sleep(100)
    }
    throw new Error(`server did not start in 60 s:\n${output}`)
  }

  async function stopProcess(signal: 'SIGTERM' | 'SIGKILL') {
    if (!proc || proc.exitCode !== null) return
    proc.kill(signal)
    await proc.exited
  }

  const procStatus = (field: 'VmRSS' | 'VmHWM') => memoryOf(proc!.pid, field)

  await start()
  return {
    url,
    port,
    dataDir: db.dataDir,
    /** Set when the tests run on TEST_DATABASE_URL's server (for processes beside this one). */
    databaseUrl: db.databaseUrl,
    /** The environment it runs with (for processes beside it, as `bun run worker` would be). */
    env: fullEnv as Record<string, string | undefined>,
    get pid() {
      return proc!.pid
    },
    /** Resident memory now, in bytes. */
    rss: () => procStatus('VmRSS'),
    /** Peak resident memory since the process started (VmHWM), in bytes. */
    peakRss: () => procStatus('VmHWM'),
    get output() {
      return output
    },
    /** Stops gracefully (SIGTERM), or abruptly with `kill()`, and starts again on the same data. */
    async restart() {
      await stopProcess('SIGTERM')
      await start()
    },
    kill: () => stopProcess('SIGKILL'),
    /** SIGTERM without waiting: resolves with the exit code once the process has ended. */
    terminate() {
      proc!.kill('SIGTERM')
      return proc!.exited
    },
    start,
    async stop() {
      await stopProcess('SIGTERM')
      await db.drop()
    },
    /** Links of the reset mails written to the outbox, oldest first. */
    outboxLinks(): string[] {
      const dir = join(db.dataDir, 'outbox')
      let names: string[] = []
      try {
        names = readdirSync(dir).sort()
      } catch {}
      return names.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')).link as string)
    },
    /** Signs in through the REST API; returns the login answer's data ({user, token}). */
    async apiLogin(email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
      const res = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
      const body = (await res.json()) as { data: { token: string; user: Record<string, string> } }
      if (!res.ok) throw new Error(`login failed: ${res.status}`)
      return body.data
    },
  }
}
