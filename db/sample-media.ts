// Sample portfolio media made locally with ffmpeg: one short clip, a thumbnail and a brand logo per
// project. The seed (`bun run db:seed`, also inside the Docker image) and the benchmarks and browser
// tests (through testkit/sample-videos.ts) all use these, so the demo page looks the same
// everywhere. It lives under db/ because the image ships db/ and not testkit/, bench/ or e2e/.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'

export type SampleVideo = {
  title: string
  description: string
  video: string
  thumbnail: string
  brandLogo: string
}

/** Sample media cannot be made here (no ffmpeg, no font): the message says what to install. */
export class SampleMediaError extends Error {}

// Debian's fonts-dejavu-core; the Docker image installs it next to ffmpeg.
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'

const PROJECTS: [title: string, brand: string, colors: [string, string]][] = [
  ['Night Run', 'STRIDE', ['0x1d2b64', '0xf8cdda']],
  ['First Light', 'Lumen', ['0x0f2027', '0x2c5364']],
  ['The Long Table', 'HARVEST', ['0x42275a', '0x734b6d']],
  ['Open Water', 'Tidal', ['0x134e5e', '0x71b280']],
  ['Signal', 'NORTHWIND', ['0x232526', '0x414345']],
  ['City of Echoes', 'Atlas', ['0x3a1c71', '0xd76d77']],
  ['Paper Planes', 'KITE', ['0x000428', '0x004e92']],
  ['Slow Burn', 'Ember', ['0x870000', '0x190a05']],
  ['Homecoming', 'MERIDIAN', ['0x603813', '0xb29f94']],
  ['Overtime', 'Pulse', ['0x16222a', '0x3a6073']],
  ['Golden Hour', 'SOLACE', ['0xff7e5f', '0xfeb47b']],
  ['Static Bloom', 'Verde', ['0x1f4037', '0x99f2c8']],
]

export const MAX_SAMPLES = PROJECTS.length

/** Throws SampleMediaError naming what to install when ffmpeg or the font is missing. */
export function checkSampleMediaTools(): void {
  if (!Bun.which('ffmpeg')) {
    throw new SampleMediaError(
      'The sample videos are made with ffmpeg, which is not installed here: install it (Debian: apt-get install ffmpeg), or use a Docker image built with ffmpeg (the default; not --build-arg WITH_FFMPEG=false).',
    )
  }
  if (!existsSync(FONT)) {
    throw new SampleMediaError(
      `The sample brand logos need the font ${FONT}: install it (Debian: apt-get install fonts-dejavu-core).`,
    )
  }
}

async function ffmpeg(args: string[]): Promise<void> {
  const proc = Bun.spawn(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stderr: 'pipe',
  })
  if ((await proc.exited) !== 0) {
    throw new SampleMediaError(`ffmpeg failed: ${(await new Response(proc.stderr).text()).trim()}`)
  }
}

/**
 * Writes `count` (≤ 12) sample projects into `dir`; all share one 12-second clip, long enough
 * that a browser test on a busy machine still sees it playing.
 */
export async function makeSampleMedia(dir: string, count = MAX_SAMPLES): Promise<SampleVideo[]> {
  checkSampleMediaTools()
  mkdirSync(dir, { recursive: true })
  const video = join(dir, 'clip.mp4')
  await ffmpeg([
    ...['-f', 'lavfi', '-i', 'gradients=s=640x360:c0=0x101014:c1=0xf7d117:speed=0.03:d=12:r=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=44100:d=12'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-crf', '32', '-preset', 'veryfast'],
    ...['-c:a', 'aac', '-b:a', '64k', '-shortest', '-movflags', '+faststart', video],
  ])
  const projects = PROJECTS.slice(0, count)
  await Promise.all(
    projects.map(async ([, brand, [c0, c1]], index) => {
      const thumbnail = join(dir, `thumb-${index}.jpg`)
      const brandLogo = join(dir, `logo-${index}.png`)
      await ffmpeg([
        ...['-f', 'lavfi', '-i', `gradients=s=960x540:c0=${c0}:c1=${c1}:seed=${index + 1}:d=1`],
        ...['-frames:v', '1', '-q:v', '4', thumbnail],
      ])
      await ffmpeg([
        ...['-f', 'lavfi', '-i', 'color=c=black@0:s=640x200,format=rgba'],
        ...[
          '-vf',
          `drawtext=fontfile=${FONT}:text='${brand}':fontcolor=0x09090a:fontsize=64:x=(w-tw)/2:y=(h-th)/2`,
        ],
        ...['-frames:v', '1', brandLogo],
      ])
    }),
  )
  return projects.map(([title, brand], index) => ({
    title,
    description: `${brand} — original music and sound design.`,
    video,
    thumbnail: join(dir, `thumb-${index}.jpg`),
    brandLogo: join(dir, `logo-${index}.png`),
  }))
}
