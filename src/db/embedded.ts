// Serves an in-process PGlite to postgres.js clients over in-memory streams: postgres.js's
// `socket` option takes a function returning a Duplex, so the app's connections are pipes inside
// this process. PGlite has no passwords, and a loopback port let any local user read the admins
// table, write a session row or hold a transaction and freeze the site; so the only listener is
// a Unix socket in a folder only this user may enter (`listen`), for pg-boss's own pool and for
// media worker processes (src/db/embedded-socket.ts says where it lives).
//
// Why not PGLiteSocketServer's queue: it interleaves single protocol messages from different
// connections, and PGlite is one backend session, so connection B's Parse/Bind can land between
// A's Bind and Execute and A reads B's result (seen here: concurrent lucia queries returned the
// wrong rows). This queue keeps a connection's messages together until its Sync (or simple
// Query) and, inside a transaction, until the transaction ends.
import { chmod, unlink } from 'node:fs/promises'
import { createServer, type Socket } from 'node:net'
import { type Duplex, duplexPair } from 'node:stream'
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
  private pumping: Promise<void> = Promise.resolve()
  private closed = false

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void) {
    if (this.closed) return Promise.reject(new Error('Database closed'))
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject })
      this.kick()
    })
  }

  /** Refuses new messages and waits for the one running: PGlite may close after this. */
  async close() {
    this.closed = true
    for (const q of this.queue.splice(0)) q.reject(new Error('Database closed'))
    await this.pumping
  }

  // pump() sets `running` before its first await, so a message enqueued while it runs is taken
  // by the running loop, never left behind.
  private kick() {
    if (!this.running) this.pumping = this.pump()
  }

  private take(): Item | undefined {
    if (this.closed) return undefined
    if (this.owner === null) return this.queue.shift()
    const i = this.queue.findIndex((q) => q.handlerId === this.owner)
    return i === -1 ? undefined : this.queue.splice(i, 1)[0]
  }

  private async pump() {
    if (this.running) return
    this.running = true
    try {
      for (let current = this.take(); current; current = this.take()) {
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
    if (this.owner !== handlerId || this.closed) return
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK')
    this.owner = null
    this.kick()
  }
}

export type EmbeddedConnector = {
  /** A new connection, for postgres.js's `socket` option. */
  connect(): Duplex
  /**
   * Also serves the database on the Unix socket `path` (its folder must be private to this user:
   * anyone who can connect is the database's superuser). Connections share the same queue.
   */
  listen(path: string): Promise<void>
  /** Ends every connection still open and waits for the message running; then PGlite may close. */
  stop(): Promise<void>
}

export function serveEmbedded(db: PGlite): EmbeddedConnector {
  const queue = new GroupQueue(db)
  // The handler's declared queue type is the package's unexported class; it only calls the
  // public methods GroupQueue has.
  const queryQueue = queue as unknown as ConstructorParameters<
    typeof PGLiteSocketHandler
  >[0]['queryQueue']
  const open = new Set<Duplex>()
  const servers: ReturnType<typeof createServer>[] = []
  const sockets = new Set<Socket>()
  const attach = (socket: Socket) => {
    const handler = new PGLiteSocketHandler({ queryQueue, closeOnDetach: true })
    handler.attach(socket).catch(() => socket.destroy())
  }
  return {
    async listen(path) {
      // A socket file left by a process that was killed; the data folder's lock says no other
      // server is using it.
      await unlink(path).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e
      })
      const server = createServer((socket) => {
        sockets.add(socket)
        socket.once('close', () => sockets.delete(socket))
        attach(socket)
      })
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(path, () => resolve())
      })
      servers.push(server)
      await chmod(path, 0o600)
    },
    connect() {
      // allowHalfOpen false: a side that ends closes the other, as a TCP peer would.
      const [client, server] = duplexPair({ allowHalfOpen: false })
      // Bun's pair does not pass a destroy on; a client that drops its connection mid-transaction
      // must still reach the handler, which rolls the transaction back and frees the queue.
      client.once('close', () => server.destroy())
      server.once('close', () => {
        open.delete(server)
        client.destroy()
      })
      open.add(server)
      // What the handler and postgres.js ask of a net.Socket beyond a Duplex.
      Object.assign(server, { setNoDelay() {}, remoteAddress: 'in-process', remotePort: 0 })
      Object.defineProperty(client, 'readyState', {
        get: () => (client.destroyed ? 'closed' : 'open'),
      })
      attach(server as unknown as Socket)
      return client
    },
    async stop() {
      // close() stops accepting and waits for the connections, which are ended right after.
      const closed = servers.splice(0).map((server) => new Promise((r) => server.close(r)))
      for (const s of sockets) s.destroy()
      for (const s of open) s.destroy()
      await Promise.all(closed)
      await queue.close()
    },
  }
}

type SetAttr = (target: unknown, attr: { mode?: number } | undefined) => void
type NodeFsModule = {
  FS: { filesystems: { NODEFS: Record<'node_ops' | 'stream_ops', { setattr: SetAttr }> } }
}

/**
 * Opens PGlite on `dir` with its files for this user only. Emscripten's NODEFS creates each file
 * and then chmods it to the mode PostgreSQL asked for (0666 here: PGlite runs initdb with group
 * access), which the process umask cannot narrow; so its chmod keeps the owner's bits only.
 */
export async function openPGlite(dir: string): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { NodeFS } = await import('@electric-sql/pglite/nodefs')
  const ownerOnly = (mod: unknown) => {
    const nodefs = (mod as NodeFsModule).FS.filesystems.NODEFS
    for (const ops of [nodefs.node_ops, nodefs.stream_ops]) {
      const setattr = ops.setattr
      ops.setattr = (target, attr) =>
        setattr(target, attr?.mode === undefined ? attr : { ...attr, mode: attr.mode & ~0o077 })
    }
  }
  class PrivateNodeFS extends NodeFS {
    override async init(...args: Parameters<InstanceType<typeof NodeFS>['init']>) {
      const { emscriptenOpts } = await super.init(...args)
      const preRun = [...(emscriptenOpts.preRun ?? []), ownerOnly]
      return { emscriptenOpts: { ...emscriptenOpts, preRun } }
    }
  }
  return PGlite.create({ fs: new PrivateNodeFS(dir) })
}
