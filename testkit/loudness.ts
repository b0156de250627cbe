// Clips of a chosen loudness, and ffmpeg's own measurement of a file, for the loudness tests
// (server and browser). The level is set in two runs (make, measure, turn by the difference),
// and the tests compare what the app stored with what ffmpeg's loudnorm says of the same file:
// a second tool's reading, not the app's own parser.
import { join } from 'node:path'

async function ffmpeg(args: string[]): Promise<string> {
  const proc = Bun.spawn(['ffmpeg', '-nostdin', '-hide_banner', '-y', ...args], {
    stdout: 'ignore',
    stderr: 'pipe',
  })
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  if (code !== 0) throw new Error(`ffmpeg ${args.join(' ')}: ${stderr.slice(-2000)}`)
  return stderr
}

export type Measured = { integrated: number; range: number; truePeak: number }

/** loudnorm's analysis of the file's first audio stream, downmixed to stereo as the app plays it. */
export async function measureWithLoudnorm(path: string): Promise<Measured> {
  const log = await ffmpeg([
    ...['-v', 'info', '-i', path, '-map', '0:a:0', '-ac', '2'],
    ...['-af', 'loudnorm=print_format=json', '-f', 'null', '-'],
  ])
  const json = log.slice(log.lastIndexOf('{'), log.lastIndexOf('}') + 1)
  const data = JSON.parse(json) as Record<string, string>
  return {
    integrated: Number(data.input_i),
    range: Number(data.input_lra),
    truePeak: Number(data.input_tp),
  }
}

/**
 * An MP4 (H.264 + AAC, moov first) of `seconds` whose sound is a steady 1 kHz tone with a
 * faint 440 Hz one, at about `lufs` integrated. Steady, because the two meters gate a varying
 * signal differently (up to half a LU on a few seconds); its loudness range is 0.
 */
export async function makeLoudClip(
  dir: string,
  name: string,
  lufs: number,
  { seconds = 4, width = 320, height = 180 } = {},
): Promise<string> {
  const raw = join(dir, `raw-${name}.wav`)
  const tone = `aevalsrc=0.3*sin(2*PI*1000*t)+0.02*sin(2*PI*440*t):s=48000:c=stereo:d=${seconds}`
  await ffmpeg(['-v', 'error', '-f', 'lavfi', '-i', tone, '-c:a', 'pcm_f32le', raw])
  const first = await measureWithLoudnorm(raw)
  const path = join(dir, name)
  await ffmpeg([
    ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=s=${width}x${height}:r=25:d=${seconds}`],
    ...['-i', raw, '-map', '0:v', '-map', '1:a'],
    ...['-af', `volume=${(lufs - first.integrated).toFixed(2)}dB`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25'],
    ...['-c:a', 'aac', '-b:a', '192k', '-movflags', '+faststart', path],
  ])
  return path
}

/** The same picture without any audio stream. */
export async function makeSilentClip(dir: string, name: string, seconds = 3): Promise<string> {
  const path = join(dir, name)
  await ffmpeg([
    ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=s=320x180:r=25:d=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25'],
    ...['-movflags', '+faststart', path],
  ])
  return path
}
