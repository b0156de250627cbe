// Starts `bun src/server.ts` for a start-up that should fail: waits until the process exits or,
// if it comes up after all, until /healthz answers (then stops it and says so).
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')

export type StartOutcome = {
  /** The exit code; 'started' when it came up and answered /healthz; 'timeout' when neither. */
  code: number | 'started' | 'timeout'
  stdout: string
  stderr: string
  ms: number
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

export async function runServer(
  env: Record<string, string>,
  opts: { wrap?: (argv: string[]) => string[]; bun?: string; timeoutMs?: number } = {},
): Promise<StartOutcome> {
  const port = freePort()
  const argv = [opts.bun ?? process.execPath, 'src/server.ts']
  const started = Date.now()
  const proc = Bun.spawn(opts.wrap ? opts.wrap(argv) : argv, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      ADMIN_EMAIL: 'owner@studio.test',
      ADMIN_PASSWORD: 'owner-pass-123',
      WEB_DIST: '/nonexistent',
      ...env,
      PORT: String(port),
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const stdout = new Response(proc.stdout).text()
  const stderr = new Response(proc.stderr).text()
  const deadline = started + (opts.timeoutMs ?? 60_000)
  let code: StartOutcome['code'] | undefined
  while (code === undefined && Date.now() < deadline) {
    if (proc.exitCode !== null) break
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) code = 'started'
    } catch {}
    if (code === undefined) await Promise.race([proc.exited, Bun.sleep(100)])
  }
  if (code === 'started' || proc.exitCode === null) {
    proc.kill(code === 'started' ? 'SIGTERM' : 'SIGKILL')
    await proc.exited
    code ??= 'timeout'
  } else {
    code = proc.exitCode
  }
  return { code, stdout: await stdout, stderr: await stderr, ms: Date.now() - started }
}

/** Lines that look like a stack trace or a source excerpt (Bun prints both for an uncaught error). */
export const traceLines = (text: string): string[] =>
  text.split('\n').filter((l) => /^\s+at\s|^\s*\d+\s\|\s|^\s*\^\s*$/.test(l))
