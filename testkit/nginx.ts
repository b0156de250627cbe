// A real load balancer for multi-server tests: nginx in the foreground, run with the repository's
// own deploy/nginx.conf (what compose.yaml puts in front of its servers), only pointed at the test's
// servers and port, with its files in the test's folder and an access log that names, for every
// request, each server nginx tried. A setting changed in deploy/nginx.conf is what these tests run.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')

/** The nginx binary (Debian's nginx-light, as .ci/run installs it), if this machine has one. */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => Bun.file(path).size > 0)

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

/** One replaced piece of deploy/nginx.conf; a shape it no longer has fails the test loudly. */
function replaceOnce(text: string, pattern: RegExp, by: (match: RegExpExecArray) => string) {
  const match = pattern.exec(text)
  if (!match) throw new Error(`deploy/nginx.conf no longer matches ${pattern}`)
  return text.slice(0, match.index) + by(match) + text.slice(match.index + match[0].length)
}

/** deploy/nginx.conf with `ports` as its servers (their settings kept) and `port` as its listener. */
export function proxyConfig(dir: string, port: number, ports: number[]): string {
  let text = readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8')
  text = replaceOnce(text, /^events \{\}/m, (m) =>
    [`daemon off;`, `pid ${dir}/nginx.pid;`, `error_log ${dir}/error.log;`, m[0]].join('\n'),
  )
  text = replaceOnce(text, /^http \{\n/m, (m) =>
    [
      m[0],
      // Each answer's servers, in the order nginx tried them: "127.0.0.1:A, 127.0.0.1:B" is a
      // request that A failed and B answered.
      // A test may label its requests (an X-Test-Label header) to find them here.
      "  log_format upstream '$request_method $uri $status $http_x_test_label $upstream_addr';",
      `  access_log ${dir}/access.log upstream;`,
      `  client_body_temp_path ${dir}/body;`,
      `  proxy_temp_path ${dir}/proxy;`,
      // nginx's workers (nobody, when the tests run as root) cannot write in the test's private
      // folder: large answers pass through as they come instead of spilling to disk.
      '  proxy_max_temp_file_size 0;',
      '',
    ].join('\n'),
  )
  text = replaceOnce(text, /upstream app \{\n((?:\s*server [^;]+;\n)+)/, (m) => {
    const first = /server \S+(?<params>[^;]*);/.exec(m[1]!)!
    const params = first.groups!.params
    return `upstream app {\n${ports.map((p) => `    server 127.0.0.1:${p}${params};`).join('\n')}\n`
  })
  text = replaceOnce(text, /listen \d+;/, () => `listen 127.0.0.1:${port};`)
  return text
}

export type LoggedRequest = {
  method: string
  uri: string
  status: number
  /** The request's X-Test-Label header, or '-'. */
  label: string
  /** The servers' ports nginx tried for it, in order; the last one answered. */
  tried: number[]
}

export type Balancer = Awaited<ReturnType<typeof startProxy>>

/** nginx on a free port, round robin over `ports` as deploy/nginx.conf has it; files in `dir`. */
export async function startProxy(dir: string, ports: number[]) {
  if (!NGINX) throw new Error('no nginx on this machine')
  const port = freePort()
  writeFileSync(join(dir, 'nginx.conf'), proxyConfig(dir, port, ports))
  const proc = Bun.spawn([NGINX, '-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdout: 'ignore',
    stderr: 'pipe',
  })
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (proc.exitCode !== null) return
    proc.kill('SIGTERM')
    await proc.exited
  }
  let up = false
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await Bun.sleep(100)) {
    if (proc.exitCode !== null)
      throw new Error(`nginx exited: ${await new Response(proc.stderr).text()}`)
    if ((await fetch(`${url}/healthz`).catch(() => undefined))?.ok) {
      up = true
      break
    }
  }
  if (!up) {
    await stop()
    throw new Error(`nginx did not answer on ${url} within 10 s`)
  }
  const read = async (): Promise<LoggedRequest[]> =>
    (await Bun.file(join(dir, 'access.log')).text())
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [method = '', uri = '', status = '', label = '', ...rest] = line.split(' ')
        return {
          method,
          uri,
          status: Number(status),
          label,
          tried: [...rest.join(' ').matchAll(/:(\d+)/g)].map((m) => Number(m[1])),
        }
      })
  /**
   * Every request logged so far, oldest first. nginx writes a request's line once it has sent
   * the answer, so a client can read the log before the last line is there: `until` waits (up
   * to 5 s) for the lines the test is looking for.
   */
  const log = async (
    until: (lines: LoggedRequest[]) => boolean = () => true,
  ): Promise<LoggedRequest[]> => {
    for (const deadline = Date.now() + 5_000; ; await Bun.sleep(10)) {
      const lines = await read()
      if (until(lines) || Date.now() > deadline) return lines
    }
  }
  return {
    url,
    port,
    log,
    /** The server that answered each request of `method`, in order, once `count` are logged. */
    served: async (method: string, count: number) => {
      const of = (lines: LoggedRequest[]) => lines.filter((entry) => entry.method === method)
      return of(await log((lines) => of(lines).length >= count)).map((r) => r.tried.at(-1))
    },
    stop,
  }
}
