// Reading the media playlists ffmpeg wrote and writing the master playlist ourselves: ffmpeg's
// own master lists the audio rendition as an audio-only variant (a native player may switch to
// it: sound, frozen picture), gives nominal bandwidths and no FRAME-RATE. Ours states what the
// produced files measure.
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { RENDITION_FILES } from '../storage/layout.ts'
import { AUDIO } from './ladder.ts'

export type Segment = { uri: string; duration: number; start: number }
export type MediaPlaylist = { targetDuration: number; init: string | null; segments: Segment[] }

/** Parses an HLS media playlist (the subset ffmpeg's hls muxer writes). */
export function parseMediaPlaylist(text: string): MediaPlaylist {
  let targetDuration = 0
  let init: string | null = null
  let pending: number | null = null
  let start = 0
  const segments: Segment[] = []
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line.startsWith('#EXT-X-TARGETDURATION:')) targetDuration = Number(line.slice(22))
    else if (line.startsWith('#EXT-X-MAP:')) init = /URI="([^"]+)"/.exec(line)?.[1] ?? null
    else if (line.startsWith('#EXTINF:')) pending = Number.parseFloat(line.slice(8))
    else if (line && !line.startsWith('#') && pending !== null) {
      segments.push({ uri: line, duration: pending, start })
      start += pending
      pending = null
    }
  }
  return { targetDuration, init, segments }
}

/**
 * A media playlist we write ourselves, as ffmpeg's hls muxer writes one (fMP4, its init): VOD
 * with its end (the audio's regrouped segments), or EVENT without one (a growing stream, whose
 * target duration is fixed up front since it may not change while it grows).
 */
export function mediaPlaylistText(playlist: {
  type: 'VOD' | 'EVENT'
  targetDuration: number
  init: string
  segments: readonly { uri: string; duration: number }[]
}): string {
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${playlist.targetDuration}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    `#EXT-X-PLAYLIST-TYPE:${playlist.type}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-MAP:URI="${playlist.init}"`,
    ...playlist.segments.flatMap((s) => [`#EXTINF:${s.duration.toFixed(6)},`, s.uri]),
    ...(playlist.type === 'VOD' ? ['#EXT-X-ENDLIST'] : []),
    '',
  ].join('\n')
}

/** A finished run's media playlist as ffmpeg wrote it while it grew (EVENT), marked VOD. */
export function finishedPlaylist(text: string): string {
  return text.replace(/^#EXT-X-PLAYLIST-TYPE:EVENT$/m, () => '#EXT-X-PLAYLIST-TYPE:VOD')
}

export type Bandwidth = { peak: number; average: number }

/**
 * Peak and average bit/s of segments. The peak is RFC 8216's "peak segment bit rate": the
 * highest rate of any run of consecutive segments lasting 0.5–1.5 target durations, so the
 * deliberately short first segment (mostly one key frame) does not count alone.
 */
export function bandwidthOf(
  segments: readonly { duration: number; bytes: number }[],
  targetDuration: number,
): Bandwidth {
  const totalBytes = segments.reduce((sum, s) => sum + s.bytes, 0)
  const totalSeconds = segments.reduce((sum, s) => sum + s.duration, 0)
  const average = totalSeconds > 0 ? (totalBytes * 8) / totalSeconds : 0
  const shortest = 0.5 * targetDuration
  const longest = 1.5 * targetDuration
  let peak = 0
  for (let i = 0; i < segments.length; i++) {
    let bytes = 0
    let seconds = 0
    for (let j = i; j < segments.length; j++) {
      bytes += segments[j]!.bytes
      seconds += segments[j]!.duration
      // A single segment longer than the window still counts; a run that grew too long does not.
      if (seconds > longest && j > i) break
      if (seconds >= shortest && seconds > 0) peak = Math.max(peak, (bytes * 8) / seconds)
    }
  }
  // Under half a target duration in all: the whole video is the only "run".
  return { peak: Math.ceil(Math.max(peak, average)), average: Math.ceil(average) }
}

export type Rendition = MediaPlaylist & { dir: string; bandwidth: Bandwidth }

/** Reads `<outDir>/<dir>/index.m3u8` and measures its segments on disk. */
export async function readRendition(outDir: string, dir: string): Promise<Rendition> {
  const text = await Bun.file(join(outDir, dir, RENDITION_FILES.playlist)).text()
  const playlist = parseMediaPlaylist(text)
  if (playlist.segments.length === 0)
    throw new Error(`${dir}/${RENDITION_FILES.playlist} lists no segments`)
  const sized = await Promise.all(
    playlist.segments.map(async (s) => ({
      duration: s.duration,
      bytes: (await stat(join(outDir, dir, s.uri))).size,
    })),
  )
  return { ...playlist, dir, bandwidth: bandwidthOf(sized, playlist.targetDuration) }
}

const hex = (byte: number) => byte.toString(16).padStart(2, '0')

/**
 * The RFC 6381 string of the H.264 stream in an init segment ("avc1.64001f"): profile,
 * constraint flags and level as the encoder wrote them into the avcC box.
 */
export async function avcCodecString(initPath: string): Promise<string> {
  const bytes = new Uint8Array(await Bun.file(initPath).arrayBuffer())
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf('avcC')
  // avcC: configurationVersion(1), AVCProfileIndication, profile_compatibility, AVCLevelIndication
  if (at < 0 || at + 8 > bytes.length || bytes[at + 4] !== 1) {
    throw new Error(`${initPath} has no H.264 configuration (avcC)`)
  }
  return `avc1.${hex(bytes[at + 5]!)}${hex(bytes[at + 6]!)}${hex(bytes[at + 7]!)}`
}

export type Variant = {
  uri: string
  width: number
  height: number
  frameRate: number | null
  videoCodecs: string
  bandwidth: Bandwidth
}

/** What the master states for a variant: its bandwidths with the audio it plays with, its codecs. */
export function streamInfo(
  variant: Variant,
  audio: Rendition | null,
): { bandwidth: number; averageBandwidth: number; codecs: string } {
  return {
    bandwidth: variant.bandwidth.peak + (audio?.bandwidth.peak ?? 0),
    averageBandwidth: variant.bandwidth.average + (audio?.bandwidth.average ?? 0),
    codecs: audio ? `${variant.videoCodecs},${AUDIO.codecs}` : variant.videoCodecs,
  }
}

/**
 * The master playlist: the audio group when there is sound, then the variants from the lowest
 * up, since a native player (Safari) starts with the first listed and we start low and climb.
 */
export function masterPlaylist(variants: readonly Variant[], audio: Rendition | null): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS']
  if (audio) {
    lines.push(
      `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="${AUDIO.groupId}",NAME="${AUDIO.name}",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="${AUDIO.channels}",URI="${audio.dir}/${RENDITION_FILES.playlist}"`,
    )
  }
  const listed = variants
    .map((v) => ({ v, info: streamInfo(v, audio) }))
    .sort((a, b) => a.info.bandwidth - b.info.bandwidth)
  for (const { v, info } of listed) {
    const attributes = [
      `BANDWIDTH=${info.bandwidth}`,
      `AVERAGE-BANDWIDTH=${info.averageBandwidth}`,
      `RESOLUTION=${v.width}x${v.height}`,
      ...(v.frameRate !== null ? [`FRAME-RATE=${v.frameRate.toFixed(3)}`] : []),
      `CODECS="${info.codecs}"`,
      ...(audio ? [`AUDIO="${AUDIO.groupId}"`] : []),
    ]
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, v.uri)
  }
  return `${lines.join('\n')}\n`
}
