// Serves an in-process PGlite to postgres.js clients over a loopback socket.
//
// Why not PGLiteSocketServer as is: its queue interleaves single protocol messages from different
// connections, and PGlite is one backend session, so connection B's Parse/Bind can land between
// A's Bind and Execute and A reads B's result (seen here: concurrent lucia queries returned the
// wrong rows). This queue keeps a connection's messages together until its Sync (or simple
// Query) and, inside a transaction, until the transaction ends.
import { createServer, type Server, type Socket } from 'node:net'
import type { PGlite } from '@electric-sql/pglite'
// @electric-sql/pglite-socket is pinned exactly (0.2.17, package.json): the handler is given our
// queue in place of its unexported QueryQueueManager, whose method names it calls. The queue can
// go when pglite-socket keeps each connection's messages together until ReadyForQuery:
// electric-sql/pglite#1046 (the interleaving, and a queue that deadlocks after one throw), with
// the proposed fix electric-sql/pglite#977, and #985 (deadlock when a connection leaves inside a
// transaction), all open as of 2026-11.
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket'

type Item = {
  handlerId: number
  message: Uint8Array
  onData: (data: Uint8Array) => void
  resolve: (bytes: number) => void
  reject: (error: unknown) => void
}

const SYNC = 0x53 // 'S'
const QUERY = 0x51 // 'Q'
const TERMINATE = 0x58 // 'X'

class GroupQueue {
  private queue: Item[] = []
  private owner: number | null = null
  private running = false

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void) {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject })
      void this.pump()
    })
  }

  private next(): Item | undefined {
    if (this.owner === null) return this.queue.shift()
    const i = this.queue.findIndex((q) => q.handlerId === this.owner)
    return i === -1 ? undefined : this.queue.splice(i, 1)[0]
  }

  private async pump() {
    if (this.running) return
    this.running = true
    try {
      for (let item = this.next(); item; item = this.next()) {
        const current = item
        let bytes = 0
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (d: Uint8Array) => {
                bytes += d.length
                current.onData(d)
              },
            }),
          )
          // A startup message has no type byte (its first byte is the length's high byte, 0).
          const type = current.message[0]
          const groupEnds = type === SYNC || type === QUERY || type === TERMINATE || type === 0
          this.owner = groupEnds && !this.db.isInTransaction() ? null : current.handlerId
          current.resolve(bytes)
        } catch (error) {
          this.owner = this.db.isInTransaction() ? current.handlerId : null
          current.reject(error)
        }
      }
    } finally {
      this.running = false
    }
  }

  getQueueLength() {
    return this.queue.length
  }

  clearQueueForHandler(handlerId: number) {
    this.queue = this.queue.filter((q) => {
      if (q.handlerId !== handlerId) return true
      q.reject(new Error('Connection closed'))
      return false
    })
  }

  async clearTransactionIfNeeded(handlerId: number) {
    if (this.owner !== handlerId) return
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK')
    this.owner = null
    void this.pump()
  }
}

export type EmbeddedServer = { host: string; port: number; stop(): Promise<void> }

export async function serveEmbedded(db: PGlite): Promise<EmbeddedServer> {
  const queue = new GroupQueue(db)
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    const handler = new PGLiteSocketHandler({
      // The handler only calls the public methods above; its declared type is the package's
      // unexported queue class.
      queryQueue: queue as unknown as ConstructorParameters<
        typeof PGLiteSocketHandler
      >[0]['queryQueue'],
      closeOnDetach: true,
    })
    handler.attach(socket).catch(() => socket.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('embedded database: no port')
  return {
    host: '127.0.0.1',
    port: address.port,
    async stop() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
