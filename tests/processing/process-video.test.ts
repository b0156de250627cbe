// processVideo on real files, checked the way a player and a browser would see the outputs:
// the master plays rung by rung with its audio, the ladder fits the source, the MP4 starts
// without a full download, the preview is small, and a bad file ends with a reason.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { ProcessingError } from '../../src/processing/processing-error.ts'
import { type ProcessedVideo, processVideo } from '../../src/processing/transcode.ts'
import { streamStartFor } from '../../src/storage/layout.ts'
import {
  childrenOf,
  type FfprobeStream,
  ffprobeJson,
  firstPresentationTicks,
  isGone,
  media,
  removeMedia,
  sh,
  topLevelBoxes,
} from '../../testkit/clips.ts'

// Real ffmpeg on a shared 2-core machine: a loaded minute is not a failure.
setDefaultTimeout(120_000)

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'processing-out-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
  removeMedia()
})

type Run = { result: ProcessedVideo; outDir: string; parent: string; progress: number[] }

/** Processes `source` into <fresh folder>/out, recording the progress calls. */
async function processInto(source: string): Promise<Run> {
  const parent = await mkdtemp(join(root, 'run-'))
  const outDir = join(parent, 'out')
  const progress: number[] = []
  const result = await processVideo({ source, outDir, onProgress: (p) => progress.push(p) })
  return { result, outDir, parent, progress }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort()
}

type MasterVariant = { attributes: Record<string, string>; uri: string }
function parseMaster(text: string): { media: string[]; variants: MasterVariant[] } {
  const lines = text.trim().split('\n')
  const variants: MasterVariant[] = []
  lines.forEach((line, i) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return
    const attributes: Record<string, string> = {}
    for (const m of line.slice(18).matchAll(/([A-Z-]+)=("[^"]*"|[^,]*)/g)) {
      attributes[m[1]!] = m[2]!.replaceAll('"', '')
    }
    variants.push({ attributes, uri: lines[i + 1]! })
  })
  return { media: lines.filter((l) => l.startsWith('#EXT-X-MEDIA:')), variants }
}

/**
 * Where a player starts, read from the files as a player reads them: the variant with the lowest
 * BANDWIDTH and the audio group, each playlist's EXT-X-MAP and first segment.
 */
async function startFromOutputs(outDir: string) {
  const { media: groups, variants } = parseMaster(
    await Bun.file(join(outDir, 'master.m3u8')).text(),
  )
  const lowest = variants.toSorted(
    (a, b) => Number(a.attributes.BANDWIDTH) - Number(b.attributes.BANDWIDTH),
  )[0]!
  const audio = groups.map((line) => /URI="([^"]+)"/.exec(line)?.[1]).filter(Boolean) as string[]
  return Promise.all(
    [lowest.uri, ...audio].map(async (playlist) => {
      const text = await Bun.file(join(outDir, playlist)).text()
      const folder = playlist.slice(0, playlist.lastIndexOf('/') + 1)
      const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(text)?.[1]
      const segment = text.split('\n').find((line) => line && !line.startsWith('#'))
      return { playlist, init: `${folder}${init}`, segment: `${folder}${segment}` }
    }),
  )
}

/** What the public answers name as the start is what the run wrote (the row keeps the probe). */
async function expectStartNamed(run: Run) {
  expect(streamStartFor(run.result.probe)).toEqual(await startFromOutputs(run.outDir))
}

async function segmentDurations(playlist: string): Promise<number[]> {
  const text = await Bun.file(playlist).text()
  return [...text.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Math.round(Number(m[1]) * 10) / 10)
}

/**
 * Decodes variant `n` of the master as a player would (its video and, when there is sound, the
 * audio group) and returns the frames decoded; any error line fails.
 */
async function decodeVariant(master: string, n: number, withAudio: boolean): Promise<number> {
  const r = await sh([
    ...['ffmpeg', '-nostdin', '-v', 'error', '-i', master, '-map', `0:v:${n}`],
    ...(withAudio ? ['-map', '0:a:0'] : []),
    ...['-progress', 'pipe:1', '-f', 'null', '-'],
  ])
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  return Number([...r.stdout.matchAll(/^frame=(\d+)/gm)].at(-1)?.[1])
}

async function streamsOf(path: string): Promise<FfprobeStream[]> {
  return (await ffprobeJson(path)).streams
}

function expectStereo48k(stream: FfprobeStream | undefined) {
  expect(stream).toMatchObject({
    codec_name: 'aac',
    profile: 'LC',
    sample_rate: '48000',
    channels: 2,
    channel_layout: 'stereo',
  })
}

describe('a 480p clip with stereo sound', () => {
  let run: Run
  beforeAll(async () => {
    run = await processInto(await media.stereo480())
  })

  test('gives 480p and 360p (no upscale) in a master with one shared stereo audio group', async () => {
    const text = await Bun.file(join(run.outDir, 'master.m3u8')).text()
    const { media: groups, variants } = parseMaster(text)
    expect(groups).toEqual([
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Stereo",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/index.m3u8"',
    ])
    expect(
      variants.map((v) => [v.uri, v.attributes.RESOLUTION, v.attributes['FRAME-RATE']]),
    ).toEqual([
      ['360p/index.m3u8', '640x360', '25.000'],
      ['480p/index.m3u8', '854x480', '25.000'],
    ])
    for (const v of variants) {
      expect(v.attributes.AUDIO).toBe('aud')
      expect(v.attributes.CODECS).toMatch(/^avc1\.64[0-9a-f]{4},mp4a\.40\.2$/)
      expect(Number(v.attributes.BANDWIDTH)).toBeGreaterThanOrEqual(
        Number(v.attributes['AVERAGE-BANDWIDTH']),
      )
    }
    // Measured, not nominal: 360p's 600 kbit/s target + 192 kbit/s audio, give or take.
    expect(Number(variants[0]!.attributes['AVERAGE-BANDWIDTH'])).toBeWithin(500_000, 1_100_000)
    expect(run.result.renditions).toEqual(
      variants.map((v, i) => ({
        name: ['360p', '480p'][i]!,
        width: Number(v.attributes.RESOLUTION!.split('x')[0]),
        height: Number(v.attributes.RESOLUTION!.split('x')[1]),
        bandwidth: Number(v.attributes.BANDWIDTH),
        averageBandwidth: Number(v.attributes['AVERAGE-BANDWIDTH']),
        codecs: v.attributes.CODECS!,
      })),
    )
  })

  test('every variant decodes whole with the audio rendition, at its stated size', async () => {
    const master = join(run.outDir, 'master.m3u8')
    const streams = await streamsOf(master)
    const videos = streams.filter((s) => s.codec_type === 'video')
    expect(videos.map((s) => `${s.width}x${s.height}`)).toEqual(['640x360', '854x480'])
    expectStereo48k(streams.find((s) => s.codec_type === 'audio'))
    for (let n = 0; n < videos.length; n++) {
      expect(await decodeVariant(master, n, true)).toBe(125) // 5 s × 25 fps
    }
  })

  test('segments start short (1 s, then 3 s) and line up across the rungs and the audio', async () => {
    for (const rung of ['360p', '480p']) {
      expect(await segmentDurations(join(run.outDir, rung, 'index.m3u8'))).toEqual([1, 3, 1])
    }
    // The audio's 1 s first segment is about 24 KB at 192 kbit/s: what a phone waits for.
    expect(await segmentDurations(join(run.outDir, 'audio/index.m3u8'))).toEqual([1, 3, 1])
    const first = Bun.file(join(run.outDir, 'audio/seg_000.m4s')).size
    expect(first).toBeWithin(10_000, 40_000)
    // Each audio segment plays on its own after the init segment, every sample of it.
    const dir = join(run.outDir, 'audio')
    const segments = (await readdir(dir)).filter((f) => f.endsWith('.m4s')).sort()
    expect(segments).toEqual(['seg_000.m4s', 'seg_001.m4s', 'seg_002.m4s'])
    let samples = 0
    for (const segment of segments) {
      const r = await sh(
        [
          ...['ffprobe', '-v', 'error', '-select_streams', 'a:0', '-count_packets'],
          ...['-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0'],
          `concat:init.mp4|${segment}`,
        ],
        { cwd: dir },
      )
      expect(r.stderr).toBe('')
      samples += Number(r.stdout.trim()) * 1024
    }
    // 5 s at 48 kHz in 1024-sample AAC frames (the last one padded).
    expect(samples / 48_000).toBeCloseTo(5, 1)
  })

  test('picture and sound start together at 0 in the fragments, where hls.js reads them', async () => {
    for (const rendition of ['360p', '480p', 'audio']) {
      const first = join(run.outDir, rendition, 'seg_000.m4s')
      const bytes = new Uint8Array(await Bun.file(first).arrayBuffer())
      expect({ rendition, ticks: firstPresentationTicks(bytes) }).toEqual({
        rendition,
        ticks: 0,
      })
    }
  })

  test('each segment decodes on its own after the init segment (a player may switch rungs at any)', async () => {
    for (const rung of ['360p', '480p']) {
      const dir = join(run.outDir, rung)
      const segments = (await readdir(dir)).filter((f) => f.endsWith('.m4s')).sort()
      const durations = await segmentDurations(join(dir, 'index.m3u8'))
      for (const [i, segment] of segments.entries()) {
        const r = await sh(
          [
            ...['ffmpeg', '-nostdin', '-v', 'error', '-i', `concat:init.mp4|${segment}`],
            ...['-progress', 'pipe:1', '-f', 'null', '-'],
          ],
          { cwd: dir },
        )
        expect(r.stderr).toBe('')
        expect(Number([...r.stdout.matchAll(/^frame=(\d+)/gm)].at(-1)?.[1])).toBe(
          Math.round(durations[i]! * 25),
        )
      }
    }
  })

  test('video.mp4: the top rung under 720p with its sound, moov before mdat', async () => {
    const path = join(run.outDir, 'video.mp4')
    const boxes = await topLevelBoxes(path)
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0)
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'))
    const { streams, format } = await ffprobeJson(path)
    expect(streams.map((s) => [s.codec_type, s.codec_name])).toEqual([
      ['video', 'h264'],
      ['audio', 'aac'],
    ])
    expect([streams[0]!.width, streams[0]!.height]).toEqual([854, 480])
    expectStereo48k(streams[1])
    expect(Number(format.duration)).toBeCloseTo(5, 0)
  })

  test('preview.mp4: 4 s, muted, at most 480 px wide and 500 KB, faststart H.264', async () => {
    const path = join(run.outDir, 'preview.mp4')
    const { streams, format } = await ffprobeJson(path)
    expect(streams).toHaveLength(1)
    expect(streams[0]).toMatchObject({ codec_type: 'video', codec_name: 'h264', width: 480 })
    expect(Number(format.duration)).toBeWithin(3, 4.05)
    expect(Bun.file(path).size).toBeLessThanOrEqual(500_000)
    const boxes = await topLevelBoxes(path)
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'))
  })

  test('the preview starts about a third in, not at the first second', async () => {
    // testsrc2 draws its clock: compare the preview's first frame with the source's frames.
    const first = await sh([
      ...['ffmpeg', '-v', 'error', '-i', join(run.outDir, 'preview.mp4'), '-frames:v', '1'],
      ...['-vf', 'scale=64:36', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    ])
    const at = async (seconds: number) =>
      (
        await sh([
          ...['ffmpeg', '-v', 'error', '-ss', String(seconds), '-i', await media.stereo480()],
          ...['-frames:v', '1', '-vf', 'scale=64:36', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
        ])
      ).stdout
    const distance = (a: string, b: string) => {
      let sum = 0
      for (let i = 0; i < Math.min(a.length, b.length); i++) {
        sum += Math.abs(a.charCodeAt(i) - b.charCodeAt(i))
      }
      return sum
    }
    const [fromStart, fromOneSecond] = [
      distance(first.stdout, await at(0)),
      distance(first.stdout, await at(1)),
    ]
    expect(fromOneSecond).toBeLessThan(fromStart)
  })

  test('progress only grows, in whole percents, and ends between 95 and 99', () => {
    const p = run.progress
    expect(p.length).toBeGreaterThan(1)
    for (let i = 1; i < p.length; i++) expect(p[i]!).toBeGreaterThan(p[i - 1]!)
    expect(p.every(Number.isInteger)).toBe(true)
    expect(p.at(-1)!).toBeWithin(95, 100)
  })

  test('everything is written inside outDir, and only the expected files', async () => {
    expect(await readdir(run.parent)).toEqual(['out'])
    const files = await filesUnder(run.outDir)
    expect(
      files.filter((f) => !/^(360p|480p|audio)\/(index\.m3u8|init\.mp4|seg_\d{3}\.m4s)$/.test(f)),
    ).toEqual(['master.m3u8', 'preview.mp4', 'video.mp4'])
    expect(run.result.files).toEqual({
      master: 'master.m3u8',
      mp4: 'video.mp4',
      preview: 'preview.mp4',
    })
  })

  test('the probe is returned for the row', () => {
    expect(run.result.probe).toEqual({
      duration: expect.closeTo(5, 1),
      width: 854,
      height: 480,
      frameRate: 25,
      videoCodec: 'h264',
      audioCodec: 'aac',
      bitrate: expect.any(Number),
      hasAudio: true,
    })
  })

  test("the start the public answers name is the master's lowest rung and the audio", async () => {
    await expectStartNamed(run)
    expect(streamStartFor(run.result.probe)?.map((files) => files.segment)).toEqual([
      '360p/seg_000.m4s',
      'audio/seg_000.m4s',
    ])
  })
})

test('a 1080p clip with 5.1 sound at 44.1 kHz: all four rungs, stereo 48 kHz audio, a 720p MP4', async () => {
  const run = await processInto(await media.surround1080())
  const master = join(run.outDir, 'master.m3u8')
  const { variants } = parseMaster(await Bun.file(master).text())
  expect(variants.map((v) => v.attributes.RESOLUTION)).toEqual([
    '640x360',
    '854x480',
    '1280x720',
    '1920x1080',
  ])
  expect(variants.at(-1)!.attributes.CODECS).toMatch(/^avc1\.6400(28|29|2a|32),mp4a\.40\.2$/)
  const streams = await streamsOf(master)
  expect(streams.filter((s) => s.codec_type === 'video').map((s) => s.height)).toEqual([
    360, 480, 720, 1080,
  ])
  expectStereo48k(streams.find((s) => s.codec_type === 'audio'))
  for (let n = 0; n < 4; n++) expect(await decodeVariant(master, n, true)).toBe(50)
  await expectStartNamed(run)
  const mp4 = await streamsOf(join(run.outDir, 'video.mp4'))
  expect(mp4.map((s) => [s.codec_type, s.width ?? s.channels])).toEqual([
    ['video', 1280],
    ['audio', 2],
  ])
})

test('a quarter-turned phone clip with mono sound: portrait rungs, stereo 48 kHz, portrait MP4 and preview', async () => {
  const run = await processInto(await media.portraitMono())
  expect(run.result.probe).toMatchObject({ width: 480, height: 854 })
  expect(run.result.renditions.map((r) => `${r.name} ${r.width}x${r.height}`)).toEqual([
    '360p 360x640',
    '480p 480x854',
  ])
  const master = join(run.outDir, 'master.m3u8')
  const streams = await streamsOf(master)
  expect(
    streams.filter((s) => s.codec_type === 'video').map((s) => `${s.width}x${s.height}`),
  ).toEqual(['360x640', '480x854'])
  expectStereo48k(streams.find((s) => s.codec_type === 'audio'))
  for (let n = 0; n < 2; n++) expect(await decodeVariant(master, n, true)).toBe(75)
  await expectStartNamed(run)
  const [mp4] = await streamsOf(join(run.outDir, 'video.mp4'))
  expect([mp4!.width, mp4!.height]).toEqual([480, 854])
  const [preview] = await streamsOf(join(run.outDir, 'preview.mp4'))
  expect([preview!.width, preview!.height]).toEqual([268, 480])
})

test('a tiny silent clip without a stated duration: one rung at its own size, no audio group, 1-3-4 s segments', async () => {
  const run = await processInto(await media.tinyLiveMkv())
  expect(run.result.probe.duration).toBeCloseTo(9, 0)
  expect(run.result.probe.hasAudio).toBe(false)
  expect(run.result.renditions).toEqual([
    expect.objectContaining({
      name: '200p',
      width: 356,
      height: 200,
      codecs: expect.stringMatching(/^avc1\.[0-9a-f]{6}$/),
    }),
  ])
  const master = join(run.outDir, 'master.m3u8')
  const text = await Bun.file(master).text()
  expect(text).not.toContain('EXT-X-MEDIA')
  expect(text).not.toContain('AUDIO=')
  expect(text).not.toContain('mp4a')
  expect(await decodeVariant(master, 0, false)).toBe(135) // 9 s × 15 fps
  await expectStartNamed(run)
  expect(await segmentDurations(join(run.outDir, '200p/index.m3u8'))).toEqual([1, 3, 4, 1])
  expect(await readdir(run.outDir)).not.toContain('audio')
  const mp4 = await streamsOf(join(run.outDir, 'video.mp4'))
  expect(mp4.map((s) => s.codec_type)).toEqual(['video'])
  // No stated duration, so no ladder percentages; still it ends at 99.
  expect(run.progress.at(-1)).toBe(99)
})

describe('sources that cannot become streams end with a readable reason and no master', () => {
  const cases = [
    ['a file with sound only', 'audioOnly', 'no-video', 'The file has no video stream.'],
    ['a cut-short upload', 'truncated', 'unreadable', 'The file could not be read as a video.'],
    ['a header over noise', 'garbage', 'undecodable', 'The video stream could not be decoded.'],
  ] as const
  for (const [label, fixture, code, reason] of cases) {
    test(label, async () => {
      const parent = await mkdtemp(join(root, 'bad-'))
      const outDir = join(parent, 'out')
      const error = await processVideo({ source: await media[fixture](), outDir }).catch(
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(ProcessingError)
      expect((error as ProcessingError).code).toBe(code)
      expect((error as ProcessingError).reason).toBe(reason)
      expect((error as ProcessingError).message).toStartWith(reason)
      expect(await Bun.file(join(outDir, 'master.m3u8')).exists()).toBe(false)
    })
  }
})

test('aborting mid-ladder kills ffmpeg and rejects with the abort reason', async () => {
  const source = await media.long360()
  const outDir = join(await mkdtemp(join(root, 'abort-')), 'out')
  const controller = new AbortController()
  let pid = 0
  let looked = false
  const seen: number[] = []
  const error = await processVideo({
    source,
    outDir,
    signal: controller.signal,
    onProgress: (p) => {
      seen.push(p)
      if (looked) return
      looked = true
      childrenOf().then((children) => {
        pid = children.find((c) => c.cmd.includes(source) && c.cmd.includes('hls'))?.pid ?? -1
        controller.abort()
      })
    },
  }).catch((e: unknown) => e)
  expect((error as Error).name).toBe('AbortError')
  expect(seen[0]!).toBeWithin(1, 95)
  expect(pid).toBeGreaterThan(0)
  expect(await isGone(pid)).toBe(true)
  expect(await Bun.file(join(outDir, 'master.m3u8')).exists()).toBe(false)
})
