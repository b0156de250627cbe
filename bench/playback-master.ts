// The master bench/playback uploads: an ordinary export from an editing suite, 1080p30
// H.264 at a constant 30 Mbps with music-like stereo AAC, moov at the end (no faststart). Made
// once with ffmpeg and kept under .tmp/ (git-ignored), since it costs ~1 CPU-minute.
import { existsSync, mkdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'

const CACHE = join(import.meta.dir, '..', '.tmp', 'bench-playback')

// A chord that changes every 2 s over a kick on each beat (120 bpm), left and right voiced apart,
// with a little pink noise as hats: enough spectral content to keep the AAC encoder honest.
const CHORDS = [
  [220, 277.18, 329.63],
  [196, 246.94, 293.66],
  [174.61, 220, 261.63],
  [196, 246.94, 311.13],
]
function voice(channel: 0 | 1): string {
  const pick = (i: number) =>
    CHORDS.map((chord, c) => `eq(mod(floor(t/2),4),${c})*${chord[i]}`).join('+')
  const partials = [0, 1, 2].map(
    (i) => `0.09*sin(2*PI*(${pick(i)})*${channel === 0 ? 1 : 1.003}*t+${i + channel})`,
  )
  const kick = '0.35*sin(2*PI*(50+90*exp(-30*mod(t,0.5)))*t)*exp(-9*mod(t,0.5))'
  return [...partials, kick].join('+')
}

async function run(args: string[]): Promise<void> {
  const proc = Bun.spawn(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stderr: 'pipe',
  })
  if ((await proc.exited) !== 0) {
    throw new Error(`ffmpeg failed: ${(await new Response(proc.stderr).text()).trim()}`)
  }
}

/** Path of a `seconds`-long master, made on first use. */
export async function playbackMaster(seconds: number): Promise<string> {
  mkdirSync(CACHE, { recursive: true })
  const path = join(CACHE, `master-1080p-30mbps-${seconds}s.mp4`)
  if (existsSync(path)) return path
  const partial = `${path}.partial.mp4`
  await run([
    // Moving test pattern with temporal noise (film grain stands in for camera noise).
    ...['-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `aevalsrc=exprs='${voice(0)}|${voice(1)}':s=48000:d=${seconds}`],
    ...['-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.04:sample_rate=48000:d=${seconds}`],
    ...['-filter_complex', '[0:v]noise=alls=10:allf=t[v];[1:a][2:a]amix=inputs=2:normalize=0[a]'],
    ...['-map', '[v]', '-map', '[a]'],
    // Constant 30 Mbps (filler where the picture needs less), as a mezzanine export would be.
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '60'],
    ...['-b:v', '30M', '-minrate', '30M', '-maxrate', '30M', '-bufsize', '30M'],
    ...['-x264-params', 'nal-hrd=cbr:force-cfr=1'],
    ...['-c:a', 'aac', '-b:a', '320k', '-ac', '2', '-ar', '48000'],
    partial,
  ])
  renameSync(partial, path)
  return path
}
