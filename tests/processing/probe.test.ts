// Probing real files: what is stored on the row, and the readable reasons a file is refused
// before any long work starts.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mediaProbe, probeSource } from '../../src/processing/probe.ts'
import { ProcessingError } from '../../src/processing/processing-error.ts'
import { media, removeMedia } from '../../testkit/clips.ts'

// Real ffmpeg on a shared 2-core machine: a loaded minute is not a failure.
setDefaultTimeout(60_000)

afterAll(removeMedia)

async function refusal(path: string): Promise<ProcessingError> {
  const error = await probeSource(path).catch((e: unknown) => e)
  if (!(error instanceof ProcessingError))
    throw new Error(`expected a ProcessingError, got ${error}`)
  return error
}

describe('probeSource', () => {
  test('an ordinary clip: duration, displayed size, frame rate, codecs, bit rate, sound', async () => {
    const info = await probeSource(await media.stereo480())
    expect(mediaProbe(info)).toEqual({
      duration: expect.closeTo(5, 1),
      width: 854,
      height: 480,
      frameRate: 25,
      videoCodec: 'h264',
      audioCodec: 'aac',
      bitrate: expect.any(Number),
      hasAudio: true,
    })
    expect(info.bitrate!).toBeGreaterThan(info.videoBitrate!)
    expect(info.videoBitrate!).toBeGreaterThan(0)
    expect(info.videoStream).toBe(0)
    expect(info.audioStream).toBe(1)
  })

  test('a quarter-turned phone clip is stored with its displayed (portrait) size', async () => {
    const info = await probeSource(await media.portraitMono())
    expect([info.width, info.height]).toEqual([480, 854])
  })

  test('non-square pixels count at their displayed width', async () => {
    const info = await probeSource(await media.anamorphic())
    expect([info.width, info.height]).toEqual([128, 48])
    expect(info.hasAudio).toBe(false)
    expect(info.audioCodec).toBeNull()
  })

  test('a container without a stated duration probes with duration null', async () => {
    const info = await probeSource(await media.tinyLiveMkv())
    expect(info.duration).toBeNull()
    expect([info.width, info.height, info.frameRate]).toEqual([356, 200, 15])
  })

  test('a file with sound only has no video stream', async () => {
    const error = await refusal(await media.audioOnly())
    expect(error.code).toBe('no-video')
    expect(error.message).toBe('The file has no video stream.')
  })

  test('a cover picture in an audio file is not a video', async () => {
    expect((await refusal(await media.coverArt())).code).toBe('no-video')
  })

  test('a cut-short upload cannot be read, and ffmpeg’s words say why', async () => {
    const error = await refusal(await media.truncated())
    expect(error.code).toBe('unreadable')
    expect(error.reason).toBe('The file could not be read as a video.')
    expect(error.detail).toContain('moov atom not found')
    expect(error.message).toBe(
      `The file could not be read as a video. ffmpeg said: ${error.detail}`,
    )
    expect(error.message).not.toContain('/')
  })

  test('a header over noise probes but its first frame does not decode', async () => {
    const error = await refusal(await media.garbage())
    expect(error.code).toBe('undecodable')
    expect(error.reason).toBe('The video stream could not be decoded.')
    expect(error.detail.length).toBeGreaterThan(0)
    expect(error.detail.split('; ').length).toBeLessThanOrEqual(5)
    expect(error.message).not.toMatch(/@ 0x|\n/)
  })

  test('text with a video’s name is unreadable', async () => {
    const error = await refusal(await media.text())
    expect(error.code).toBe('unreadable')
    expect(error.detail).toContain('Invalid data found when processing input')
  })

  test('ten hours claimed by 51 frames: longer than a video may last, refused before any decode', async () => {
    const error = await refusal(await media.stretched('mp4', 36_000))
    expect(error.code).toBe('too-long')
    expect(error.message).toBe(
      'The file says it lasts 10:00:00, longer than the 3:00:00 a video may last. Trim or re-export it.',
    )
  })

  test('two hours held by 51 frames: sparse, counted from the packets where WebM does not say', async () => {
    for (const ext of ['mp4', 'webm'] as const) {
      const error = await refusal(await media.stretched(ext, 7_200))
      expect(error.code).toBe('sparse-frames')
      expect(error.message).toBe(
        'The file says its picture lasts 2:00:00 but holds only 51 frames: its timestamps are broken. Re-export it with a constant frame rate.',
      )
    }
  })

  test('a few frames over a short span, or one cover frame beside long sound, are fine', async () => {
    expect((await probeSource(await media.stretched('mp4', 100))).duration).toBeCloseTo(100, 0)
    const still = await probeSource(await media.stillWithSound())
    expect(still.duration).toBeCloseTo(300, 0)
  })

  test('a missing file is unreadable too', async () => {
    const error = await refusal('/nonexistent/clip.mp4')
    expect(error.code).toBe('unreadable')
    expect(error.detail).toBe('No such file or directory')
  })
})
