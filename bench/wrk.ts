// Runs wrk (Debian's package) and reads its figures.
export type WrkResult = {
  rps: number
  p50: number
  p99: number
  errors: number
  requests: number
  /** Bytes read per second, headers included ("Transfer/sec"). */
  bytesPerSec: number
}

function bytes(text: string | undefined): number {
  const m = text?.match(/([\d.]+)(B|KB|MB|GB)/)
  if (!m) return Number.NaN
  const scale = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[m[2] as 'B' | 'KB' | 'MB' | 'GB']
  return Number(m[1]) * scale
}

function ms(text: string | undefined): number {
  if (!text) return Number.NaN
  const m = text.match(/([\d.]+)(us|ms|s)/)
  if (!m) return Number.NaN
  const v = Number(m[1])
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v
}

export async function wrk(
  url: string,
  opts: {
    connections: number
    seconds: number
    threads?: number
    headers?: Record<string, string>
  },
): Promise<WrkResult> {
  const args = [
    'wrk',
    `-t${opts.threads ?? 2}`,
    `-c${opts.connections}`,
    `-d${opts.seconds}s`,
    '--latency',
  ]
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`)
  args.push(url)
  const proc = Bun.spawn(args, { stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(proc.stdout).text()
  if ((await proc.exited) !== 0)
    throw new Error(`wrk failed: ${await new Response(proc.stderr).text()}`)
  const socket = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/)
  const non2xx = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0)
  return {
    rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0),
    p50: ms(out.match(/\n\s+50%\s+(\S+)/)?.[1]),
    p99: ms(out.match(/\n\s+99%\s+(\S+)/)?.[1]),
    requests: Number(out.match(/(\d+) requests in/)?.[1] ?? 0),
    bytesPerSec: bytes(out.match(/Transfer\/sec:\s+(\S+)/)?.[1]),
    errors: non2xx + (socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
  }
}

export function ensureWrk(): void {
  if (Bun.which('wrk')) return
  throw new Error('wrk is not installed: apt-get install -y wrk')
}
