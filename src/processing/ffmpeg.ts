// The one module that starts ffmpeg and ffprobe. It owns how they run on a machine that also
// serves the site: low priority (`nice`), a thread cap, killed with their parent (`setpriv
// --pdeathsig KILL`: a SIGKILLed server otherwise leaves ffmpeg running for minutes), killed on
// an AbortSignal or a timeout, progress read from `-progress pipe:1`, and failures told in
// ffmpeg's own last lines rather than a stack trace. Everything else builds arguments and calls
// runFfmpeg / runFfprobe.
import { basename } from 'node:path'

/** Threads per decoder, encoder and filter graph: the machine has 2 cores and serves the site too. */
export const FFMPEG_THREADS = 2
const NICENESS = 10
/** Lines of stderr kept for the error text; the message shows the last ERROR_LINES of them. */
const STDERR_LINES_KEPT = 50
const ERROR_LINES = 5
const MAX_LINE = 300
/** Lines that say nothing about the cause. */
const NOISE = /^(Conversion failed!|Last message repeated \d+ times?)$/
/** ffprobe's JSON for an ordinary file is a few KB; a hostile one may not grow memory without end. */
const MAX_STDOUT = 8 * 1024 * 1024

export type Program = 'ffmpeg' | 'ffprobe'

export type FfmpegFailure = 'missing' | 'exit' | 'timeout'

/** ffmpeg or ffprobe did not do its job; `message` is readable as it is (no stack needed). */
export class FfmpegError extends Error {
  override readonly name = 'FfmpegError'
  readonly kind: FfmpegFailure
  /** The program's last stderr lines, trimmed and joined with "; " (may be empty). */
  readonly detail: string
  /**
   * 1 when ffmpeg/ffprobe refused the input or failed; 255 when a signal (Ctrl-C, a SIGTERM to
   * the process group) stopped it; null when killed outright. Only 1 says anything about the file.
   */
  readonly exitCode: number | null

  constructor(kind: FfmpegFailure, message: string, detail = '', exitCode: number | null = null) {
    super(message)
    this.kind = kind
    this.detail = detail
    this.exitCode = exitCode
  }
}

export type RunOptions = {
  /** Kills the program; the call then rejects with `signal.reason`. */
  signal?: AbortSignal
  /** Kills the program after this long; the call then rejects with an FfmpegError('timeout'). */
  timeoutMs: number
  cwd?: string
}

export type FfmpegRunOptions = RunOptions & {
  /** Called with the output time reached, in seconds, about twice a second. */
  onProgress?: (seconds: number) => void
}

export type FfmpegInput = { path: string; options?: readonly string[] }
export type FfmpegOutput = { path: string; options: readonly string[] }
/** One ffmpeg invocation: the thread cap and the quiet/progress flags are added here. */
export type FfmpegCommand = {
  inputs: readonly FfmpegInput[]
  filterComplex?: string
  outputs: readonly FfmpegOutput[]
}

/** The last `-progress` block ffmpeg wrote (`frame`, `out_time_us`, `progress`, …). */
export type FfmpegProgress = Readonly<Record<string, string>>

/** The words before the program: setpriv and nice where they exist. */
export function launchPrefix(exists: (program: string) => boolean): {
  prefix: string[]
  warning?: string
} {
  const prefix: string[] = []
  let warning: string | undefined
  if (exists('setpriv')) prefix.push('setpriv', '--pdeathsig', 'KILL')
  else
    warning =
      'setpriv (util-linux) was not found: ffmpeg is started without --pdeathsig and may keep running if this process is killed'
  if (exists('nice')) prefix.push('nice', '-n', String(NICENESS))
  return { prefix, ...(warning ? { warning } : {}) }
}

let launcher: string[] | undefined
function launcherPrefix(): string[] {
  if (!launcher) {
    const { prefix, warning } = launchPrefix((p) => Bun.which(p) !== null)
    if (warning) console.warn(warning)
    launcher = prefix
  }
  return launcher
}

const installed = new Map<Program, boolean>()
function assertInstalled(program: Program): void {
  let found = installed.get(program)
  if (found === undefined) {
    found = Bun.which(program) !== null
    installed.set(program, found)
  }
  if (!found) {
    throw new FfmpegError(
      'missing',
      `${program} is not installed here: video processing needs it (Debian: apt-get install ffmpeg).`,
    )
  }
}

/** Arguments for one ffmpeg run: quiet but for errors, progress on stdout, threads capped everywhere. */
export function ffmpegArgs(
  command: FfmpegCommand,
  threads = FFMPEG_THREADS,
  logLevel: 'error' | 'info' = 'error',
): string[] {
  const t = String(threads)
  const args = ['-nostdin', '-hide_banner', '-v', logLevel, '-nostats', '-progress', 'pipe:1', '-y']
  args.push('-filter_threads', t)
  for (const input of command.inputs)
    args.push(...(input.options ?? []), '-threads', t, '-i', input.path)
  if (command.filterComplex) {
    args.push('-filter_complex', command.filterComplex, '-filter_complex_threads', t)
  }
  for (const output of command.outputs) args.push(...output.options, '-threads', t, output.path)
  return args
}

/**
 * ffmpeg's stderr lines as one readable sentence: the last few distinct lines, without the
 * `[h264 @ 0x55…]` prefixes, with the server's paths cut to file names.
 */
export function readableLines(lines: readonly string[], paths: readonly string[] = []): string {
  const picked: string[] = []
  for (let i = lines.length - 1; i >= 0 && picked.length < ERROR_LINES; i--) {
    let line = lines[i]!.replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/i, '').trim()
    for (const path of paths) {
      if (line.startsWith(`${path}: `)) line = line.slice(path.length + 2)
      line = line.replaceAll(path, basename(path))
    }
    if (!line || NOISE.test(line) || picked.includes(line)) continue
    picked.push(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line)
  }
  return picked.reverse().join('; ')
}

async function eachLine(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
): Promise<void> {
  const decoder = new TextDecoder()
  let rest = ''
  for await (const chunk of stream) {
    rest += decoder.decode(chunk, { stream: true })
    const lines = rest.split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) onLine(line)
    // A line without an end (hostile output) must not grow without bound either.
    if (rest.length > MAX_STDOUT) rest = rest.slice(-MAX_LINE)
  }
  rest += decoder.decode()
  if (rest) onLine(rest)
}

function humanSpan(ms: number): string {
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} seconds`
}

type RunResult = { stdout: string; progress: FfmpegProgress; stderr: string[] }

async function run(
  program: Program,
  args: string[],
  options: FfmpegRunOptions,
  stdoutMode: 'progress' | 'collect',
  paths: readonly string[],
): Promise<RunResult> {
  const { signal } = options
  signal?.throwIfAborted()
  assertInstalled(program)

  const child = Bun.spawn([...launcherPrefix(), program, ...args], {
    cwd: options.cwd,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let stoppedBy: 'abort' | 'timeout' | 'overflow' | undefined
  const stop = (why: 'abort' | 'timeout' | 'overflow') => {
    if (stoppedBy) return
    stoppedBy = why
    child.kill('SIGKILL')
  }
  const onAbort = () => stop('abort')
  signal?.addEventListener('abort', onAbort, { once: true })
  if (signal?.aborted) onAbort()
  const timer = setTimeout(() => stop('timeout'), options.timeoutMs)

  const stderr: string[] = []
  const readStderr = eachLine(child.stderr, (line) => {
    if (!line.trim()) return
    stderr.push(line)
    if (stderr.length > STDERR_LINES_KEPT) stderr.shift()
  })

  let stdout = ''
  let block: Record<string, string> = {}
  let progress: FfmpegProgress = {}
  const readStdout =
    stdoutMode === 'collect'
      ? (async () => {
          for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
            if (stdout.length + chunk.length > MAX_STDOUT) {
              stop('overflow')
              break
            }
            stdout += chunk
          }
        })()
      : eachLine(child.stdout, (line) => {
          const eq = line.indexOf('=')
          if (eq <= 0) return
          const key = line.slice(0, eq).trim()
          block[key] = line.slice(eq + 1).trim()
          if (key !== 'progress') return
          progress = block
          block = {}
          const seconds = Number(progress.out_time_us) / 1e6
          // The first block says N/A (or 0) before any frame is out.
          if (Number.isFinite(seconds) && seconds >= 0) options.onProgress?.(seconds)
        })

  let code: number
  try {
    ;[code] = await Promise.all([child.exited, readStderr, readStdout])
  } catch (error) {
    // A reader failed (or onProgress threw): never leave the program running without us.
    child.kill('SIGKILL')
    await child.exited
    throw error
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }

  if (stoppedBy === 'abort') throw signal?.reason ?? new DOMException('Aborted', 'AbortError')
  const detail = readableLines(stderr, paths)
  if (stoppedBy === 'timeout') {
    throw new FfmpegError(
      'timeout',
      `${program} did not finish within ${humanSpan(options.timeoutMs)} and was stopped.`,
      detail,
    )
  }
  if (stoppedBy === 'overflow') {
    throw new FfmpegError(
      'exit',
      `${program} printed more than ${MAX_STDOUT} bytes and was stopped.`,
    )
  }
  if (code !== 0) {
    const how = child.signalCode
      ? `was killed (${child.signalCode})`
      : code === 255
        ? 'was interrupted by a signal (exit code 255)'
        : `failed (exit code ${code})`
    const exitCode = child.signalCode ? null : code
    throw new FfmpegError(
      'exit',
      `${program} ${how}${detail ? `: ${detail}` : '.'}`,
      detail,
      exitCode,
    )
  }
  return { stdout, progress, stderr }
}

/** Runs one ffmpeg command; resolves with its last progress block. */
export async function runFfmpeg(
  command: FfmpegCommand,
  options: FfmpegRunOptions,
): Promise<FfmpegProgress> {
  const paths = command.inputs.map((input) => input.path)
  const { progress } = await run('ffmpeg', ffmpegArgs(command), options, 'progress', paths)
  return progress
}

/**
 * Runs one ffmpeg command at log level `info` and resolves with the last 50 lines it printed:
 * for a filter that reports only in the log (ebur128's summary). The command must keep its log
 * short (no per-frame lines), or the summary scrolls out.
 */
export async function runFfmpegForLog(
  command: FfmpegCommand,
  options: FfmpegRunOptions & { threads?: number },
): Promise<string[]> {
  const paths = command.inputs.map((input) => input.path)
  const args = ffmpegArgs(command, options.threads ?? FFMPEG_THREADS, 'info')
  const { stderr } = await run('ffmpeg', args, options, 'progress', paths)
  return stderr
}

/** Runs ffprobe quietly with `args` (the file among them); resolves with what it printed. */
export async function runFfprobe(
  args: readonly string[],
  options: RunOptions & { path: string },
): Promise<string> {
  const all = ['-v', 'error', '-hide_banner', ...args]
  const { stdout } = await run('ffprobe', all, options, 'collect', [options.path])
  return stdout
}
