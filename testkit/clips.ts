// Small real sources for the processing tests, made with ffmpeg on first use in a temp folder that
// each test file removes when it is done (`afterAll(removeMedia)`). Short and small, so the suite
// stays cheap on 2 cores.
import { mkdtempSync, rmSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

let folder: string | undefined
const inFolder = (name: string) => {
  folder ??= mkdtempSync(join(tmpdir(), 'processing-media-'))
  return join(folder, name)
}

export async function sh(
  cmd: string[],
  options: { cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(cmd, { cwd: options.cwd, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  return { code, stdout, stderr }
}

async function ffmpeg(args: string[]): Promise<void> {
  const r = await sh(['ffmpeg', '-nostdin', '-hide_banner', '-v', 'error', '-y', ...args])
  if (r.code !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${r.stderr.slice(-2000)}`)
}

const made = new Map<string, Promise<string>>()

export function removeMedia(): void {
  if (folder) rmSync(folder, { recursive: true, force: true })
  folder = undefined
  made.clear()
}

function once(name: string, make: (path: string) => Promise<void>): () => Promise<string> {
  return () => {
    let promise = made.get(name)
    if (!promise) {
      const path = inFolder(name)
      promise = make(path).then(() => path)
      made.set(name, promise)
    }
    return promise
  }
}

const video = (size: string, rate: number, seconds: number) => [
  ...['-f', 'lavfi', '-i', `testsrc2=s=${size}:r=${rate}:d=${seconds}`],
]
const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']
/** A stereo "mix" with different notes left and right, so a downmix to mono would show. */
const stereo = (seconds: number, rate = 48000) => [
  ...['-f', 'lavfi', '-i'],
  `aevalsrc=0.2*sin(2*PI*440*t)|0.2*sin(2*PI*554*t):s=${rate}:d=${seconds}`,
]
const surround = (seconds: number) => [
  ...['-f', 'lavfi', '-i'],
  `aevalsrc=0.1*sin(2*PI*220*t)|0.1*sin(2*PI*330*t)|0.1*sin(2*PI*440*t)|0.05*sin(2*PI*55*t)|0.1*sin(2*PI*550*t)|0.1*sin(2*PI*660*t):s=44100:c=5.1:d=${seconds}`,
]
const mono = (seconds: number) => [
  ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`],
]

export const media = {
  /** 854×480, 25 fps, 5 s, stereo 48 kHz AAC. */
  stereo480: once('stereo480.mp4', (p) =>
    ffmpeg([...video('854x480', 25, 5), ...stereo(5), ...x264, '-c:a', 'aac', '-b:a', '128k', p]),
  ),
  /** 1920×1080, 25 fps, 2 s, 5.1 at 44.1 kHz. */
  surround1080: once('surround1080.mp4', (p) =>
    ffmpeg([...video('1920x1080', 25, 2), ...surround(2), ...x264, '-c:a', 'aac', p]),
  ),
  /** Stored 854×480, shown 480×854 (rotation 90°), mono 44.1 kHz, 3 s. */
  portraitMono: once('portrait.mp4', async (p) => {
    const upright = inFolder('portrait-unrotated.mp4')
    await ffmpeg([...video('854x480', 25, 3), ...mono(3), ...x264, '-c:a', 'aac', upright])
    // ffmpeg 5.1 keeps a rotate tag only when copying (an encode applies and drops it).
    await ffmpeg(['-i', upright, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', p])
  }),
  /** 356×200, 15 fps, 9 s, no audio, streamed Matroska: the container states no duration. */
  tinyLiveMkv: once('tiny-live.mkv', async (p) => {
    const r = await sh([
      'sh',
      '-c',
      `ffmpeg -nostdin -v error -f lavfi -i testsrc2=s=356x200:r=15:d=9 ${x264.join(' ')} -f matroska - > '${p}'`,
    ])
    if (r.code !== 0) throw new Error(r.stderr)
  }),
  /** 640×360, 25 fps, 30 s, for stopping a run half way. */
  long360: once('long360.mp4', (p) =>
    ffmpeg([...video('640x360', 25, 30), ...stereo(30), ...x264, '-crf', '35', '-c:a', 'aac', p]),
  ),
  /** 64×48 stored with 2:1 pixels: shown 128×48. */
  anamorphic: once('anamorphic.mp4', (p) =>
    ffmpeg([...video('64x48', 10, 1), '-vf', 'setsar=2', ...x264, p]),
  ),
  /** An MP4 with sound only. */
  audioOnly: once('audio-only.mp4', (p) => ffmpeg([...stereo(1), '-c:a', 'aac', p])),
  /** An M4A with a cover picture: a "video" stream that is one still image. */
  coverArt: once('cover.m4a', async (p) => {
    const cover = inFolder('cover.png')
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=s=32x32:d=1', '-frames:v', '1', cover])
    await ffmpeg([
      ...stereo(1),
      ...['-i', cover, '-map', '0', '-map', '1', '-c:a', 'aac', '-c:v', 'png'],
      ...['-disposition:v', 'attached_pic', p],
    ])
  }),
  /** An upload cut short: the index (moov, written at the end) never arrived. */
  truncated: once('truncated.mp4', async (p) => {
    const whole = inFolder('whole.mp4')
    await ffmpeg([...video('320x180', 25, 2), ...x264, whole])
    const bytes = await Bun.file(whole).arrayBuffer()
    await Bun.write(p, bytes.slice(0, bytes.byteLength / 2))
  }),
  /** A valid header over video data that is noise. */
  garbage: once('garbage.mp4', async (p) => {
    const clean = inFolder('clean.mp4')
    await ffmpeg([...video('320x180', 25, 1), ...x264, '-movflags', '+faststart', clean])
    const bytes = new Uint8Array(await Bun.file(clean).arrayBuffer())
    const mdat = Buffer.from(bytes).indexOf('mdat')
    let seed = 7
    for (let i = mdat + 4; i < bytes.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0
      bytes[i] = seed >>> 24
    }
    await Bun.write(p, bytes)
  }),
  /** Text with a video's name. */
  /** 51 frames of 64×64 at 25 fps, the last stamped `lastAt` seconds in: tiny, claiming hours. */
  stretched: (ext: 'mp4' | 'webm', lastAt: number) =>
    once(`stretched-${lastAt}.${ext}`, (p) =>
      ffmpeg([
        ...['-f', 'lavfi', '-i', 'color=c=gray:s=64x64:r=25', '-frames:v', '51'],
        ...['-vf', `setpts='if(eq(N,50),${lastAt}/TB,PTS)'`, '-fps_mode', 'passthrough'],
        ...(ext === 'mp4' ? [...x264, '-g', '1000'] : ['-c:v', 'libvpx', '-b:v', '50k']),
        p,
      ]),
    )(),
  /** One picture beside 5 minutes of sound (a track with its cover as the video): not sparse. */
  stillWithSound: once('still-with-sound.mp4', (p) =>
    ffmpeg([
      ...video('320x180', 25, 0.04),
      ...mono(300),
      ...x264,
      ...['-c:a', 'aac', '-b:a', '32k', p],
    ]),
  ),
  text: once('notes.mp4', (p) => Bun.write(p, 'not a video\n'.repeat(50)).then(() => undefined)),
}

export async function ffprobeJson(path: string, entries: string[] = []): Promise<FfprobeOut> {
  const r = await sh([
    'ffprobe',
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...entries, path],
  ])
  if (r.code !== 0) throw new Error(`ffprobe ${path}: ${r.stderr}`)
  return JSON.parse(r.stdout) as FfprobeOut
}

export type FfprobeStream = {
  index: number
  codec_type: string
  codec_name: string
  profile?: string
  width?: number
  height?: number
  sample_rate?: string
  channels?: number
  channel_layout?: string
  avg_frame_rate?: string
}
export type FfprobeOut = {
  streams: FfprobeStream[]
  format: { duration?: string; size?: string }
}

/** Names of an MP4's top-level boxes, in file order. */
export async function topLevelBoxes(path: string): Promise<string[]> {
  const bytes = new Uint8Array(await Bun.file(path).arrayBuffer())
  const view = new DataView(bytes.buffer)
  const boxes: string[] = []
  for (let at = 0; at + 8 <= bytes.length; ) {
    let size = view.getUint32(at)
    if (size === 1) size = Number(view.getBigUint64(at + 8))
    boxes.push(new TextDecoder().decode(bytes.subarray(at + 4, at + 8)))
    if (size < 8) break
    at += size
  }
  return boxes
}

/** The first box of `type` among the boxes in bytes[start, end): where its payload starts and ends. */
function findBox(bytes: Uint8Array, type: string, start: number, end: number) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let at = start; at + 8 <= end; ) {
    const size = view.getUint32(at)
    if (size < 8) return null
    if (new TextDecoder().decode(bytes.subarray(at + 4, at + 8)) === type) {
      return { body: at + 8, end: at + size }
    }
    at += size
  }
  return null
}

/**
 * The first sample's presentation time in a media segment's first fragment, in its track's
 * ticks, as a player that reads fragments as they are (hls.js) computes it: the fragment's decode
 * time (tfdt) plus the sample's composition offset (trun; signed in version 1).
 */
export function firstPresentationTicks(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const moof = findBox(bytes, 'moof', 0, bytes.length)
  const traf = moof && findBox(bytes, 'traf', moof.body, moof.end)
  const tfdt = traf && findBox(bytes, 'tfdt', traf.body, traf.end)
  const trun = traf && findBox(bytes, 'trun', traf.body, traf.end)
  if (!tfdt || !trun) throw new Error('the segment has no fragment timing')
  const decode =
    bytes[tfdt.body] === 1
      ? Number(view.getBigUint64(tfdt.body + 4))
      : view.getUint32(tfdt.body + 4)
  const version = bytes[trun.body]!
  const flags = view.getUint32(trun.body) & 0xffffff
  let at = trun.body + 8 + (flags & 0x1 ? 4 : 0) + (flags & 0x4 ? 4 : 0)
  at += (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0) + (flags & 0x400 ? 4 : 0)
  const offset = !(flags & 0x800) ? 0 : version === 1 ? view.getInt32(at) : view.getUint32(at)
  return decode + offset
}

/** Child pids of this process (or `pid`), from /proc, with their command lines. */
export async function childrenOf(
  pid: number | 'self' = 'self',
): Promise<{ pid: number; cmd: string }[]> {
  const out: { pid: number; cmd: string }[] = []
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')
    for (const child of text.split(/\s+/).filter(Boolean).map(Number)) {
      const cmd = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '')
      out.push({ pid: child, cmd: cmd.replaceAll('\0', ' ') })
    }
  }
  return out
}

/** True once `pid` is no process (or only a zombie waiting for init). */
export async function isGone(pid: number): Promise<boolean> {
  const stat = await Bun.file(`/proc/${pid}/stat`)
    .text()
    .catch(() => '')
  return stat === '' || /\) [ZX] /.test(stat)
}

export async function waitUntilGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (await isGone(pid)) return true
    await Bun.sleep(50)
  }
  return isGone(pid)
}
