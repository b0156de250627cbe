// What a process listens on, read from /proc (Linux): the sockets it holds whose inode is a
// listening TCP or Unix socket. And a probe, run as another user, that speaks PostgreSQL's first
// message to each and reports what answered.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { asOtherUser } from './other-user.ts'

export type Listener = { kind: 'tcp'; host: string; port: number } | { kind: 'unix'; path: string }

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
      if (m?.[1]) inodes.add(m[1])
    } catch {} // closed while we looked
  }
  return inodes
}

function ipv4(hex: string): string {
  const n = Number.parseInt(hex, 16)
  return [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255].join('.')
}

/** Listening sockets of `pid`: TCP (v4 and v6) and Unix (named or abstract). */
export function listenersOf(pid: number): Listener[] {
  const inodes = socketInodes(pid)
  const found: Listener[] = []
  for (const table of ['tcp', 'tcp6']) {
    const rows = readFileSync(`/proc/${pid}/net/${table}`, 'utf8').trim().split('\n').slice(1)
    for (const row of rows) {
      const cols = row.trim().split(/\s+/)
      const [addr = '', port = '0'] = (cols[1] ?? '').split(':')
      const LISTEN = '0A'
      if (cols[3] !== LISTEN || !inodes.has(cols[9] ?? '')) continue
      const host = table === 'tcp' ? ipv4(addr) : addr === '0'.repeat(32) ? '::' : '::1'
      found.push({ kind: 'tcp', host, port: Number.parseInt(port, 16) })
    }
  }
  const unixRows = readFileSync(`/proc/${pid}/net/unix`, 'utf8').trim().split('\n').slice(1)
  for (const row of unixRows) {
    const cols = row.trim().split(/\s+/)
    const ACCEPTING = 0x10000 // __SO_ACCEPTCON: a listening socket
    if (!(Number.parseInt(cols[3] ?? '0', 16) & ACCEPTING) || !inodes.has(cols[6] ?? '')) continue
    found.push({ kind: 'unix', path: cols[7] ?? '(unnamed)' })
  }
  return found
}

// Python from the system (not a user's pyenv under /root), which another user can run.
const PROBE = `
import json, socket, struct, sys
body = struct.pack('!i', 196608) + b'user\\0postgres\\0database\\0postgres\\0\\0'
startup = struct.pack('!i', len(body) + 4) + body
out = []
for t in json.loads(sys.argv[1]):
    try:
        if t['kind'] == 'tcp':
            s = socket.create_connection((t['host'], t['port']), timeout=3)
        else:
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(3)
            s.connect('\\0' + t['path'][1:] if t['path'].startswith('@') else t['path'])
        s.sendall(startup)
        b = s.recv(1)
        out.append('closed' if not b else 'byte:' + b.decode('latin-1'))
        s.close()
    except ConnectionRefusedError:
        out.append('refused')
    except PermissionError:
        out.append('denied')
    except socket.timeout:
        out.append('timeout')
    except OSError as e:
        out.append('error:' + type(e).__name__)
print(json.dumps(out))
`

export const PYTHON = '/usr/bin/python3'

/**
 * Connects to each listener as another OS user and sends a PostgreSQL startup message. Per
 * listener: 'byte:R' (PostgreSQL answered: authentication request), 'refused', 'denied', etc.
 */
export async function probeAsOtherUser(targets: Listener[]): Promise<string[]> {
  const proc = Bun.spawn(asOtherUser([PYTHON, '-c', PROBE, JSON.stringify(targets)]), {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ])
  if (code !== 0) throw new Error(`probe failed (${code}): ${err}`)
  return JSON.parse(out) as string[]
}
