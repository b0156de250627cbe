export {}

// The baseline for bench/upload: a bare Bun.serve that writes one PUT body to a file on disk.
const target = process.argv[2]!
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  maxRequestBodySize: 3 * 1024 ** 3,
  idleTimeout: 120,
  async fetch(req) {
    // Bun's own body-to-file path: the fastest plain way there is to put a request on disk.
    await Bun.write(target, req)
    return new Response(null, { status: 204 })
  },
})
console.log(server.port)
