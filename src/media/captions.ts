// What /media answers under a stream folder that depends on the work's caption tracks, which change
// after processing wrote the folder
// (docs/decisions/074-captions-in-a-master-rendered-per-request-from-the-stored-one.md): the master
// playlist with a SUBTITLES group when the work has tracks, and per track a subtitle media playlist
// and its one WebVTT segment, `<folder>/subs/<name>.m3u8` and `<folder>/subs/<name>.vtt`. Both are
// named by the track's stored file, a new name per upload, so they are cached like segments; the
// master keeps the playlists' short cache. A folder without tracks is served as before, untouched.
import { keyOfName, OUTPUT_FILES } from '../storage/layout.ts'
import type { MediaStore } from '../storage/store.ts'
import type { FolderCaptions } from '../videos/captions.ts'

export const SUBTITLES_DIR = 'subs'
const GROUP_ID = 'subs'
const SUB_FILE = /^([0-9a-f]{32})\.(m3u8|vtt)$/
const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl'
export const WEBVTT_TYPE = 'text/vtt; charset=utf-8'
// The fMP4 segments ffmpeg writes start at presentation time 0: cue time 0 is MPEG time 0.
const TIMESTAMP_MAP = 'X-TIMESTAMP-MAP=MPEGTS=0,LOCAL=00:00:00.000'

/** Whether a path under /media/ (split at `/`) may depend on captions: worth a lookup. */
export const mayBeCaptioned = (parts: readonly string[]) =>
  (parts.length === 2 && parts[1] === OUTPUT_FILES.master) ||
  (parts.length === 3 && parts[1] === SUBTITLES_DIR)

// A quoted-string attribute holds no double quote, CR or LF (RFC 8216 §4.2).
const attribute = (text: string) => text.replace(/["\r\n]/g, "'")

/** The master as processing wrote it, with the tracks' SUBTITLES group added. */
export function withSubtitles(master: string, tracks: FolderCaptions['tracks']): string {
  const media = tracks.map(
    (track) =>
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="${GROUP_ID}",NAME="${attribute(track.label)}",LANGUAGE="${attribute(track.language)}",DEFAULT=NO,AUTOSELECT=YES,URI="${SUBTITLES_DIR}/${stem(track.key)}.m3u8"`,
  )
  const out: string[] = []
  let placed = false
  for (const line of master.split('\n')) {
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      if (!placed) out.push(...media)
      placed = true
      out.push(`${line},SUBTITLES="${GROUP_ID}"`)
    } else out.push(line)
  }
  return out.join('\n')
}

/** A subtitle media playlist: the whole WebVTT file as one segment lasting the video. */
export function subtitlePlaylist(key: string, duration: number): string {
  const seconds = Math.max(duration, 0.001)
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${Math.ceil(seconds)}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    `#EXTINF:${seconds.toFixed(3)},`,
    `${stem(key)}.vtt`,
    '#EXT-X-ENDLIST',
    '',
  ].join('\n')
}

/** A stored WebVTT file as an HLS segment: the timestamp map in its header. */
export function asSegment(vtt: string): string {
  const end = vtt.indexOf('\n')
  return end < 0
    ? `${vtt}\n${TIMESTAMP_MAP}\n`
    : `${vtt.slice(0, end)}\n${TIMESTAMP_MAP}${vtt.slice(end)}`
}

const stem = (key: string) => key.slice(0, key.lastIndexOf('.'))

// Masters never change under their folder's name: kept here, a captioned master costs no read
// of the store after its first. Bounded: the oldest goes first.
const MASTERS_KEPT = 256
const masters = new Map<string, string>()

async function storedText(store: MediaStore, key: string): Promise<string | undefined> {
  const got = await store.storage.read(key)
  return got && (await new Response(got.body).text())
}

async function masterText(store: MediaStore, folder: string): Promise<string | undefined> {
  const key = `streams/${folder}/${OUTPUT_FILES.master}`
  const kept = masters.get(key)
  if (kept !== undefined) return kept
  const text = await storedText(store, key)
  if (text === undefined) return undefined
  if (masters.size >= MASTERS_KEPT) masters.delete(masters.keys().next().value!)
  masters.set(key, text)
  return text
}

function answer(request: Request, body: string, type: string, cacheControl: string): Response {
  const headers = {
    'Content-Type': type,
    'Cache-Control': cacheControl,
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': String(Buffer.byteLength(body)),
  }
  return new Response(request.method === 'HEAD' ? null : body, { headers })
}

const notFound = (cacheControl: string) =>
  new Response('Not found', { status: 404, headers: { 'Cache-Control': cacheControl } })

/**
 * The answer for a captioned path (`mayBeCaptioned`) of a folder with `captions`; undefined
 * when the folder has none and the path is its master (served as stored). `playlistCache` is
 * for the master, `fileCache` for what is named by a track.
 */
export async function serveCaptioned(
  request: Request,
  parts: readonly string[],
  store: MediaStore,
  captions: FolderCaptions | undefined,
  cache: { playlist: string; file: string },
): Promise<Response | undefined> {
  const [folder = '', second = '', third] = parts
  if (third === undefined) {
    if (!captions) return undefined
    const master = await masterText(store, folder)
    if (master === undefined) return notFound(cache.playlist)
    return answer(request, withSubtitles(master, captions.tracks), PLAYLIST_TYPE, cache.playlist)
  }
  const match = second === SUBTITLES_DIR ? SUB_FILE.exec(third) : null
  const track = match && captions?.tracks.find((t) => t.key === `${match[1]}.vtt`)
  if (!match || !track) return notFound(cache.file)
  if (match[2] === 'm3u8') {
    return answer(
      request,
      subtitlePlaylist(track.key, captions!.duration),
      PLAYLIST_TYPE,
      cache.file,
    )
  }
  const key = keyOfName(track.key)
  const vtt = key && (await storedText(store, key))
  if (vtt === undefined || vtt === '') return notFound(cache.file)
  return answer(request, asSegment(vtt), WEBVTT_TYPE, cache.file)
}
