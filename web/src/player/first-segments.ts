// A stream's first second played before hls.js has arrived. The press fetched the lowest rung's
// init and first segments (and the audio's) into memory (prefetch.ts); hls.js (146 KB on the
// wire, then its compile) is what a tap at once or a work page's play then waited on. Here the
// element's MediaSource gets a SourceBuffer per track and those files appended, so the element
// can show and play its first second at once; hls.js is handed the MediaSource with these
// SourceBuffers (its `attachMedia({ media, mediaSource, tracks })`, the path it uses to pass a
// MediaSource between its own players) and goes on from there. No React here, no hls.js.
import type { StreamStart } from '@contract/stream-start.ts'
import type { SourceBufferTrackSet } from 'hls.js'
import { lowestRung, prefetched, startOf } from './prefetch.ts'

const fourcc = (name: string) => [...name].map((char) => char.charCodeAt(0))

/** Where the 4-byte box type `name` first occurs in `bytes` (its size field is 4 bytes before). */
function boxAt(bytes: Uint8Array, name: string): number {
  const [a, b, c, d] = fourcc(name)
  for (let i = 4; i + 4 <= bytes.length; i++) {
    if (bytes[i] === a && bytes[i + 1] === b && bytes[i + 2] === c && bytes[i + 3] === d) return i
  }
  return -1
}

const hex = (value: number | undefined) => (value ?? 0).toString(16).padStart(2, '0')

/**
 * The RFC 6381 codec an fMP4 init segment's track is in: H.264 from its avcC record (profile,
 * compatibility, level), AAC from its esds (the audio object type), null for anything else.
 */
export function codecOfInit(data: ArrayBuffer): string | null {
  const bytes = new Uint8Array(data)
  const avcc = boxAt(bytes, 'avcC')
  if (avcc >= 0) {
    const record = bytes.subarray(avcc + 4, avcc + 8)
    if (record.length < 4 || record[0] !== 1) return null
    return `avc1.${hex(record[1])}${hex(record[2])}${hex(record[3])}`
  }
  if (boxAt(bytes, 'mp4a') < 0) return null
  const esds = boxAt(bytes, 'esds')
  // The decoder-specific info (tag 5) opens with the audio object type in its first 5 bits.
  for (let i = esds + 8; esds >= 0 && i < bytes.length - 2; i++) {
    if (bytes[i] !== 5) continue
    let at = i + 1
    while (at < bytes.length && ((bytes[at] ?? 0) & 0x80) !== 0) at++
    const objectType = (bytes[at + 1] ?? 0) >> 3
    if (objectType > 0) return `mp4a.40.${objectType}`
  }
  return 'mp4a.40.2'
}

/** Whatever prefetch.ts holds for `url`, or null when it holds nothing (nothing is fetched). */
async function held(url: string | null) {
  return url ? ((await prefetched(url)) ?? null) : null
}

function appended(buffer: SourceBuffer, data: ArrayBuffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      buffer.removeEventListener('updateend', done)
      buffer.removeEventListener('error', failed)
      resolve()
    }
    const failed = () => {
      buffer.removeEventListener('updateend', done)
      buffer.removeEventListener('error', failed)
      reject(new Error('appending the first segment failed'))
    }
    buffer.addEventListener('updateend', done)
    buffer.addEventListener('error', failed)
    buffer.appendBuffer(data)
  })
}

function opened(source: MediaSource, signal: AbortSignal): Promise<boolean> {
  if (source.readyState === 'open') return Promise.resolve(true)
  return new Promise((resolve) => {
    source.addEventListener('sourceopen', () => resolve(!signal.aborted), { once: true })
    signal.addEventListener('abort', () => resolve(false), { once: true })
  })
}

/**
 * The lowest rung's init and first segment, then the audio's (null where the stream has none):
 * as the page named them (`start`, docs/decisions/079-a-streams-first-files-named-in-the-page.md), or else as the master and playlists the press
 * fetched say. Null when neither is in hand.
 */
async function firstFiles(
  hlsUrl: string,
  start: StreamStart | null | undefined,
): Promise<[string, string, string | null, string | null] | null> {
  const master = new URL(hlsUrl, location.href).href
  const [video, audio] = start ?? []
  if (video) {
    const at = (path: string) => new URL(path, master).href
    return [
      at(video.init),
      at(video.segment),
      audio ? at(audio.init) : null,
      audio ? at(audio.segment) : null,
    ]
  }
  const list = await held(master)
  const rung = list && lowestRung(list)
  if (!rung) return null
  const [videoList, audioList] = await Promise.all([held(rung.video), held(rung.audio)])
  const videoStart = videoList && startOf(videoList)
  const audioStart = audioList && startOf(audioList)
  if (!videoStart?.init || (rung.audio && !audioStart?.init)) return null
  return [videoStart.init, videoStart.first, audioStart?.init ?? null, audioStart?.first ?? null]
}

/**
 * Appends the first segments of `hlsUrl`'s lowest rung (video and audio) to `source` from what
 * the press fetched; their codecs are read from the init segments. Resolves with the SourceBuffers as hls.js takes them over, or null when
 * anything is missing (nothing fetched, a codec this browser lacks, an append refused): the
 * caller then waits for hls.js as before, on a MediaSource without SourceBuffers.
 */
export async function appendFirstSegments(
  source: MediaSource,
  hlsUrl: string,
  start: StreamStart | null | undefined,
  signal: AbortSignal,
): Promise<SourceBufferTrackSet | null> {
  const files = await firstFiles(hlsUrl, start)
  if (!files) return null
  const [videoInit, videoFirst, audioInit, audioFirst] = await Promise.all(files.map(held))
  if (!videoInit || !videoFirst || (files[2] && (!audioInit || !audioFirst))) return null
  const codecs = {
    video: codecOfInit(videoInit.data),
    audio: audioInit ? codecOfInit(audioInit.data) : null,
  }
  if (!codecs.video?.startsWith('avc1.') || (audioInit && !codecs.audio?.startsWith('mp4a.'))) {
    return null
  }
  const videoType = `video/mp4; codecs="${codecs.video}"`
  const audioType = codecs.audio ? `audio/mp4; codecs="${codecs.audio}"` : null
  if (!MediaSource.isTypeSupported(videoType)) return null
  if (audioType && !MediaSource.isTypeSupported(audioType)) return null
  if (!(await opened(source, signal)) || source.sourceBuffers.length > 0) return null
  try {
    const videoBuffer = source.addSourceBuffer(videoType)
    const audioBuffer = audioType ? source.addSourceBuffer(audioType) : null
    const appendsOf = (buffer: SourceBuffer, init: ArrayBuffer, first: ArrayBuffer) =>
      appended(buffer, init.slice(0)).then(() => appended(buffer, first.slice(0)))
    await Promise.all([
      appendsOf(videoBuffer, videoInit.data, videoFirst.data),
      ...(audioBuffer && audioInit && audioFirst
        ? [appendsOf(audioBuffer, audioInit.data, audioFirst.data)]
        : []),
    ])
    if (signal.aborted) return null
    const tracks: SourceBufferTrackSet = {
      video: {
        id: 'main',
        container: 'video/mp4',
        codec: codecs.video,
        levelCodec: codecs.video,
        buffer: videoBuffer,
        listeners: [],
      },
    }
    if (audioBuffer && codecs.audio) {
      tracks.audio = {
        id: 'audio',
        container: 'audio/mp4',
        codec: codecs.audio,
        levelCodec: codecs.audio,
        buffer: audioBuffer,
        listeners: [],
      }
    }
    return tracks
  } catch (error) {
    console.warn('Could not start the stream before its player arrived', error)
    return null
  }
}
