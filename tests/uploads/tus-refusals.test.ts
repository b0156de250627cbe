// Every refusal reaches the client: a PATCH refused before its body is read (409, 410, 412, 413,
// 415, 401, 404, 429) still gets its status to Node's http client and to superagent, under node
// and under Bun, and to curl, against the real server over TCP. Before, the server closed the
// connection with the body unread, and Node's client saw EPIPE instead in most tries.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { type E2EServer, startServer } from '../../testkit/server.ts'
import { testSkipIf } from '../../testkit/skip.ts'
import { patchAndStall } from '../../testkit/tus.ts'

const SCRIPT = join(import.meta.dir, '..', '..', 'testkit', 'fixtures', 'refused-patches.mjs')
const NODE = Bun.which('node')
const CURL = Bun.which('curl')
const MiB = 1024 * 1024

let server: E2EServer
let token: string
/** A second session of the same admin, kept busy with 4 uploads so its next PATCH gets 429. */
let busyToken: string

type Refusal = { path: string; headers: Record<string, string>; status: number }
let refusals: Refusal[]

const meta = (kind: string) => `kind ${btoa(kind)}`

async function create(length: number, t = token) {
  const res = await fetch(`${server.url}/uploads/`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${t}`,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(length),
      'Upload-Metadata': meta('video'),
    },
  })
  expect(res.status).toBe(201)
  return res.headers.get('location')!
}

const offsetOf = async (path: string) =>
  (
    await fetch(`${server.url}${path}`, {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' },
    })
  ).headers.get('upload-offset')

beforeAll(async () => {
  server = await startServer()
  token = (await server.apiLogin()).token
  busyToken = (await server.apiLogin()).token
  const open = await create(256 * MiB)
  const small = await create(MiB / 4)
  const expired = await create(256 * MiB)
  const record = join(server.dataDir, 'uploads', `${expired.split('/').pop()}.json`)
  const info = await Bun.file(record).json()
  info.creation_date = new Date(Date.now() - 25 * 3600 * 1000).toISOString()
  await Bun.write(record, JSON.stringify(info))
  const good = {
    Authorization: `Bearer ${token}`,
    'Tus-Resumable': '1.0.0',
    'Upload-Offset': '0',
    'Content-Type': 'application/offset+octet-stream',
  }
  refusals = [
    { path: open, headers: { ...good, 'Upload-Offset': '5' }, status: 409 },
    { path: small, headers: good, status: 413 },
    { path: open, headers: { ...good, 'Content-Type': 'application/octet-stream' }, status: 415 },
    { path: open, headers: { ...good, 'Tus-Resumable': '0.2.2' }, status: 412 },
    { path: open, headers: { ...good, Authorization: 'Bearer not-a-session' }, status: 401 },
    { path: `/uploads/${'0'.repeat(32)}`, headers: good, status: 404 },
    { path: `${open}/deeper`, headers: good, status: 404 },
    { path: expired, headers: good, status: 410 },
    { path: open, headers: { ...good, Authorization: `Bearer ${busyToken}` }, status: 429 },
  ]
}, 120_000)
afterAll(() => server?.stop(), 60_000)

/** Holds the busy session's 4 upload slots with PATCHes that stall after their first bytes. */
async function holdSlots() {
  const bytes = new Uint8Array(4 * MiB)
  const stalled: { drop: () => Promise<void> }[] = []
  for (let i = 0; i < 4; i++) {
    const path = await create(bytes.length, busyToken)
    stalled.push(await patchAndStall(server.url, path, busyToken, 0, bytes, 64 * 1024))
  }
  await Bun.sleep(300)
  return () => Promise.all(stalled.map((s) => s.drop()))
}

async function run(runtime: string, client: 'http' | 'superagent', count: number, bytes: number) {
  const requests = Array.from({ length: count }, (_, i) => refusals[i % refusals.length]!)
  const config = JSON.stringify({ base: server.url, client, bodyBytes: bytes, requests })
  const proc = Bun.spawn([runtime, SCRIPT, config], { stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  if (code !== 0) throw new Error(`${runtime} ${client} exited ${code}: ${err}`)
  const seen = JSON.parse(out) as (number | string)[]
  return { seen, expected: requests.map((r) => r.status) }
}

describe('refused PATCHes of 8 MiB: 20 of 20 statuses seen', () => {
  for (const [name, runtime] of [
    ['node', NODE],
    ['bun', process.execPath],
  ] as const) {
    for (const client of ['http', 'superagent'] as const) {
      testSkipIf(!runtime && `needs ${name} on PATH`)(
        `${client === 'http' ? "Node's http" : 'superagent'} under ${name}`,
        async () => {
          const release = await holdSlots()
          try {
            const { seen, expected } = await run(runtime!, client, 20, 8 * MiB)
            expect(seen).toEqual(expected)
          } finally {
            await release()
          }
        },
        120_000,
      )
    }
  }
})

testSkipIf(!NODE && 'needs node on PATH')(
  'bodies of 1 MiB and of 60 MiB: their refusals are seen as well',
  async () => {
    const release = await holdSlots()
    try {
      for (const bytes of [MiB, 60 * MiB]) {
        for (const client of ['http', 'superagent'] as const) {
          const { seen, expected } = await run(NODE!, client, refusals.length, bytes)
          expect([bytes, client, seen]).toEqual([bytes, client, expected])
        }
      }
    } finally {
      await release()
    }
  },
  120_000,
)

testSkipIf(!CURL && 'needs curl on PATH')(
  'curl sees every refusal',
  async () => {
    const body = join(server.dataDir, 'refused-body')
    await Bun.write(body, new Uint8Array(8 * MiB))
    const release = await holdSlots()
    try {
      for (const r of refusals) {
        const headers = Object.entries(r.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`])
        const proc = Bun.spawn(
          [
            CURL!,
            '-s',
            '-o',
            '/dev/null',
            '-w',
            '%{http_code}',
            '-X',
            'PATCH',
            ...headers,
            '--data-binary',
            `@${body}`,
            `${server.url}${r.path}`,
          ],
          { stdout: 'pipe' },
        )
        const status = Number(await new Response(proc.stdout).text())
        expect([r.path, status]).toEqual([r.path, r.status])
      }
    } finally {
      await release()
    }
  },
  120_000,
)

test('the refused PATCHes changed nothing, and the server still takes uploads', async () => {
  for (const r of refusals.slice(0, 3)) expect(await offsetOf(r.path)).toBe('0')
  const path = await create(MiB)
  const done = await fetch(`${server.url}${path}`, {
    method: 'PATCH',
    headers: {
      Authorization: `Bearer ${token}`,
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(MiB),
  })
  // A MiB of zeros is no video: the finish check refuses it, having received every byte.
  expect(done.status).toBe(415)
})
