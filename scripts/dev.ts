// `bun run dev`: the Bun server with --watch (API, uploads, media) and Vite's dev server with hot
// reload in front of it, proxying /trpc, /api, /uploads, /media to Bun. Open http://localhost:3000.
const WEB_PORT = Number(process.env.PORT ?? 3000)
const API_PORT = WEB_PORT + 1
const root = new URL('..', import.meta.url).pathname

const env = {
  ...process.env,
  PORT: String(API_PORT),
  API_PORT: String(API_PORT),
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${WEB_PORT}`,
}
const children = [
  Bun.spawn([process.execPath, '--watch', 'src/server.ts'], {
    cwd: root,
    env,
    stdout: 'inherit',
    stderr: 'inherit',
  }),
  Bun.spawn(
    ['bunx', 'vite', '--config', 'web/vite.config.ts', '--port', String(WEB_PORT), '--strictPort'],
    { cwd: root, env, stdout: 'inherit', stderr: 'inherit' },
  ),
]
const stop = () => {
  for (const c of children) c.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
await Promise.race(children.map((c) => c.exited))
stop()
