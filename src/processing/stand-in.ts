// TEMPORARY stand-in for src/processing/transcode.ts (branch pmedia), with the same interface,
// so the queue and the job handler can be built and tested before that module lands. Removed by
// the merge of pmedia; nothing else imports it.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'

export class ProcessingError extends Error {
  override readonly name = 'ProcessingError'
  constructor(readonly reason: string) {
    super(reason)
  }
}

export type MediaProbe = {
  duration: number | null
  width: number
  height: number
  frameRate: number | null
  videoCodec: string
  audioCodec: string | null
  bitrate: number | null
  hasAudio: boolean
}

type Options = {
  source: string
  outDir: string
  signal?: AbortSignal
  onProgress?: (percent: number) => void
}

async function run(args: string[], signal?: AbortSignal, onLine?: (line: string) => void) {
  const proc = Bun.spawn(['setpriv', '--pdeathsig', 'KILL', 'nice', '-n', '10', ...args], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const kill = () => proc.kill('SIGKILL')
  signal?.addEventListener('abort', kill)
  let out = ''
  for await (const chunk of proc.stdout) {
    const text = new TextDecoder().decode(chunk)
    out += text
    if (onLine) for (const line of text.split('\n')) onLine(line)
  }
  const code = await proc.exited
  signal?.removeEventListener('abort', kill)
  signal?.throwIfAborted()
  if (code !== 0) throw new Error((await new Response(proc.stderr).text()).trim().slice(-400))
  return out
}

export async function processVideo(o: Options) {
  const probed = await run(
    ['ffprobe', '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', o.source],
    o.signal,
  ).catch(() => {
    throw new ProcessingError('The file could not be read as a video.')
  })
  const info = JSON.parse(probed) as {
    format: { duration?: string; bit_rate?: string }
    streams: { codec_type: string; codec_name: string; width?: number; height?: number }[]
  }
  const video = info.streams.find((s) => s.codec_type === 'video')
  const audio = info.streams.find((s) => s.codec_type === 'audio')
  if (!video) throw new ProcessingError('The file has no video stream.')
  const duration = Number(info.format.duration ?? 0) || null
  await mkdir(join(o.outDir, '360p'), { recursive: true })
  if (audio) await mkdir(join(o.outDir, 'audio'), { recursive: true })
  const hls = (dir: string) => [
    ...['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4'],
    ...['-hls_fmp4_init_filename', 'init.mp4'],
    ...[
      '-hls_segment_filename',
      join(o.outDir, dir, 'seg_%03d.m4s'),
      join(o.outDir, dir, 'index.m3u8'),
    ],
  ]
  const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']
  const scale = (h: number) => ['-vf', `scale=-2:min(${h}\\,ih)`]
  await run(
    [
      ...['ffmpeg', '-nostdin', '-v', 'error', '-progress', 'pipe:1', '-y', '-threads', '2'],
      ...['-i', o.source],
      ...['-map', '0:v:0', ...scale(360), ...x264, ...hls('360p')],
      ...(audio
        ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '192k', '-ac', '2', ...hls('audio')]
        : []),
      ...['-map', '0:v:0', ...(audio ? ['-map', '0:a:0', '-c:a', 'aac'] : []), ...scale(360)],
      ...[...x264, '-movflags', '+faststart', join(o.outDir, 'video.mp4')],
      ...['-map', '0:v:0', '-t', '3', '-an', ...scale(240), ...x264, join(o.outDir, 'preview.mp4')],
    ],
    o.signal,
    (line) => {
      const m = /^out_time_us=(\d+)/.exec(line)
      if (m && duration)
        o.onProgress?.(Math.min(95, Math.floor((Number(m[1]) / 1e6 / duration) * 95)))
    },
  )
  await Bun.write(
    join(o.outDir, 'master.m3u8'),
    [
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      ...(audio
        ? [
            '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Stereo",DEFAULT=YES,URI="audio/index.m3u8"',
          ]
        : []),
      `#EXT-X-STREAM-INF:BANDWIDTH=800000${audio ? ',AUDIO="aud"' : ''}`,
      '360p/index.m3u8',
      '',
    ].join('\n'),
  )
  o.onProgress?.(99)
  const probe: MediaProbe & { duration: number } = {
    duration: duration ?? 0,
    width: video.width ?? 0,
    height: video.height ?? 0,
    frameRate: null,
    videoCodec: video.codec_name,
    audioCodec: audio?.codec_name ?? null,
    bitrate: Number(info.format.bit_rate) || null,
    hasAudio: !!audio,
  }
  const files = { master: 'master.m3u8', mp4: 'video.mp4', preview: 'preview.mp4' } as const
  return { probe, renditions: [], files }
}
