// The names a processing run gives its files. The media worker (src/processing/) writes them and
// /media serves nothing else (store.ts builds its patterns from these), so the two cannot drift.

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
