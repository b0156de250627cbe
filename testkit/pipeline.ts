// Shared pieces for the media pipeline's server tests: tiny generated clips, an upload through
// the REST path, and waiting on a video's status as the Manage page would see it.
import { join } from 'node:path'
import { fixtures } from './media.ts'
import type { Json } from './test-app.ts'

export type ClipOptions = { seconds?: number; width?: number; height?: number; audio?: boolean }

async function ffmpeg(args: string[]): Promise<void> {
  const proc = Bun.spawn(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stdout: 'ignore',
    stderr: 'pipe',
  })
  if ((await proc.exited) !== 0) {
    throw new Error(`ffmpeg ${args.join(' ')}: ${await new Response(proc.stderr).text()}`)
  }
}

/** A short H.264/AAC MP4 (moov first), small enough that processing takes seconds. */
export async function makeClip(dir: string, name: string, o: ClipOptions = {}): Promise<string> {
  const { seconds = 3, width = 640, height = 360, audio = true } = o
  const path = join(dir, name)
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=s=${width}x${height}:r=25:d=${seconds}`],
    ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:d=${seconds}`] : []),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25'],
    ...(audio ? ['-c:a', 'aac', '-b:a', '96k'] : []),
    ...['-movflags', '+faststart', path],
  ])
  return path
}

/** A WebM with sound and no picture: it sniffs as a video, and has no video stream. */
export async function makeAudioOnly(dir: string, name = 'sound.webm'): Promise<string> {
  const path = join(dir, name)
  await ffmpeg([
    ...['-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=48000:d=2'],
    ...['-c:a', 'libopus', '-b:a', '48k', '-f', 'webm', path],
  ])
  return path
}

type Fetch = (path: string, init?: RequestInit) => Promise<Response>

/** POST /api/videos/upload with `video` and the standard thumbnail and logo; the video answer. */
export async function uploadVideo(fetch: Fetch, token: string, video: string, title: string) {
  const f = await fixtures()
  const body = new FormData()
  body.append('title', title)
  body.append('video', Bun.file(video), 'master.mp4')
  body.append('thumbnail', Bun.file(f.jpg), 'thumb.jpg')
  body.append('brandLogo', Bun.file(f.png), 'logo.png')
  const res = await fetch('/api/videos/upload', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
  })
  const json = (await res.json()) as Json
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${json.message}`)
  return json.data.video as VideoAnswer
}

export type VideoAnswer = {
  _id: string
  videoUrl: string
  thumbnailUrl: string
  brandLogoUrl: string
  updatedAt: string
  status: 'queued' | 'processing' | 'ready' | 'failed'
  progress: number
  duration: number | null
  width: number | null
  height: number | null
  hlsUrl: string | null
  mp4Url: string | null
  previewUrl: string | null
  error: string | null
}

export async function getVideo(fetch: Fetch, token: string, id: string): Promise<VideoAnswer> {
  const res = await fetch(`/api/videos/${id}`, { headers: { authorization: `Bearer ${token}` } })
  const json = (await res.json()) as Json
  if (res.status !== 200) throw new Error(`get: ${res.status} ${json.message}`)
  return json.data.video as VideoAnswer
}

/**
 * Polls the video every `everyMs` until `done` says so; returns every state seen (status and
 * progress, in order, repeats collapsed) and the last answer. Throws with them on timeout.
 */
export async function watchVideo(
  fetch: Fetch,
  token: string,
  id: string,
  done: (v: VideoAnswer) => boolean,
  { timeoutMs = 60_000, everyMs = 50 } = {},
) {
  const seen: string[] = []
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const video = await getVideo(fetch, token, id)
    const state = `${video.status}:${video.progress}`
    if (seen.at(-1) !== state) seen.push(state)
    if (done(video)) return { video, seen }
    if (Date.now() > deadline) {
      throw new Error(`video ${id} still ${state} after ${timeoutMs} ms (seen ${seen.join(' ')})`)
    }
    await Bun.sleep(everyMs)
  }
}

export const settled = (v: VideoAnswer) => v.status === 'ready' || v.status === 'failed'
