// The profile table's rules without running ffmpeg: which rungs a source gets, their sizes and
// bit rates, the segment plan, the measured bandwidths and the master playlist's text.
import { describe, expect, test } from 'bun:test'
import {
  keyFrameExpression,
  ladderTimeoutMs,
  PRESET,
  planLadder,
  previewSize,
  scaleGraph,
} from '../../src/processing/ladder.ts'
import {
  bandwidthOf,
  masterPlaylist,
  parseMediaPlaylist,
  type Rendition,
} from '../../src/processing/playlists.ts'
import { mp4Size } from '../../src/storage/layout.ts'

const sizes = (source: Parameters<typeof planLadder>[0]) =>
  planLadder(source).map((r) => `${r.name} ${r.width}x${r.height}`)

describe('planLadder', () => {
  test('a 1080p source gets the four standard rungs with their bit rates', () => {
    const rungs = planLadder({ width: 1920, height: 1080, videoBitrate: 30_000_000 })
    expect(rungs.map((r) => [r.name, r.width, r.height, r.bitrate, r.maxrate, r.bufsize])).toEqual([
      ['1080p', 1920, 1080, 5_000_000, 5_350_000, 10_000_000],
      ['720p', 1280, 720, 3_000_000, 3_210_000, 6_000_000],
      ['480p', 854, 480, 1_200_000, 1_284_000, 2_400_000],
      ['360p', 640, 360, 600_000, 642_000, 1_200_000],
    ])
    expect(PRESET).toBe('superfast')
  })

  test('never upscales: rungs stop at the short side', () => {
    expect(sizes({ width: 3840, height: 2160, videoBitrate: null })).toEqual([
      '1080p 1920x1080',
      '720p 1280x720',
      '480p 854x480',
      '360p 640x360',
    ])
    expect(sizes({ width: 854, height: 480, videoBitrate: null })).toEqual([
      '480p 854x480',
      '360p 640x360',
    ])
    expect(sizes({ width: 1920, height: 1072, videoBitrate: null })).toEqual([
      '720p 1290x720',
      '480p 860x480',
      '360p 644x360',
    ])
  })

  test('a source below 360 gets one rung at its own (even) size', () => {
    expect(sizes({ width: 356, height: 200, videoBitrate: null })).toEqual(['200p 356x200'])
    expect(sizes({ width: 175, height: 99, videoBitrate: null })).toEqual(['98p 174x98'])
    const [tiny] = planLadder({ width: 64, height: 48, videoBitrate: null })
    expect(tiny!.bitrate).toBe(100_000) // floor
  })

  test('portrait sources are laid out on their short side (the width)', () => {
    expect(sizes({ width: 1080, height: 1920, videoBitrate: null })).toEqual([
      '1080p 1080x1920',
      '720p 720x1280',
      '480p 480x854',
      '360p 360x640',
    ])
    expect(sizes({ width: 480, height: 854, videoBitrate: null })).toEqual([
      '480p 480x854',
      '360p 360x640',
    ])
  })

  test('odd sizes round to even sides without growing past the source', () => {
    for (const r of planLadder({ width: 853, height: 481, videoBitrate: null })) {
      expect(r.width % 2).toBe(0)
      expect(r.height % 2).toBe(0)
      expect(r.width).toBeLessThanOrEqual(853)
    }
    expect(sizes({ width: 853, height: 481, videoBitrate: null })[0]).toBe('480p 852x480')
  })

  test('a rung never gets more bits than the source has', () => {
    const rungs = planLadder({ width: 1920, height: 1080, videoBitrate: 2_000_000 })
    expect(rungs.map((r) => r.bitrate)).toEqual([2_000_000, 2_000_000, 1_200_000, 600_000])
    expect(rungs[0]!.maxrate).toBe(2_140_000)
    expect(rungs[0]!.bufsize).toBe(4_000_000)
  })
})

test('key frames are forced at 0, 1, then every 4 s (segments 1, 3, 4, 4 … s; checked on real output in process-video.test.ts)', () => {
  expect(keyFrameExpression()).toBe(
    'expr:eq(n_forced,0)+eq(n_forced,1)*gte(t,1)+gte(n_forced,2)*gte(t,(n_forced-1)*4)',
  )
})

test('the scale graph decodes once and scales once per rung, square pixels, 4:2:0', () => {
  const rungs = planLadder({ width: 854, height: 480, videoBitrate: null })
  expect(scaleGraph(0, rungs, 25)).toBe(
    '[0:0]split=2[s0][s1];[s0]scale=854:480:flags=bicubic,setsar=1,format=yuv420p[v0];[s1]scale=640:360:flags=bicubic,setsar=1,format=yuv420p[v1]',
  )
  expect(scaleGraph(1, rungs.slice(1), 120)).toStartWith('[0:1]fps=60,split=1[s0];')
})

test('the preview fits 480 px on its long side', () => {
  expect(previewSize({ width: 854, height: 480 })).toEqual({ width: 480, height: 268 })
  expect(previewSize({ width: 480, height: 854 })).toEqual({ width: 268, height: 480 })
  expect(previewSize({ width: 356, height: 200 })).toEqual({ width: 356, height: 200 })
})

test("the MP4's size: the 720p rung's, or the source's own below it (checked on real output in e2e/templates.test.ts)", () => {
  expect(mp4Size({ width: 1920, height: 1080 })).toEqual({ width: 1280, height: 720 })
  expect(mp4Size({ width: 1080, height: 1920 })).toEqual({ width: 720, height: 1280 })
  expect(mp4Size({ width: 1422, height: 800 })).toEqual({ width: 1280, height: 720 })
  expect(mp4Size({ width: 1280, height: 720 })).toEqual({ width: 1280, height: 720 })
  expect(mp4Size({ width: 640, height: 360 })).toEqual({ width: 640, height: 360 })
  expect(mp4Size({ width: 64, height: 48 })).toEqual({ width: 64, height: 48 })
})

describe('playlists', () => {
  const media = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    '#EXT-X-TARGETDURATION:4',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-MAP:URI="init.mp4"',
    '#EXTINF:1.000000,',
    'seg_000.m4s',
    '#EXTINF:3.000000,',
    'seg_001.m4s',
    '#EXTINF:4.000000,',
    'seg_002.m4s',
    '#EXTINF:0.500000,',
    'seg_003.m4s',
    '#EXT-X-ENDLIST',
  ].join('\n')

  test('a media playlist gives its init, segments and their start times', () => {
    expect(parseMediaPlaylist(media)).toEqual({
      targetDuration: 4,
      init: 'init.mp4',
      segments: [
        { uri: 'seg_000.m4s', duration: 1, start: 0 },
        { uri: 'seg_001.m4s', duration: 3, start: 1 },
        { uri: 'seg_002.m4s', duration: 4, start: 4 },
        { uri: 'seg_003.m4s', duration: 0.5, start: 8 },
      ],
    })
  })

  test('peak bandwidth is over runs of 2–6 s, so the short first and last segments do not count alone', () => {
    const segments = [
      { duration: 1, bytes: 100_000 }, // 800 kbit/s alone: a key frame
      { duration: 3, bytes: 150_000 },
      { duration: 4, bytes: 200_000 },
      { duration: 0.5, bytes: 50_000 }, // 800 kbit/s alone
    ]
    const { peak, average } = bandwidthOf(segments, 4)
    expect(average).toBe(Math.ceil((500_000 * 8) / 8.5))
    // Best run: seg 0 + 1 = 250 KB in 4 s = 500 kbit/s.
    expect(peak).toBe(500_000)
    // A video shorter than half a target duration: its average is its peak.
    expect(bandwidthOf([{ duration: 1, bytes: 10_000 }], 4)).toEqual({
      peak: 80_000,
      average: 80_000,
    })
  })

  const audio: Rendition = {
    dir: 'audio',
    targetDuration: 4,
    init: 'init.mp4',
    segments: [],
    bandwidth: { peak: 200_000, average: 195_000 },
  }
  const variants = [
    {
      uri: '480p/index.m3u8',
      width: 854,
      height: 480,
      frameRate: 25,
      videoCodecs: 'avc1.64001f',
      bandwidth: { peak: 1_300_000, average: 1_100_000 },
    },
    {
      uri: '360p/index.m3u8',
      width: 640,
      height: 360,
      frameRate: 25,
      videoCodecs: 'avc1.64001e',
      bandwidth: { peak: 700_000, average: 600_000 },
    },
  ]

  test('the master lists one shared stereo audio group and the variants lowest first', () => {
    expect(masterPlaylist(variants, audio)).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:7',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Stereo",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/index.m3u8"',
        '#EXT-X-STREAM-INF:BANDWIDTH=900000,AVERAGE-BANDWIDTH=795000,RESOLUTION=640x360,FRAME-RATE=25.000,CODECS="avc1.64001e,mp4a.40.2",AUDIO="aud"',
        '360p/index.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=1500000,AVERAGE-BANDWIDTH=1295000,RESOLUTION=854x480,FRAME-RATE=25.000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"',
        '480p/index.m3u8',
        '',
      ].join('\n'),
    )
  })

  test('without sound the master has no audio group and promises no audio codec', () => {
    const text = masterPlaylist([variants[1]!], null)
    expect(text).not.toContain('EXT-X-MEDIA')
    expect(text).not.toContain('AUDIO=')
    expect(text).toContain(
      '#EXT-X-STREAM-INF:BANDWIDTH=700000,AVERAGE-BANDWIDTH=600000,RESOLUTION=640x360,FRAME-RATE=25.000,CODECS="avc1.64001e"\n360p/index.m3u8',
    )
  })
})

describe('the ladder’s time limit follows its work', () => {
  const minutes = (ms: number) => Math.round(ms / 60_000)
  test('a tiny picture gets minutes, a 1080p ladder hours, never past 6 h; unknown length 6 h', () => {
    const tiny = planLadder({ width: 64, height: 64, videoBitrate: null })
    const full = planLadder({ width: 1920, height: 1080, videoBitrate: null })
    // Three hours of 64×64: 10 minutes plus about 6.
    expect(minutes(ladderTimeoutMs(3 * 3600, tiny, 25))).toBe(16)
    // A 40 s 1080p30 master (measured at 137 s on a loaded machine): far above, far below hours.
    expect(minutes(ladderTimeoutMs(40, full, 30))).toBe(28)
    expect(ladderTimeoutMs(3 * 3600, full, 30)).toBe(6 * 3600_000)
    expect(ladderTimeoutMs(null, tiny, 25)).toBe(6 * 3600_000)
    // A sparse source is encoded at a constant rate: its tiny stated rate does not shrink the work.
    expect(ladderTimeoutMs(600, full, 0.01)).toBe(ladderTimeoutMs(600, full, 30))
  })
})
