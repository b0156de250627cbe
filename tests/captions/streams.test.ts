// Caption tracks in a processed work's streams, with the real app, its worker and real ffmpeg: the
// master lists a SUBTITLES group whose playlists parse and whose WebVTT segment loads (ffprobe
// reads them over HTTP), a work without tracks is served its master as
// processing wrote it, and a hidden work's captions are as private as its streams. (ffmpeg 5's
// HLS demuxer skips a master's subtitle renditions, so ffprobe reads the subtitle playlist itself.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toWebVtt } from '../../src/captions/index.ts'
import { parseMediaPlaylist } from '../../src/processing/playlists.ts'
import { captionFiles, captionsForm } from '../../testkit/captions.ts'
import { firstPresentationTicks } from '../../testkit/clips.ts'
import { makeClip, uploadVideo, type VideoAnswer, watchVideo } from '../../testkit/pipeline.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

type Track = { language: string; label: string; url: string }
type Answer = VideoAnswer & { captions: Track[] }

let t: TestApp
let token: string
let dir: string
let video: Answer
let server: ReturnType<typeof Bun.serve>
const files = captionFiles()

const get = (path: string, headers: Record<string, string> = {}) => t.fetch(path, { headers })
const bearer = () => ({ authorization: `Bearer ${token}` })
const answer = async () =>
  (await t.call('GET', `/api/videos/${video._id}`, { token })).json.data.video as Answer
const addTrack = async (language: string, label: string, file: string) => {
  const res = await t.fetch(`/api/videos/${video._id}/captions`, {
    method: 'POST',
    headers: bearer(),
    body: captionsForm({ language, label }, file),
  })
  expect(res.status).toBe(201)
  return (await res.json()).data as Track
}
const removeTrack = async (language: string) => {
  const res = await t.fetch(`/api/videos/${video._id}/captions/${language}`, {
    method: 'DELETE',
    headers: bearer(),
  })
  expect(res.status).toBe(204)
}
/** ffprobe's JSON for `args`; fails the test when ffprobe does. */
async function probe(args: string[]): Promise<unknown> {
  const proc = Bun.spawn(['ffprobe', '-v', 'error', ...args], { stdout: 'pipe', stderr: 'pipe' })
  const [out, err] = [
    await new Response(proc.stdout).text(),
    await new Response(proc.stderr).text(),
  ]
  expect(await proc.exited, err).toBe(0)
  return JSON.parse(out)
}
const resolve = (uri: string, base: string) => new URL(uri, `http://localhost${base}`).pathname

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'captions-streams-'))
  t = await startTestApp({ MEDIA_WORKERS: '1', MEDIA_POLL_SECONDS: '1' })
  token = await t.login()
  const clip = await makeClip(dir, 'clip.mp4', { seconds: 3, width: 320, height: 180 })
  video = (await uploadVideo((p, i) => t.fetch(p, i), token, clip, 'Subtitled Reel')) as Answer
  await addTrack('en', 'English', files.srt)
  // Still processing: no master yet, and the track is listed for the MP4 fallback.
  const early = await answer()
  if (early.status !== 'ready') expect(early.hlsUrl).toBeNull()
  expect(early.captions.map((c) => c.language)).toEqual(['en'])
  const done = await watchVideo(
    (p, i) => t.fetch(p, i),
    token,
    video._id,
    (v) => ['ready', 'failed'].includes(v.status),
    { timeoutMs: 240_000 },
  )
  expect(done.video.status).toBe('ready')
  video = done.video as Answer
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => t.app.fetch(req) })
}, 300_000)
afterAll(async () => {
  server?.stop(true)
  await t.stop()
  rmSync(dir, { recursive: true, force: true })
  rmSync(files.dir, { recursive: true, force: true })
})

describe('the master of a work with captions', () => {
  test('lists the SUBTITLES group on every variant; its playlist parses and its segment is WebVTT', async () => {
    const res = await get(video.hlsUrl!)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl')
    expect(res.headers.get('cache-control')).toBe('public, max-age=60')
    const master = await res.text()
    const media = master.split('\n').filter((line) => line.includes('TYPE=SUBTITLES'))
    expect(media).toHaveLength(1)
    expect(media[0]).toMatch(
      /^#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="subs\/[0-9a-f]{32}\.m3u8"$/,
    )
    const variants = master.split('\n').filter((line) => line.startsWith('#EXT-X-STREAM-INF:'))
    expect(variants.length).toBeGreaterThan(0)
    for (const line of variants) expect(line).toEndWith(',SUBTITLES="subs"')
    // The group comes before the variants that name it.
    expect(master.indexOf('TYPE=SUBTITLES')).toBeLessThan(master.indexOf('#EXT-X-STREAM-INF'))

    const playlistPath = resolve(/URI="([^"]+)"/.exec(media[0]!)![1]!, video.hlsUrl!)
    const playlistRes = await get(playlistPath)
    expect(playlistRes.status).toBe(200)
    expect(playlistRes.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const playlistText = await playlistRes.text()
    expect(playlistText).toStartWith('#EXTM3U\n')
    expect(playlistText).toContain('#EXT-X-PLAYLIST-TYPE:VOD')
    expect(playlistText.trimEnd()).toEndWith('#EXT-X-ENDLIST')
    const playlist = parseMediaPlaylist(playlistText)
    expect(playlist.segments).toHaveLength(1)
    const [segment] = playlist.segments
    // One segment covering the whole video, within the target duration (RFC 8216 4.3.3.1).
    expect(segment!.duration).toBeCloseTo(video.duration!, 2)
    expect(Math.round(segment!.duration)).toBeLessThanOrEqual(playlist.targetDuration)

    const vttRes = await get(resolve(segment!.uri, playlistPath))
    expect(vttRes.status).toBe(200)
    expect(vttRes.headers.get('content-type')).toBe('text/vtt; charset=utf-8')
    const vtt = await vttRes.text()
    expect(vtt.split('\n').slice(0, 2)).toEqual([
      'WEBVTT',
      'X-TIMESTAMP-MAP=MPEGTS=0,LOCAL=00:00:00.000',
    ])
    expect(vtt).toContain('00:00:00.200 --> 00:00:01.000\nFirst words')
    // Still valid WebVTT with the map in its header.
    expect(toWebVtt(new TextEncoder().encode(vtt)).cues).toBe(2)
  })

  test('the video segments start at time 0, as the timestamp map says (where a player reading the fragments puts the first picture)', async () => {
    // hls.js places captions by the video's own fragment times (tfdt and composition offsets);
    // the map says the WebVTT's zero is the video's zero.
    const master = await (await get(video.hlsUrl!)).text()
    const variant = master.split('\n').find((line) => line && !line.startsWith('#'))!
    const playlistUrl = resolve(variant, video.hlsUrl!)
    const playlist = parseMediaPlaylist(await (await get(playlistUrl)).text())
    const segment = await get(resolve(playlist.segments[0]!.uri, playlistUrl))
    expect(segment.status).toBe(200)
    expect(firstPresentationTicks(new Uint8Array(await segment.arrayBuffer()))).toBe(0)
  })

  test('ffprobe reads the subtitle playlist over HTTP: one WebVTT stream, cues where the file put them', async () => {
    const master = await (await get(video.hlsUrl!)).text()
    const subs = resolve(/URI="(subs\/[^"]+)"/.exec(master)![1]!, video.hlsUrl!)
    const read = (await probe([
      '-show_entries',
      'stream=codec_type,codec_name:packet=pts_time',
      '-of',
      'json',
      `http://127.0.0.1:${server.port}${subs}`,
    ])) as {
      streams: { codec_type: string; codec_name: string }[]
      packets: { pts_time: string }[]
    }
    expect(read.streams.map((s) => `${s.codec_type}/${s.codec_name}`)).toEqual(['subtitle/webvtt'])
    expect(read.packets.map((p) => Number(p.pts_time))).toEqual([0.2, 1.2])
  })

  test('a second track joins the group; removing every track gives the master as processing wrote it', async () => {
    const stored = await t.storage.read(`streams/${video.hlsUrl!.split('/')[2]}/master.m3u8`)
    const original = await new Response(stored!.body).text()
    await addTrack('fr', 'Français', files.vtt)
    const both = await (await get(video.hlsUrl!)).text()
    const names = [...both.matchAll(/TYPE=SUBTITLES,[^\n]*NAME="([^"]+)"/g)].map((m) => m[1])
    expect(names).toEqual(['English', 'Français'])
    await removeTrack('fr')
    await removeTrack('en')
    const plain = await get(video.hlsUrl!)
    expect(await plain.text()).toBe(original)
    expect(original).not.toContain('SUBTITLES')
    await addTrack('en', 'English', files.srt)
  })
})

describe('a hidden work’s captions', () => {
  test('refused to a visitor without a session, signed for the admin; served again once published', async () => {
    const published = (await answer()).captions[0]!
    const master = await (await get(video.hlsUrl!)).text()
    const subs = resolve(/URI="(subs\/[^"]+)"/.exec(master)![1]!, video.hlsUrl!)
    const segment = subs.replace(/\.m3u8$/, '.vtt')
    const visitorUrls = [published.url, video.hlsUrl!, subs, segment]
    for (const url of visitorUrls) expect((await get(url)).status).toBe(200)

    const hide = await t.call('PUT', `/api/videos/${video._id}/published`, {
      token,
      body: { published: false },
    })
    expect(hide.status).toBe(200)
    for (const url of visitorUrls) {
      const res = await get(url)
      expect(res.status).toBe(404)
      await res.arrayBuffer()
    }
    // The admin's answer: signed prefixes that play, kept by no shared cache.
    const hidden = await answer()
    const signedMaster = await get(hidden.hlsUrl!)
    expect(signedMaster.status).toBe(200)
    expect(signedMaster.headers.get('cache-control')).toBe('private, no-cache')
    const signedText = await signedMaster.text()
    const signedSubs = resolve(/URI="(subs\/[^"]+)"/.exec(signedText)![1]!, hidden.hlsUrl!)
    const signedPlaylist = await get(signedSubs)
    expect(signedPlaylist.status).toBe(200)
    expect(signedPlaylist.headers.get('cache-control')).toBe('private, no-cache')
    const uri = parseMediaPlaylist(await signedPlaylist.text()).segments[0]!.uri
    expect(await (await get(resolve(uri, signedSubs))).text()).toStartWith('WEBVTT\n')
    expect((await get(hidden.captions[0]!.url)).status).toBe(200)
    // A session opens the plain addresses too.
    expect((await get(segment, bearer())).status).toBe(200)

    const show = await t.call('PUT', `/api/videos/${video._id}/published`, {
      token,
      body: { published: true },
    })
    expect(show.status).toBe(200)
    for (const url of visitorUrls) expect((await get(url)).status).toBe(200)
  })

  test('a review link serves a hidden work’s captions under its own path', async () => {
    const hide = await t.call('PUT', `/api/videos/${video._id}/published`, {
      token,
      body: { published: false },
    })
    expect(hide.status).toBe(200)
    const made = await t.call('POST', `/api/videos/${video._id}/links`, { token, body: {} })
    expect(made.status).toBe(201)
    const base = new URL(made.json.data.link.url as string).pathname
    const track = (await answer()).captions[0]!
    const name = track.url.slice(track.url.lastIndexOf('/') + 1)
    const file = await get(`${base}/media/${name}`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('text/vtt; charset=utf-8')
    const folder = video.hlsUrl!.split('/')[2]
    const master = await get(`${base}/media/${folder}/master.m3u8`)
    expect(master.status).toBe(200)
    const subs = /URI="(subs\/[^"]+)"/.exec(await master.text())![1]!
    const playlist = await get(`${base}/media/${folder}/${subs}`)
    expect(playlist.status).toBe(200)
    expect(playlist.headers.get('cache-control')).toBe('private, no-cache')
    expect(parseMediaPlaylist(await playlist.text()).segments).toHaveLength(1)
    const show = await t.call('PUT', `/api/videos/${video._id}/published`, {
      token,
      body: { published: true },
    })
    expect(show.status).toBe(200)
  })

  test('a subtitle path of another track, or of no track, is 404', async () => {
    const folder = video.hlsUrl!.split('/')[2]
    for (const path of [
      `/media/${folder}/subs/${'0'.repeat(32)}.m3u8`,
      `/media/${folder}/subs/${'0'.repeat(32)}.vtt`,
      `/media/${folder}/subs/index.m3u8`,
      `/media/${folder}/subs/${'0'.repeat(32)}.txt`,
      `/media/${folder}/subs/`,
    ]) {
      expect((await get(path)).status).toBe(404)
    }
  })
})
