// Running a command as another OS user (`nobody`), to prove what the app's files and connections
// refuse to others. Needs root and runuser(1); the tests that use it say so when they are skipped.
import { chmodSync, copyFileSync, linkSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeSkipIf } from './skip.ts'

export const OTHER_USER = 'nobody'

export const canRunAsOtherUser: boolean =
  process.platform === 'linux' && process.getuid?.() === 0 && Bun.which('runuser') !== null

/** `describe` for tests that run a command as OTHER_USER: skipped, with the reason, where none can. */
export const describeAsOtherUser = describeSkipIf(
  !canRunAsOtherUser && 'needs root and runuser(1) to run a command as another user',
)

/** The uid of OTHER_USER, for messages that name it. */
export function otherUid(): number {
  const out = Bun.spawnSync(['id', '-u', OTHER_USER]).stdout.toString().trim()
  return Number(out)
}

/** argv that runs `argv` as OTHER_USER. */
export const asOtherUser = (argv: string[]): string[] => [
  'runuser',
  '-u',
  OTHER_USER,
  '--',
  ...argv,
]

/**
 * A bun binary OTHER_USER may execute: the installed one often lives under /root (mode 0700).
 * A hard link in a world-readable folder (a copy across file systems); `cleanup` removes it.
 */
export function bunForOtherUser(): { path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'bun-for-other-'))
  chmodSync(dir, 0o755)
  const path = join(dir, 'bun')
  const real = realpathSync(process.execPath)
  try {
    linkSync(real, path)
  } catch {
    copyFileSync(real, path)
    chmodSync(path, 0o755)
  }
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}
