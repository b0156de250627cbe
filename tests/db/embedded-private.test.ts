// ASVS 5.0 13.2.1 / 13.2.2: the database answers the app only. The embedded PGlite takes no
// password, so no other process may reach it at all: the real server is started and every socket
// it listens on is probed as another OS user with PostgreSQL's first message.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import { PGlite } from '@electric-sql/pglite'
import postgres from 'postgres'
import { serveEmbedded } from '../../src/db/embedded.ts'
import { embeddedCopy } from '../../testkit/database.ts'
import { type Listener, listenersOf, probeAsOtherUser } from '../../testkit/listeners.ts'
import { describeAsOtherUser } from '../../testkit/other-user.ts'
import { startServer } from '../../testkit/server.ts'

describeAsOtherUser('database connections (needs root and runuser)', () => {
  let server: Awaited<ReturnType<typeof startServer>>
  beforeAll(async () => {
    server = await startServer()
  }, 60_000)
  afterAll(async () => {
    await server.stop()
  })

  test('13.2.1: the probe sees a PostgreSQL listener when there is one', async () => {
    // The control: without it, "nobody got an answer" could mean the probe never ran.
    const fake = Bun.listen({
      hostname: '127.0.0.1',
      port: 0,
      socket: {
        data(socket) {
          socket.write(new Uint8Array([0x52, 0, 0, 0, 8, 0, 0, 0, 0])) // AuthenticationOk
          socket.end()
        },
      },
    })
    try {
      const results = await probeAsOtherUser([{ kind: 'tcp', host: '127.0.0.1', port: fake.port }])
      expect(results).toEqual(['byte:R'])
    } finally {
      fake.stop(true)
    }
  })

  test('13.2.1: the server listens on its HTTP port and its private socket only, and no other user reaches a database', async () => {
    const listeners = listenersOf(server.pid)
    const http: Listener = { kind: 'tcp', host: '127.0.0.1', port: server.port }
    // The embedded database's socket, for pg-boss's pool and `bun run worker` (same user only).
    const socket: Listener = { kind: 'unix', path: join(server.dataDir, 'run', '.s.PGSQL.5432') }
    expect(listeners).toContainEqual(http)
    const results = await probeAsOtherUser(listeners)
    const answered = listeners.filter((_, i) => results[i] === 'byte:R')
    expect(answered).toEqual([])
    const outcomes = listeners.map((l, i) => ({ ...l, result: results[i] }))
    if (server.databaseUrl) {
      // On TEST_DATABASE_URL's server nothing of the database is served by the app.
      expect(listeners).toEqual([http])
      return
    }
    expect(outcomes.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { ...http, result: expect.any(String) },
      // Its folder is 0700: another user cannot even reach the socket file.
      { ...socket, result: 'denied' },
    ])
    // The control: the server's own user does reach the database there.
    const owner = postgres({ path: socket.path, user: 'postgres', database: 'postgres', max: 1 })
    try {
      expect([...(await owner`select 1 as one`)]).toEqual([{ one: 1 }])
    } finally {
      await owner.end()
    }
  })
})

describe('in-process connections', () => {
  test('a connection destroyed inside a transaction rolls it back and frees the database', async () => {
    const copy = await embeddedCopy()
    const pg = await PGlite.create(join(copy.dataDir, 'db'))
    const connector = serveEmbedded(pg)
    let held: Duplex | undefined
    const client = (keep: boolean) =>
      postgres({
        socket: () => {
          const s = connector.connect()
          if (keep) held = s
          return s
        },
        user: 'postgres',
        database: 'postgres',
        max: 1,
        onnotice: () => {},
      } as postgres.Options<Record<string, never>>)
    const holder = client(true)
    const other = client(false)
    try {
      await other`create table drop_probe (v int)`
      let inside!: () => void
      const entered = new Promise<void>((r) => {
        inside = r
      })
      const tx = holder
        .begin(async (t) => {
          await t`insert into drop_probe values (1)`
          inside()
          await new Promise(() => {}) // holds the transaction until its connection goes
        })
        .catch((e: Error) => e)
      await entered
      held?.destroy() // no Terminate message: as a crash of the holder would leave it
      expect(await tx).toBeInstanceOf(Error)
      const answer = other`select count(*)::int as n from drop_probe`.then((r) => r[0]?.n)
      expect(await Promise.race([answer, Bun.sleep(3000).then(() => 'hung')])).toBe(0)
    } finally {
      await Promise.all([holder.end({ timeout: 1 }), other.end({ timeout: 1 })])
      await connector.stop()
      await pg.close()
      copy.drop()
    }
  }, 30_000)
})
