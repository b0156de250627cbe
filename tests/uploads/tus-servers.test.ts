// tus on two real servers sharing one PostgreSQL database: upload locks are taken in the
// database (src/uploads/pg-locker.ts), so a client that resumes after its PATCH stalled gets the
// upload back within seconds, as with one server, and a request on the other server makes the
// stalled PATCH let go too. Without a bucket each server keeps its uploads' bytes in its own
// DATA_DIR, so a PATCH continues on the server that took the upload (tus-bucket-servers.test.ts
// has the same servers on a bucket, where any of them takes it).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import postgres from 'postgres'
import { fixtures } from '../../testkit/media.ts'
import { type E2EServer, startServerPair } from '../../testkit/server.ts'
import { describeSkipIf } from '../../testkit/skip.ts'
import { patchAndStall, tusRaw } from '../../testkit/tus.ts'

const noServer =
  !process.env.TEST_DATABASE_URL &&
  'needs TEST_DATABASE_URL: only a database server is shared by several servers'

let a: E2EServer
let b: E2EServer
let pair: Awaited<ReturnType<typeof startServerPair>>
let token: string
let mp4: Buffer
let sql: postgres.Sql

/** Advisory locks held in the shared database: the uploads locked right now. */
const advisoryLocks = async () => {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
    where l.locktype = 'advisory' and l.granted and d.datname = current_database()`
  return row?.n ?? 0
}

describeSkipIf(noServer)('tus on two servers with one database', () => {
  beforeAll(async () => {
    pair = await startServerPair({ MEDIA_WORKERS: '0' })
    ;({ a, b } = pair)
    sql = postgres(a.databaseUrl!, { max: 1, onnotice: () => {} })
    // Sessions live in the database: one sign-in serves both servers.
    token = (await a.apiLogin()).token
    const clip = await Bun.file((await fixtures()).mp4).bytes()
    mp4 = Buffer.concat([clip, crypto.getRandomValues(new Uint8Array(3 * 1024 * 1024))])
  }, 180_000)
  afterAll(async () => {
    await sql?.end()
    await pair?.stop()
  }, 60_000)

  test('a client that went silent mid-PATCH gets its upload back on the same server within seconds', async () => {
    const client = tusRaw(a.url, token)
    const path = (await client.create(mp4.length, { kind: 'video' })).headers.get('location')!
    const before = await advisoryLocks()
    const stalled = await patchAndStall(a.url, path, token, 0, mp4, 1_000_000)
    await Bun.sleep(300)
    // The stalled PATCH holds the upload's lock in the database, not in the server's memory.
    expect(await advisoryLocks()).toBe(before + 1)
    const started = performance.now()
    const head = await client.head(path)
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(head.status).toBe(200)
    const offset = Number(head.headers.get('upload-offset'))
    expect(offset).toBeGreaterThan(0)
    expect(offset).toBeLessThanOrEqual(1_000_000)
    await stalled.closed
    const rest = await client.patch(path, offset, new Uint8Array(mp4.subarray(offset)))
    expect(rest.status).toBe(204)
    expect(await advisoryLocks()).toBe(before)
  }, 30_000)

  test('a request for the upload on the other server makes the stalled PATCH let go within seconds', async () => {
    const onA = tusRaw(a.url, token)
    const path = (await onA.create(mp4.length, { kind: 'video' })).headers.get('location')!
    const stalled = await patchAndStall(a.url, path, token, 0, mp4, 1_000_000)
    await Bun.sleep(300)
    let closedAt = 0
    void stalled.closed.then(() => {
      closedAt = performance.now()
    })
    const started = performance.now()
    // Server B waits for the lock, which A gives up after its lock drain and a quiet second.
    const onB = await tusRaw(b.url, token).head(path)
    const waited = performance.now() - started
    expect(waited).toBeLessThan(10_000)
    // The bytes are on A's disk: B answers as for an upload it does not have (without a
    // bucket), but only once A let go.
    expect([200, 404]).toContain(onB.status)
    await stalled.closed
    expect(closedAt - started).toBeLessThan(10_000)
    const head = await onA.head(path)
    expect(head.status).toBe(200)
    const offset = Number(head.headers.get('upload-offset'))
    expect(offset).toBeGreaterThan(0)
    const rest = await onA.patch(path, offset, new Uint8Array(mp4.subarray(offset)))
    expect(rest.status).toBe(204)
  }, 30_000)
})
