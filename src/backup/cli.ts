// `bun run backup [FILE]` and `bun run restore FILE` (docs/backup.md). A failure is one line on
// standard error and exit status 1. A restore stopped by a signal, or by an error thrown outside
// its own calls, undoes what it wrote before the process exits.
import { ConfigError, loadConfig } from '../config.ts'
import { DataDirError } from '../db/data-dir.ts'
import { DatabaseLockedError } from '../db/lock.ts'
import { DatabaseUnreachableError } from '../db/wait.ts'
import { StorageError } from '../errors.ts'
import { BackupError } from './archive.ts'
import { backup, defaultBackupName } from './backup.ts'
import { restore } from './restore.ts'

const USAGE = 'Usage: bun run backup [FILE.tar | -]  or  bun run restore FILE.tar'
const EXPLAINED = [
  BackupError,
  ConfigError,
  DatabaseUnreachableError,
  DatabaseLockedError,
  DataDirError,
  StorageError,
]

const log = (line: string) => console.error(line)

async function main(args: string[]): Promise<void> {
  const [command, file, ...extra] = args
  if (extra.length > 0) throw new BackupError(USAGE)
  const config = loadConfig()
  if (command === 'backup') {
    const target = file ?? defaultBackupName()
    if (target !== '-' && !target.endsWith('.tar')) {
      throw new BackupError(
        `${target}: the archive's name must end in .tar (or be - for standard output).`,
      )
    }
    const manifest = await backup({ config, file: target, log })
    const bytes = manifest.objects.reduce((sum, o) => sum + o.size, 0)
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0)
    log(
      `Backup ${target === '-' ? 'written to standard output' : `written: ${target}`} (${rows} rows, ${manifest.objects.length} objects, ${(bytes / 1e6).toFixed(1)} MB of media).`,
    )
  } else if (command === 'restore' && file) {
    const stop = new AbortController()
    const stopFor = (reason: string) => {
      if (stop.signal.aborted) return
      log(`restore: ${reason}: stopping, and undoing what was written`)
      stop.abort(new BackupError(`Stopped by ${reason}.`))
    }
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
    const onSignal = (signal: NodeJS.Signals) => stopFor(signal)
    // Without these the process would die where it stands and leave the objects written so far.
    const onError = (error: unknown) =>
      stopFor(`an unexpected error (${(error as Error)?.message ?? String(error)})`)
    for (const signal of signals) process.on(signal, onSignal)
    process.on('uncaughtException', onError)
    process.on('unhandledRejection', onError)
    const result = await restore({ config, file, log, signal: stop.signal })
    log(
      `Restored ${result.rows} rows and ${result.objects} objects from ${file}. Start the server as usual.`,
    )
  } else {
    throw new BackupError(USAGE)
  }
}

main(Bun.argv.slice(2)).then(
  () => process.exit(0),
  (error: Error) => {
    const known = EXPLAINED.some((type) => error instanceof type)
    const message = known ? error.message : `${error.name}: ${error.message}`
    console.error(`${message.split('\n')[0]}`)
    process.exit(1)
  },
)
