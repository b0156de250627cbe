// The module that runs ffmpeg: it dies with its parent, stops on abort and on timeout, reports
// progress, and says what went wrong in ffmpeg's words without a stack trace.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import {
  type FfmpegCommand,
  FfmpegError,
  ffmpegArgs,
  launchPrefix,
  readableLines,
  runFfmpeg,
  runFfprobe,
} from '../../src/processing/ffmpeg.ts'
import { childrenOf, isGone, media, removeMedia, waitUntilGone } from '../../testkit/clips.ts'

// Real ffmpeg on a shared 2-core machine: a loaded minute is not a failure.
setDefaultTimeout(30_000)

afterAll(removeMedia)

/** An ffmpeg that runs until stopped, at real-time pace (little CPU); the size marks it. */
function endless(marker: string): FfmpegCommand {
  return {
    inputs: [{ path: `testsrc=size=${marker}:rate=10`, options: ['-re', '-f', 'lavfi'] }],
    outputs: [{ path: '-', options: ['-f', 'null'] }],
  }
}

async function ffmpegChild(marker: string): Promise<number> {
  const found = (await childrenOf()).find((c) => c.cmd.includes(marker))
  if (!found) throw new Error(`no ffmpeg child with ${marker}`)
  return found.pid
}

describe('runFfmpeg', () => {
  test('a SIGKILLed parent leaves no ffmpeg behind (setpriv --pdeathsig)', async () => {
    const child = Bun.spawn(
      [process.execPath, join(import.meta.dir, '..', '..', 'testkit', 'endless-ffmpeg.ts')],
      {
        stdout: 'pipe',
        stderr: 'inherit',
      },
    )
    const reader = child.stdout.getReader()
    const { value } = await reader.read()
    expect(new TextDecoder().decode(value)).toContain('running')
    const ffmpeg = (await childrenOf(child.pid)).find((c) => c.cmd.includes('98x56'))
    expect(ffmpeg?.cmd).toContain('ffmpeg')
    // nice and setpriv exec into ffmpeg: the child's only process is ffmpeg itself, niced.
    const niceness = async (pid: number | 'self') => {
      const stat = await Bun.file(`/proc/${pid}/stat`).text()
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
    }
    expect(await niceness(ffmpeg!.pid)).toBe(Math.min(19, (await niceness('self')) + 10))

    child.kill('SIGKILL')
    await child.exited
    expect(await waitUntilGone(ffmpeg!.pid, 3000)).toBe(true)
  })

  test('aborting kills ffmpeg and rejects with the abort reason', async () => {
    const controller = new AbortController()
    let pid = 0
    let looked = false
    const run = runFfmpeg(endless('94x52'), {
      timeoutMs: 60_000,
      signal: controller.signal,
      onProgress: () => {
        if (looked) return
        looked = true
        ffmpegChild('94x52').then((p) => {
          pid = p
          controller.abort()
        })
      },
    })
    const error = await run.catch((e: unknown) => e)
    expect((error as Error).name).toBe('AbortError')
    expect(pid).toBeGreaterThan(0)
    expect(await isGone(pid)).toBe(true)
  })

  test('an already aborted signal starts nothing', async () => {
    const before = (await childrenOf()).length
    const error = await runFfmpeg(endless('90x50'), {
      timeoutMs: 60_000,
      signal: AbortSignal.abort(),
    }).catch((e: unknown) => e)
    expect((error as Error).name).toBe('AbortError')
    expect((await childrenOf()).length).toBe(before)
  })

  test('a timeout kills ffmpeg and says so', async () => {
    // The child is looked up at its first progress, while it runs: 3 s leave room for that
    // look on a loaded machine, and the look is awaited before the pid is read.
    let lookup: Promise<number> | undefined
    const error = await runFfmpeg(endless('92x50'), {
      timeoutMs: 3000,
      onProgress: () => {
        lookup ??= ffmpegChild('92x50')
      },
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FfmpegError)
    expect((error as FfmpegError).kind).toBe('timeout')
    expect((error as FfmpegError).message).toBe(
      'ffmpeg did not finish within 3 seconds and was stopped.',
    )
    const pid = await lookup
    expect(pid).toBeGreaterThan(0)
    expect(await isGone(pid!)).toBe(true)
  })

  test('a progress callback that throws stops ffmpeg and passes the error on', async () => {
    const error = await runFfmpeg(endless('84x48'), {
      timeoutMs: 60_000,
      onProgress: () => {
        throw new Error('caller bug')
      },
    }).catch((e: unknown) => e)
    expect((error as Error).message).toBe('caller bug')
    // Killed and reaped: no child with that command line is left.
    expect((await childrenOf()).some((c) => c.cmd.includes('84x48'))).toBe(false)
  })

  test('a signal from outside is told apart from a refused input (exit 255 or killed, not 1)', async () => {
    for (const [marker, signal, exitCode, message] of [
      ['88x50', 'SIGTERM', 255, 'ffmpeg was interrupted by a signal (exit code 255).'],
      ['86x48', 'SIGKILL', null, 'ffmpeg was killed (SIGKILL).'],
    ] as const) {
      let sent = false
      const error = await runFfmpeg(endless(marker), {
        timeoutMs: 60_000,
        onProgress: () => {
          if (sent) return
          sent = true
          ffmpegChild(marker).then((pid) => process.kill(pid, signal))
        },
      }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(FfmpegError)
      expect((error as FfmpegError).exitCode).toBe(exitCode)
      expect((error as FfmpegError).message).toBe(message)
    }
  })

  test('a file that is not media fails with ffmpeg’s own words, short and without paths', async () => {
    const text = await media.text()
    const error = await runFfmpeg(
      { inputs: [{ path: text }], outputs: [{ path: '-', options: ['-f', 'null'] }] },
      { timeoutMs: 30_000 },
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FfmpegError)
    const { message, detail, kind } = error as FfmpegError
    expect(kind).toBe('exit')
    expect((error as FfmpegError).exitCode).toBe(1)
    expect(message).toBe(`ffmpeg failed (exit code 1): ${detail}`)
    expect(detail).toContain('Invalid data found when processing input')
    expect(message).not.toContain(text) // the folder layout stays on the server
    expect(message).not.toMatch(/\n|@ 0x|\bat .*\.ts:\d+/)
  })

  test('progress arrives in order up to the end, and the last block is returned', async () => {
    const seen: number[] = []
    const last = await runFfmpeg(
      {
        inputs: [{ path: 'testsrc=size=64x36:rate=25:duration=2', options: ['-f', 'lavfi'] }],
        outputs: [{ path: '-', options: ['-f', 'null'] }],
      },
      { timeoutMs: 30_000, onProgress: (s) => seen.push(s) },
    )
    expect(seen.length).toBeGreaterThan(0)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    expect(seen.at(-1)!).toBeGreaterThanOrEqual(1.9)
    expect(last.progress).toBe('end')
    expect(Number(last.frame)).toBe(50)
  })
})

describe('ffprobe', () => {
  test('prints what it was asked for', async () => {
    const json = await runFfprobe(
      ['-print_format', 'json', '-show_streams', await media.anamorphic()],
      { path: await media.anamorphic(), timeoutMs: 30_000 },
    )
    expect(JSON.parse(json).streams[0].codec_name).toBe('h264')
  })
})

describe('arguments', () => {
  test('setpriv and nice lead when present; without setpriv a warning says what is lost', () => {
    expect(launchPrefix(() => true)).toEqual({
      prefix: ['setpriv', '--pdeathsig', 'KILL', 'nice', '-n', '10'],
    })
    const bare = launchPrefix((p) => p === 'nice')
    expect(bare.prefix).toEqual(['nice', '-n', '10'])
    expect(bare.warning).toContain('setpriv')
  })

  test('every input, output and filter graph is capped to the thread budget', () => {
    const args = ffmpegArgs(
      {
        inputs: [{ path: 'a.mp4' }, { path: 'b.mp4', options: ['-ss', '1'] }],
        filterComplex: '[0:0]null[v]',
        outputs: [
          { path: 'x.mp4', options: ['-map', '[v]'] },
          { path: 'y.m4a', options: ['-map', '1:a'] },
        ],
      },
      2,
    )
    expect(args.slice(0, 8)).toEqual([
      '-nostdin',
      '-hide_banner',
      '-v',
      'error',
      '-nostats',
      '-progress',
      'pipe:1',
      '-y',
    ])
    const line = args.join(' ')
    expect(line).toContain('-threads 2 -i a.mp4 -ss 1 -threads 2 -i b.mp4')
    expect(line).toContain('-filter_complex [0:0]null[v] -filter_complex_threads 2')
    expect(line).toContain('-map [v] -threads 2 x.mp4 -map 1:a -threads 2 y.m4a')
  })

  test('error lines: last five distinct, prefixes and noise gone, paths cut to names', () => {
    const lines = [
      '[h264 @ 0x55d1] Invalid NAL unit size (1 > 2).',
      '[h264 @ 0x55d1] Error splitting the input into NAL units.',
      '[h264 @ 0x55d2] Invalid NAL unit size (1 > 2).',
      '    Last message repeated 3 times',
      '/srv/data/media/ab12.mp4: Invalid data found when processing input',
      'Error opening /srv/data/media/ab12.mp4 again',
      'Conversion failed!',
    ]
    expect(readableLines(lines, ['/srv/data/media/ab12.mp4'])).toBe(
      'Error splitting the input into NAL units.; Invalid NAL unit size (1 > 2).; Invalid data found when processing input; Error opening ab12.mp4 again',
    )
  })
})
