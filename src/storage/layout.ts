// The media layout, in one place: every name the store gives (stored files, a processing run's
// folder and the files inside it), every key those names map to, which renditions a source gets
// and the files a player asks for first. Nothing is named from what a client sent: a name comes
// from 128 random bits, a key from a name the database keeps, and every engine checks a key
// against these rules before touching it (partsOfKey). The media worker writes only these names
// and /media serves nothing else, so the two cannot drift.
//
// Keys: `masters/<name>` for videos, `images/<name>` for thumbnails, logos and site images,
// `captions/<name>` for caption tracks (WebVTT), `streams/<folder>/…` for a processing run's
// outputs. A public copy of a stream folder or an image
// (docs/decisions/087-public-copies-under-public-for-shown-works-only.md) is `public/<copy
// id>/<that key>`: the only keys a bucket may let anyone read.
import type { MediaType } from '../contract/file-rules.ts'
import type { StreamStart } from '../contract/stream-start.ts'
import { StorageError } from '../errors.ts'

// ---- Stored files: names and types

/**
 * What the store keeps: the video kinds' types, the site's converted images (AVIF, SVG), and
 * caption tracks (WebVTT).
 */
export type StoredType = MediaType | 'image/avif' | 'image/svg+xml' | 'text/vtt'

const EXTENSIONS: Record<StoredType, string> = {
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/ogg': 'ogv',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'text/vtt': 'vtt',
}
const TYPES = new Map(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type as StoredType]))

// 128 random bits per stored file: a replaced file gets a new name, so its URL can be cached
// immutable, and a name never reveals or depends on anything a client sent.
const NAME_RE = /^[0-9a-f]{32}\.(mp4|webm|ogv|jpg|png|webp|avif|svg|vtt)$/

/** The stored type of a name, or undefined when the name is not one the store could have made. */
export function typeOfName(name: string): StoredType | undefined {
  if (!NAME_RE.test(name)) return undefined
  return TYPES.get(name.slice(name.lastIndexOf('.') + 1))
}

/** A stored file's key and type; undefined for anything that is not a store name. */
export function storedFile(name: string): { key: string; type: StoredType } | undefined {
  const type = typeOfName(name)
  const key = type && keyOfName(name)
  return type && key ? { key, type } : undefined
}

export const mediaUrl = (name: string) => `/media/${name}`

const randomHex = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')

export function newName(type: StoredType): string {
  return `${randomHex()}.${EXTENSIONS[type]}`
}

// ---- Keys

const VIDEO_NAME = /^[0-9a-f]{32}\.(mp4|webm|ogv)$/
const IMAGE_NAME = /^[0-9a-f]{32}\.(jpg|png|webp|avif|svg)$/
const CAPTIONS_NAME = /^[0-9a-f]{32}\.vtt$/
const FOLDER = /^[0-9a-f]{32}$/

export const KEY_PREFIXES = ['masters/', 'images/', 'captions/', 'streams/'] as const

/** Where public copies live; a bucket's policy makes this prefix, and only it, readable. */
export const PUBLIC_PREFIX = 'public/'
const COPY_ID = /^[0-9a-f]{32}$/

/** The key of `key`'s public copy `copyId`; only stream folders and images have one. */
export function publicKey(copyId: string, key: string): string {
  if (!COPY_ID.test(copyId) || !/^(streams|images)\//.test(key)) {
    throw new StorageError(`no public copy of ${key}`)
  }
  return `${PUBLIC_PREFIX}${copyId}/${key}`
}

/** The copy id and the copied key of a public copy's key; undefined for any other key. */
export function publicParts(key: string): { copyId: string; key: string } | undefined {
  if (!key.startsWith(PUBLIC_PREFIX)) return undefined
  const rest = key.slice(PUBLIC_PREFIX.length)
  const slash = rest.indexOf('/')
  const copyId = rest.slice(0, slash)
  const copied = rest.slice(slash + 1)
  if (slash < 0 || !COPY_ID.test(copyId) || !/^(streams|images)\//.test(copied)) return undefined
  return { copyId, key: copied }
}

/** The key of a stored file's name; undefined for a name the store could not have made. */
export function keyOfName(name: string): string | undefined {
  if (VIDEO_NAME.test(name)) return `masters/${name}`
  if (IMAGE_NAME.test(name)) return `images/${name}`
  if (CAPTIONS_NAME.test(name)) return `captions/${name}`
  return undefined
}

/** The key prefix of a run's folder (with its trailing slash). */
export function keyOfFolder(folder: string): string | undefined {
  return FOLDER.test(folder) ? `streams/${folder}/` : undefined
}

/** The stored name or run folder a key belongs to (what rows name); undefined for a stray key. */
export function ownerOfKey(key: string): string | undefined {
  const [prefix, first = '', ...rest] = key.split('/')
  if (prefix === 'masters' && rest.length === 0 && VIDEO_NAME.test(first)) return first
  if (prefix === 'images' && rest.length === 0 && IMAGE_NAME.test(first)) return first
  if (prefix === 'captions' && rest.length === 0 && CAPTIONS_NAME.test(first)) return first
  if (prefix === 'streams' && FOLDER.test(first) && rest.length > 0) return first
  return undefined
}

// Inside a run's folder: plain names, no dot files, at most two levels (rung, then file).
const PART = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/

/**
 * A key split into its owner (a stored name or a run's folder) and the parts below a run's folder
 * (none for masters and images); undefined for a key the store could not have made. Every engine
 * goes through this before touching a key, so no engine can be talked into writing a stray.
 */
export function partsOfKey(key: string): { owner: string; below: string[] } | undefined {
  const copy = publicParts(key)
  if (copy) return partsOfKey(copy.key)
  const owner = ownerOfKey(key)
  if (!owner) return undefined
  if (!key.startsWith('streams/')) return { owner, below: [] }
  const below = key.split('/').slice(2)
  return below.length <= 2 && below.every((part) => PART.test(part)) ? { owner, below } : undefined
}

/** `partsOfKey`, for a key about to be used: throws for a key the store could not have made. */
export function checkedKey(key: string): { owner: string; below: string[] } {
  const parts = partsOfKey(key)
  if (!parts) throw new StorageError(`not a storage key: ${key}`)
  return parts
}

// ---- A processing run's files

/** At the top of a run's folder. */
export const OUTPUT_FILES = {
  master: 'master.m3u8',
  mp4: 'video.mp4',
  preview: 'preview.mp4',
} as const

/** Inside each rendition's folder (`1080p`…`360p`, a source-sized rung, `audio`). */
export const RENDITION_FILES = {
  playlist: 'index.m3u8',
  init: 'init.mp4',
  /** ffmpeg's template for the media segments: `seg_000.m4s`, `seg_001.m4s`… */
  segments: 'seg_%03d.m4s',
} as const

/** The name ffmpeg's `%03d` template gives segment `index` (numbered from 0). */
export function segmentName(template: string, index: number): string {
  return template.replace(/%0(\d)d/, (_, width: string) =>
    String(index).padStart(Number(width), '0'),
  )
}

// Derived outputs: one folder per processing run, named by 128 random bits like the files (a
// reprocess makes a new folder, so every URL inside one can be cached immutable).
const FOLDER_RE = /^[0-9a-f]{32}$/
export const JOB_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
export const JOB_SCRATCH_PREFIX = 'job-'

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// Inside a folder: the top files, and one level of renditions (`1080p`…`360p`, a source-sized
// rung such as `240p`, and `audio`) holding a playlist, init segments and media segments. Each
// level has its own pattern, so no request can name anything else (no `..`, no dot files).
const TOP_FILE_RE = new RegExp(`^(${Object.values(OUTPUT_FILES).map(literal).join('|')})$`)
const RENDITION_RE = /^(audio|\d{1,4}p)$/
const [initStem, initExt] = RENDITION_FILES.init.split('.') as [string, string]
const [segmentStem, segmentExt] = RENDITION_FILES.segments.split('%03d') as [string, string]
const RENDITION_FILE_RE = new RegExp(
  `^(${literal(RENDITION_FILES.playlist)}|${initStem}(_\\d{1,2})?\\.${initExt}|${segmentStem}\\d{3,6}${literal(segmentExt)})$`,
)

const PLAYLIST = 'application/vnd.apple.mpegurl'
const DERIVED_TYPES: Record<string, string> = {
  m3u8: PLAYLIST,
  m4s: 'video/iso.segment',
  mp4: 'video/mp4',
}

export const newFolderName = randomHex

export const isFolderName = (name: string) => FOLDER_RE.test(name)

/** URLs of a derived folder's outputs, as the video answers carry them. */
export const streamsUrls = (folder: string) => ({
  hls: `/media/${folder}/${OUTPUT_FILES.master}`,
  mp4: `/media/${folder}/${OUTPUT_FILES.mp4}`,
  preview: `/media/${folder}/${OUTPUT_FILES.preview}`,
})

/**
 * A derived file's key and type from the parts of a URL after /media/ (folder, then one or two
 * names); undefined for anything the pipeline does not write.
 */
export function derivedFile(parts: string[]): { key: string; type: string } | undefined {
  const [folder = '', first = '', second] = parts
  if (!FOLDER_RE.test(folder) || parts.length > 3) return undefined
  const ok =
    second === undefined
      ? TOP_FILE_RE.test(first)
      : RENDITION_RE.test(first) && RENDITION_FILE_RE.test(second)
  if (!ok) return undefined
  const file = second ?? first
  const type = DERIVED_TYPES[file.slice(file.lastIndexOf('.') + 1)]
  return type ? { key: `streams/${parts.join('/')}`, type } : undefined
}

/** The job id of a scratch entry `job-<job id>`, or undefined for any other name. */
export function scratchJobId(name: string): string | undefined {
  if (!name.startsWith(JOB_SCRATCH_PREFIX)) return undefined
  const id = name.slice(JOB_SCRATCH_PREFIX.length)
  return JOB_ID_RE.test(id) ? id : undefined
}

// ---- Renditions: which a source gets, by its displayed size (how each is encoded is
// processing/ladder.ts's), and the files a player asks for first

/** The standard rungs' short sides, largest first. */
export const RUNG_SHORT_SIDES = [1080, 720, 480, 360] as const

/** The folder of the one audio rendition every video variant shares. */
export const AUDIO_DIR = 'audio'

/** The faststart MP4 for browsers without HLS/MSE: a remux of this rung (or the top one below it). */
export const MP4_SHORT_SIDE = 720

export type RenditionSize = {
  /** Folder and label: the short side, e.g. "720p". */
  name: string
  width: number
  height: number
}

const floorEven = (n: number) => Math.max(2, Math.floor(n / 2) * 2)
const roundEven = (n: number) => Math.max(2, Math.round(n / 2) * 2)

/**
 * The renditions for a source of this displayed size, largest first: every standard rung whose
 * short side the source reaches (never an upscale), or one rung at the source's own size when
 * it is smaller than the lowest. Even sides (H.264 4:2:0), aspect kept.
 */
export function renditionSizes(source: { width: number; height: number }): RenditionSize[] {
  const landscape = source.width >= source.height
  const short = Math.min(source.width, source.height)
  const long = Math.max(source.width, source.height)
  const fitting = RUNG_SHORT_SIDES.filter((side) => side <= short)
  if (fitting.length === 0) {
    const width = floorEven(source.width)
    const height = floorEven(source.height)
    return [{ name: `${Math.min(width, height)}p`, width, height }]
  }
  return fitting.map((side) => {
    const other = Math.min(roundEven((side * long) / short), floorEven(long))
    return { name: `${side}p`, width: landscape ? other : side, height: landscape ? side : other }
  })
}

/** The short side of a rendition. */
export function shortSide(rung: { width: number; height: number }): number {
  return Math.min(rung.width, rung.height)
}

/** Which of a source's renditions the MP4 is a remux of: the first at most MP4_SHORT_SIDE. */
export function mp4RungIndex(rungs: readonly { width: number; height: number }[]): number {
  return rungs.findIndex((rung) => shortSide(rung) <= MP4_SHORT_SIDE)
}

/** The MP4's frame size for a source of this displayed size (what the row stores). */
export function mp4Size(source: { width: number; height: number }): {
  width: number
  height: number
} {
  const rungs = renditionSizes(source)
  // The lowest rung, or the one at the source's size below it, is never above the MP4's side.
  const rung = rungs[mp4RungIndex(rungs)]!
  return { width: rung.width, height: rung.height }
}

// The files a player asks for first: the lowest rung (the one hls.js starts on, and the first a
// native player is offered) and the audio rendition, each by its playlist, init segment and first
// media segment. Derived, not stored: the names follow from the source's displayed size and
// whether it has sound, and a change to the ladder comes with `media:reprocess`. A wrong guess
// only costs the requests it made: the player still follows the master.

/** Segments are numbered from 0. */
const FIRST_SEGMENT = segmentName(RENDITION_FILES.segments, 0)

const startIn = (dir: string) => ({
  playlist: `${dir}/${RENDITION_FILES.playlist}`,
  init: `${dir}/${RENDITION_FILES.init}`,
  segment: `${dir}/${FIRST_SEGMENT}`,
})

/** Null when the size is not known (the streams could not have been made from it). */
export function streamStartFor(source: {
  width: number | null
  height: number | null
  hasAudio: boolean
}): StreamStart | null {
  const { width, height } = source
  if (!width || !height) return null
  const lowest = renditionSizes({ width, height }).at(-1)
  if (!lowest) return null
  return [startIn(lowest.name), ...(source.hasAudio ? [startIn(AUDIO_DIR)] : [])]
}
