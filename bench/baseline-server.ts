export {}

// The baseline for bench/api: a bare Bun.serve answering fixed JSON bytes from memory.
const body = await Bun.file(process.argv[2]!).bytes()
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: () => new Response(body, { headers: { 'Content-Type': 'application/json' } }),
})
console.log(server.port)
