import { describe, expect, test } from 'bun:test'
import { decodeStreamStart, encodeStreamStart, streamStartOf } from '@contract/stream-start.ts'
import { type Fetched, lowestRung, startOf } from './prefetch.ts'

const file = (url: string, text: string): Fetched => ({
  url,
  data: new TextEncoder().encode(text).buffer as ArrayBuffer,
  start: 0,
  first: 0,
  end: 0,
})

// As src/processing/playlists.ts writes a master: the audio group, then variants lowest first
// (listed here out of order, as another encoder might).
const MASTER = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Stereo",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/index.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=2400000,AVERAGE-BANDWIDTH=2000000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"
720p/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=900000,AVERAGE-BANDWIDTH=700000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",AUDIO="aud"
360p/index.m3u8
`

const MEDIA = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:4
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-MAP:URI="init.mp4"
#EXTINF:1.000000,
seg_000.m4s
#EXTINF:3.000000,
seg_001.m4s
#EXT-X-ENDLIST
`

describe("a stream's start", () => {
  test('the lowest rung by bandwidth and its audio, resolved against where the master came from', () => {
    const master = file('https://cdn.example/streams/abc/master.m3u8', MASTER)
    expect(lowestRung(master)).toEqual({
      video: 'https://cdn.example/streams/abc/360p/index.m3u8',
      audio: 'https://cdn.example/streams/abc/audio/index.m3u8',
    })
  })

  test('a master without audio has none; one without variants has no start', () => {
    const silent = MASTER.split('\n')
      .filter((line) => !line.startsWith('#EXT-X-MEDIA'))
      .map((line) => line.replace(',AUDIO="aud"', ''))
      .join('\n')
    expect(lowestRung(file('https://x.test/m/master.m3u8', silent))?.audio).toBeNull()
    expect(lowestRung(file('https://x.test/m/master.m3u8', '#EXTM3U\n'))).toBeNull()
  })

  test("a media playlist's init segment and first segment", () => {
    const playlist = file('https://x.test/m/360p/index.m3u8', MEDIA)
    expect(startOf(playlist)).toEqual({
      init: 'https://x.test/m/360p/init.mp4',
      first: 'https://x.test/m/360p/seg_000.m4s',
    })
    expect(startOf(file('https://x.test/m/360p/index.m3u8', '#EXTM3U\n'))).toBeNull()
  })

  test('a playlist larger than any we write is not parsed', () => {
    const huge = `${MEDIA}${'#'.repeat(600 * 1024)}\n`
    expect(startOf(file('https://x.test/m/360p/index.m3u8', huge))).toBeNull()
  })
})

describe('the start a play button names (data-stream-start)', () => {
  const start = [
    { playlist: '360p/index.m3u8', init: '360p/init.mp4', segment: '360p/seg_000.m4s' },
    { playlist: 'audio/index.m3u8', init: 'audio/init.mp4', segment: 'audio/seg_000.m4s' },
  ]

  test('reads back what it wrote, the video rendition first', () => {
    const attribute = encodeStreamStart(start)
    expect(attribute).toBe(
      '360p/index.m3u8 360p/init.mp4 360p/seg_000.m4s;audio/index.m3u8 audio/init.mp4 audio/seg_000.m4s',
    )
    expect(decodeStreamStart(attribute)).toEqual(start)
  })

  test("anything but plain paths under the master's folder is ignored, whole", () => {
    for (const attribute of [
      null,
      '',
      '360p/index.m3u8 360p/init.mp4',
      '360p/index.m3u8 360p/init.mp4 360p/seg_000.m4s extra',
      '../x/index.m3u8 360p/init.mp4 360p/seg_000.m4s',
      '360p/index.m3u8 //evil.test/init.mp4 360p/seg_000.m4s',
      'https://evil.test/a.m3u8 360p/init.mp4 360p/seg_000.m4s',
      '/media/x/index.m3u8 360p/init.mp4 360p/seg_000.m4s',
      `${encodeStreamStart(start)};360p/index.m3u8 ../init.mp4 360p/seg_000.m4s`,
    ]) {
      expect({ attribute, start: decodeStreamStart(attribute) }).toEqual({ attribute, start: null })
    }
    expect(streamStartOf([{ playlist: '360p/index.m3u8', init: 7, segment: 'a/b.m4s' }])).toBeNull()
    expect(streamStartOf('360p/index.m3u8')).toBeNull()
  })
})
