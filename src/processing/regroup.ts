// The audio rendition cut like the video. ffmpeg's hls muxer cuts audio only at one fixed length
// (every audio frame is a key frame, so there is no forced key frame to cut at), and a 4 s first
// segment is 96 KB a phone must fetch before its first picture. So the audio is written in 1 s
// pieces and regrouped here into the video's plan: 1 s, then up to the next 4 s mark, aligned with
// the video's segments. A regrouped segment is its pieces' movie fragments one after another
// (moof + mdat pairs, the way a low-latency HLS segment is its parts), under the first piece's
// `styp`; each piece's `sidx` is dropped, since its offsets describe that piece alone.
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { RENDITION_FILES, segmentName } from '../storage/layout.ts'
import { segmentIndexAt } from './ladder.ts'
import { mediaPlaylistText, parseMediaPlaylist, type Segment } from './playlists.ts'

/** Top-level ISO BMFF boxes of a file: type and byte range. */
function boxesOf(bytes: Uint8Array): { type: string; start: number; end: number }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const boxes: { type: string; start: number; end: number }[] = []
  let at = 0
  while (at + 8 <= bytes.length) {
    let size = view.getUint32(at)
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
    if (size === 1) {
      if (at + 16 > bytes.length) break
      size = Number(view.getBigUint64(at + 8))
    } else if (size === 0) {
      size = bytes.length - at
    }
    if (size < 8 || at + size > bytes.length) throw new Error(`a ${type} box runs past its file`)
    boxes.push({ type, start: at, end: at + size })
    at += size
  }
  if (at !== bytes.length) throw new Error('a segment ends inside a box header')
  return boxes
}

/** One segment made of `pieces` (their bytes, in order). */
export function joinPieces(pieces: readonly Uint8Array[]): Uint8Array {
  const parts: Uint8Array[] = []
  pieces.forEach((bytes, i) => {
    for (const box of boxesOf(bytes)) {
      if (box.type === 'sidx' || (box.type === 'styp' && i > 0)) continue
      parts.push(bytes.subarray(box.start, box.end))
    }
  })
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0))
  let at = 0
  for (const part of parts) {
    joined.set(part, at)
    at += part.byteLength
  }
  return joined
}

/** The pieces grouped by the segment of the video's plan each starts in. */
export function groupPieces(pieces: readonly Segment[]): Segment[][] {
  const groups = new Map<number, Segment[]>()
  // A piece starts a hair after its mark (the first frame past it): a 1 ms tolerance keeps that
  // hair from pushing a piece that starts on a mark into the segment before.
  for (const piece of pieces) {
    const index = segmentIndexAt(piece.start + 0.001)
    groups.set(index, [...(groups.get(index) ?? []), piece])
  }
  return [...groups.keys()].sort((a, b) => a - b).map((index) => groups.get(index)!)
}

/** The playlist of the regrouped segments (VOD, fMP4, its init). */
function playlistText(init: string, segments: readonly { duration: number }[]): string {
  // RFC 8216: each EXTINF, rounded to the nearest integer, is at most the target duration.
  const longest = Math.max(...segments.map((segment) => Math.round(segment.duration)))
  return mediaPlaylistText({
    type: 'VOD',
    targetDuration: Math.max(1, longest),
    init,
    segments: segments.map((segment, i) => ({
      uri: segmentName(RENDITION_FILES.segments, i),
      duration: segment.duration,
    })),
  })
}

/**
 * Rewrites `<outDir>/<dir>`'s 1 s pieces as the segments of the video's plan: new segment files
 * under RENDITION_FILES.segments, a new playlist, and no piece left.
 */
export async function regroupPieces(outDir: string, dir: string): Promise<void> {
  const folder = join(outDir, dir)
  const playlistPath = join(folder, RENDITION_FILES.playlist)
  const playlist = parseMediaPlaylist(await readFile(playlistPath, 'utf8'))
  if (playlist.segments.length === 0) throw new Error(`${dir}/${RENDITION_FILES.playlist} is empty`)
  const groups = groupPieces(playlist.segments)
  const written: { duration: number }[] = []
  for (const [i, group] of groups.entries()) {
    const pieces = await Promise.all(group.map((piece) => readFile(join(folder, piece.uri))))
    await writeFile(join(folder, segmentName(RENDITION_FILES.segments, i)), joinPieces(pieces))
    written.push({ duration: group.reduce((sum, piece) => sum + piece.duration, 0) })
  }
  await writeFile(playlistPath, playlistText(playlist.init ?? RENDITION_FILES.init, written))
  await Promise.all(playlist.segments.map((piece) => rm(join(folder, piece.uri), { force: true })))
}
