// bench/fresh: the README's quick start on a clean clone, with no Bun on PATH beforehand (npx
// fetches it from the npm registry). Line 1 must bring the app up on its port; line 2 must pass.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dir, '..')
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const block = readme.match(/## Quick start[^\n]*\n+```sh\n([\s\S]*?)```/)?.[1]
const lines = block?.trim().split('\n') ?? []
if (lines.length !== 2)
  throw new Error(`README quick start must have exactly two lines, found ${lines.length}`)
const [startLine, testLine] = lines as [string, string]

const dir = mkdtempSync(join(tmpdir(), 'studio-fresh-'))
const clone = Bun.spawnSync(['git', 'clone', '--quiet', root, dir])
if (clone.exitCode !== 0) throw new Error('git clone failed')

// PATH with no bun on it: a folder that holds one (e.g. /usr/bin after a global npm install) is
// replaced by a shadow folder that links everything else in it.
const path = (process.env.PATH ?? '')
  .split(':')
  .filter(Boolean)
  .map((p) => {
    if (!existsSync(join(p, 'bun')) && !existsSync(join(p, 'bunx'))) return p
    const shadow = mkdtempSync(join(tmpdir(), 'studio-fresh-bin-'))
    for (const name of readdirSync(p)) {
      if (name !== 'bun' && name !== 'bunx') symlinkSync(join(p, name), join(shadow, name))
    }
    return shadow
  })
  .join(':')
const port = 3900 + Math.floor(Math.random() * 90)
const ADMIN = { email: 'fresh@studio.test', password: 'fresh-pass-123' }
const env = {
  ...process.env,
  PATH: path,
  PORT: String(port),
  DATA_DIR: join(dir, 'data'),
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
}
delete (env as Record<string, string | undefined>).BUN_INSTALL

console.log(
  `fresh clone in ${dir}; bun on PATH: ${Bun.spawnSync(['sh', '-c', 'command -v bun'], { env }).success}`,
)
const started = performance.now()
// Its own process group, so stopping it stops the server that `sh` started too.
const app = Bun.spawn(['setsid', 'sh', '-c', startLine], {
  cwd: dir,
  env,
  stdout: 'pipe',
  stderr: 'inherit',
})
let log = ''
void (async () => {
  for await (const c of app.stdout as ReadableStream<Uint8Array>) log += new TextDecoder().decode(c)
})()
let up = false
for (let i = 0; i < 600 && !up; i++) {
  await Bun.sleep(500)
  up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    (r) => r.ok,
    () => false,
  )
}
const bootSeconds = (performance.now() - started) / 1000
const login = up
  ? await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    }).then((r) => r.status)
  : 0
const signIn = log.includes('/auth/signin')
process.kill(-app.pid, 'SIGTERM')
await app.exited
console.log(
  `line 1 (${startLine}): ${up ? `answered on port ${port} after ${bootSeconds.toFixed(0)} s` : 'did NOT answer'}; printed where to sign in: ${signIn}; configured admin signs in: ${login === 200}`,
)

const t0 = performance.now()
const tests = Bun.spawn(['sh', '-c', testLine], {
  cwd: dir,
  env: { ...env, PORT: '' },
  stdout: 'pipe',
  stderr: 'pipe',
})
const out = (await new Response(tests.stdout).text()) + (await new Response(tests.stderr).text())
const code = await tests.exited
const summary = out.trim().split('\n').at(-1)
const logPath = join(tmpdir(), `studio-fresh-${process.pid}.log`)
await Bun.write(logPath, out)
for (const line of out.split('\n').filter((l) => l.startsWith('(fail)'))) console.log(`  ${line}`)
console.log(`full test output: ${logPath}`)
console.log(
  `line 2 (${testLine}): exit ${code} in ${((performance.now() - t0) / 1000).toFixed(0)} s — ${summary}`,
)
rmSync(dir, { recursive: true, force: true })
process.exit(up && signIn && login === 200 && code === 0 ? 0 : 1)
