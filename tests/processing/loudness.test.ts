// The loudness measurement's own parts: reading ebur128's summary (as ffmpeg 5–7 print it), and
// measuring real files ffmpeg makes here, against ffmpeg's loudnorm reading of the same file.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { measureLoudness, parseEbur128Summary } from '../../src/processing/loudness.ts'
import { makeLoudClip, makeSilentClip, measureWithLoudnorm } from '../../testkit/loudness.ts'

const summary = (i: string, lra: string, peak: string, prefix = '[Parsed_ebur128_0 @ 0x55d1]') => [
  'Stream mapping:',
  '  Stream #0:1 -> #0:0 (aac (native) -> pcm_s16le (native))',
  'size=N/A time=00:00:04.00 bitrate=N/A speed= 191x',
  `${prefix} Summary:`,
  '  Integrated loudness:',
  `    I:         ${i} LUFS`,
  '    Threshold: -18.1 LUFS',
  '  Loudness range:',
  `    LRA:         ${lra} LU`,
  '    Threshold: -28.1 LUFS',
  '    LRA low:   -8.3 LUFS',
  '    LRA high:  -7.9 LUFS',
  '  True peak:',
  `    Peak:       ${peak} dBFS`,
]

describe('parseEbur128Summary', () => {
  test('reads integrated loudness, range and true peak', () => {
    expect(parseEbur128Summary(summary('-8.1', '2.4', '0.4'))).toEqual({
      integrated: -8.1,
      range: 2.4,
      truePeak: 0.4,
    })
  })
  test('digital silence: the true peak is minus infinity, stored as none', () => {
    expect(parseEbur128Summary(summary('-70.0', '0.0', '-inf'))).toEqual({
      integrated: -70,
      range: 0,
      truePeak: null,
    })
  })
  test('the last summary counts; a log without one, or without I, is no measurement', () => {
    const two = [...summary('-30.0', '1.0', '-20.0'), ...summary('-9.5', '3.0', '-1.2', '')]
    expect(parseEbur128Summary(two)?.integrated).toBe(-9.5)
    expect(parseEbur128Summary(['Stream mapping:', 'Conversion failed!'])).toBeNull()
    const noI = summary('-8.1', '2.4', '0.4').filter((line) => !line.includes(' I:'))
    expect(parseEbur128Summary(noI)).toBeNull()
  })
})

describe('measureLoudness on real files', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loudness-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  test('within half a LU of loudnorm, for a loud and a quiet master', async () => {
    for (const lufs of [-8, -20]) {
      const clip = await makeLoudClip(dir, `tone${-lufs}.mp4`, lufs)
      const theirs = await measureWithLoudnorm(clip)
      const ours = await measureLoudness(clip, 1, { timeoutMs: 120_000 })
      expect(Math.abs(theirs.integrated - lufs)).toBeLessThan(0.5)
      expect(Math.abs(ours!.integrated - theirs.integrated)).toBeLessThanOrEqual(0.5)
      expect(Math.abs(ours!.truePeak! - theirs.truePeak)).toBeLessThanOrEqual(0.5)
      expect(Math.abs(ours!.range - theirs.range)).toBeLessThanOrEqual(1)
    }
  }, 120_000)

  test('no audio stream: null, without running ffmpeg', async () => {
    const clip = await makeSilentClip(dir, 'picture.mp4')
    expect(await measureLoudness(clip, null, { timeoutMs: 1 })).toBeNull()
  }, 60_000)
})
