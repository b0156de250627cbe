// Chromium (browser tests) and ffmpeg (tiny test media) come from Debian's packages. On a fresh
// machine where we are root with apt-get, install what is missing; otherwise say what to install.
import { existsSync } from 'node:fs'

const NEEDED = [
  { bin: '/usr/bin/chromium', pkg: 'chromium' },
  { bin: '/usr/bin/ffmpeg', pkg: 'ffmpeg' },
]

export async function ensureSystemDeps(): Promise<void> {
  const missing = NEEDED.filter((n) => !existsSync(n.bin)).map((n) => n.pkg)
  if (missing.length === 0) return
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
  if (!canInstall) {
    throw new Error(
      `Missing ${missing.join(' and ')}: install them (e.g. sudo apt-get install -y ${missing.join(' ')}) and run again.`,
    )
  }
  console.log(`Installing ${missing.join(', ')} from Debian's packages…`)
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...missing]]) {
    const proc = Bun.spawn(['apt-get', ...args], {
      stdout: 'ignore',
      stderr: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    if ((await proc.exited) !== 0) throw new Error(`apt-get ${args[0]} failed`)
  }
}
