// Graceful shutdown: SIGTERM lets a request in flight finish, then the process exits 0.
import { expect, test } from 'bun:test'
import { fixtures } from '../../testkit/media.ts'
import { startServer } from '../../testkit/server.ts'
import { tusRaw } from '../../testkit/tus.ts'

test('SIGTERM finishes the upload in flight, closes the database and exits 0', async () => {
  const server = await startServer()
  try {
    const token = (await server.apiLogin()).token
    const source = new Uint8Array(2 * 1024 * 1024)
    source.set(await Bun.file((await fixtures()).mp4).bytes())
    const created = await tusRaw(server.url, token).create(source.length, { kind: 'video' })
    const path = created.headers.get('location')!
    // The body trickles in over ~1.5 s, so SIGTERM lands while the PATCH is in flight.
    let at = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (at >= source.length) return controller.close()
        await Bun.sleep(100)
        controller.enqueue(source.slice(at, at + 128 * 1024))
        at += 128 * 1024
      },
    })
    const patch = tusRaw(server.url, token).patch(path, 0, body)
    await Bun.sleep(400)
    const exit = server.terminate()
    const res = await patch
    expect(res.status).toBe(204)
    expect(await exit).toBe(0)
    expect(server.output).toContain('SIGTERM: finishing in-flight requests')
  } finally {
    await server.stop()
  }
}, 60_000)
