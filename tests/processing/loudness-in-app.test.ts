// Loudness through the whole pipeline, on the embedded database or TEST_DATABASE_URL's server:
// masters of known loudness made by ffmpeg here, uploaded through the HTTP API and processed by
// the server's worker; what admins and visitors are told, the Site page's reference, the embed,
// and a reprocess filling in a video measured before loudness was.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { videos } from '../../db/schema.ts'
import { siteMsg } from '../../src/contract/site.ts'
import { startMediaQueue } from '../../src/processing/queue.ts'
import { requeue } from '../../src/videos/rows.ts'
import { callerAs } from '../../testkit/caller.ts'
import {
  type Measured,
  makeLoudClip,
  makeSilentClip,
  measureWithLoudnorm,
} from '../../testkit/loudness.ts'
import {
  getVideo,
  settled,
  uploadVideo,
  type VideoAnswer,
  watchVideo,
} from '../../testkit/pipeline.ts'
import { current, resetSite, save } from '../../testkit/site.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { loudnessText } from '../../web/src/app/videos/loudness-text.ts'

type Figures = { integrated: number; range: number; truePeak: number | null }
type Answer = VideoAnswer & { loudness: Figures | null; hasAudio: boolean | null }

let t: TestApp
let token: string
let dir: string
const fetch = (path: string, init?: RequestInit) => t.fetch(path, init)
const works: Record<'loud' | 'quiet' | 'mute', { id: string; measured: Measured | null }> = {
  loud: { id: '', measured: null },
  quiet: { id: '', measured: null },
  mute: { id: '', measured: null },
}

const ready = async (id: string) => {
  const { video } = await watchVideo(fetch, token, id, settled, {
    timeoutMs: 180_000,
    everyMs: 200,
  })
  expect(video.status).toBe('ready')
  return video as Answer
}

beforeAll(async () => {
  t = await startTestApp({ MEDIA_WORKERS: '1', MEDIA_POLL_SECONDS: '1' })
  token = await t.login()
  await resetSite(t)
  dir = await mkdtemp(join(tmpdir(), 'loudness-pipeline-'))
  const [loud, quiet, mute] = await Promise.all([
    makeLoudClip(dir, 'loud.mp4', -8),
    makeLoudClip(dir, 'quiet.mp4', -20),
    makeSilentClip(dir, 'mute.mp4'),
  ])
  works.loud = { id: (await uploadVideo(fetch, token, loud, 'Loud Master'))._id, measured: null }
  works.quiet = { id: (await uploadVideo(fetch, token, quiet, 'Quiet Master'))._id, measured: null }
  works.mute = { id: (await uploadVideo(fetch, token, mute, 'Mute Reel'))._id, measured: null }
  works.loud.measured = await measureWithLoudnorm(loud)
  works.quiet.measured = await measureWithLoudnorm(quiet)
}, 120_000)

afterAll(async () => {
  await t.stop()
  await rm(dir, { recursive: true, force: true })
})

const expectMeasured = (loudness: Figures | null, measured: Measured) => {
  expect(loudness).not.toBeNull()
  expect(Math.abs(loudness!.integrated - measured.integrated)).toBeLessThanOrEqual(0.5)
  expect(Math.abs(loudness!.truePeak! - measured.truePeak)).toBeLessThanOrEqual(0.5)
  expect(Math.abs(loudness!.range - measured.range)).toBeLessThanOrEqual(1)
}

describe('measured in processing', () => {
  test('admins get integrated, range and true peak within half a LU of ffmpeg', async () => {
    for (const work of [works.loud, works.quiet]) {
      const video = await ready(work.id)
      expectMeasured(video.loudness, work.measured!)
      expect(video.hasAudio).toBe(true)
      // The same through tRPC.
      const caller = await callerAs(t.app.services, token)
      const viaTrpc = (await caller.videos.get({ id: work.id })).video
      expect(viaTrpc.loudness).toEqual(video.loudness)
    }
    const loud = (await getVideo(fetch, token, works.loud.id)) as Answer
    expect(loudnessText(loud.loudness, loud.hasAudio, -14)?.level).toMatch(
      /^−[78]\.\d LUFS · plays [56]\.\d dB quieter on the site$/,
    )
    const quiet = (await getVideo(fetch, token, works.quiet.id)) as Answer
    expect(loudnessText(quiet.loudness, quiet.hasAudio, -14)?.level).toMatch(
      /^−(19|20)\.\d LUFS · plays as mixed$/,
    )
  }, 240_000)

  test('a video without audio answers loudness null, and the Manage page says No audio', async () => {
    const video = await ready(works.mute.id)
    expect(video.loudness).toBeNull()
    expect(video.hasAudio).toBe(false)
    expect(loudnessText(video.loudness, video.hasAudio, -14)).toEqual({
      level: 'No audio',
      warning: null,
    })
  }, 240_000)

  test('visitors get only the integrated loudness', async () => {
    const res = await fetch('/api/public/videos')
    const list = ((await res.json()) as { data: { videos: Answer[] } }).data.videos
    const loud = list.find((v) => v._id === works.loud.id)!
    expect(Object.keys(loud.loudness ?? {})).toEqual(['integrated'])
    expect(loud.loudness!.integrated).toBeCloseTo(works.loud.measured!.integrated, 0)
    expect(list.find((v) => v._id === works.mute.id)!.loudness).toBeNull()
  })
})

describe('the reference on the Site page', () => {
  test('starts at −14, takes whole and half dB from −23 to −9, and off', async () => {
    const site = await current(t, token)
    expect(site.content.playback).toEqual({ loudnessReference: -14 })
    const pub = await t.call('GET', '/api/public/site')
    expect(pub.json.data.site.playback).toEqual({ loudnessReference: -14 })

    let version = site.version as number
    for (const bad of [-8, -23.5, -14.3, '−14', 0]) {
      const r = await save(t, token, version, {
        ...site.content,
        playback: { loudnessReference: bad },
      })
      expect(r.status).toBe(400)
      expect(r.json.message).toBe(siteMsg.loudnessReference)
    }
    expect((await current(t, token)).version).toBe(version)

    for (const good of [-23, -9, -16.5, null]) {
      const r = await save(t, token, version, {
        ...site.content,
        playback: { loudnessReference: good },
      })
      expect(r.status).toBe(200)
      const now = await current(t, token)
      expect(now.content.playback).toEqual({ loudnessReference: good })
      expect(now.lastChange.changed).toEqual(['playback'])
      version = now.version
    }
    const off = await t.call('GET', '/api/public/site')
    expect(off.json.data.site.playback).toEqual({ loudnessReference: null })
  })

  test('the embed turns a loud work down by the reference, and leaves a quiet one alone', async () => {
    const site = await current(t, token)
    await save(t, token, site.version, { ...site.content, playback: { loudnessReference: -14 } })
    const slugOf = async (id: string) =>
      (await getVideo(fetch, token, id)) as Answer & { slug: string }
    const loud = await slugOf(works.loud.id)
    const res = await fetch(`/work/${loud.slug}/embed`)
    const html = await res.text()
    const gain = Math.round((-14 - loud.loudness!.integrated) * 10) / 10
    expect(html).toContain(`data-loudness-level-db="${gain}"`)
    // The levelling script beside the one every embed has (it recovers from files gone meanwhile).
    expect(html.match(/<script>/g)).toHaveLength(2)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+';/)
    expect(csp).toContain("default-src 'none'")

    const quiet = await slugOf(works.quiet.id)
    const calm = await (await fetch(`/work/${quiet.slug}/embed`)).text()
    expect(calm).toContain('data-loudness-gain-db="0"')
    expect(calm.match(/<script>/g)).toHaveLength(1)
    expect(calm).not.toContain('volume')
  })
})

describe('media:reprocess', () => {
  test('fills in a video whose loudness was never measured', async () => {
    const { db } = t.app.database
    await db
      .update(videos)
      .set({ loudnessIntegrated: null, loudnessRange: null, loudnessTruePeak: null })
      .where(eq(videos.id, works.loud.id))
    const before = (await getVideo(fetch, token, works.loud.id)) as Answer
    expect(before.loudness).toBeNull()
    expect(loudnessText(before.loudness, before.hasAudio, -14)?.level).toBe(
      'Loudness not measured yet',
    )
    // What `bun run media:reprocess <id>` does: a queue of its own, the video re-queued.
    const queue = await startMediaQueue({
      target: t.app.database.poolTarget,
      embedded: t.app.database.embedded,
      media: t.config.media,
      supervise: false,
    })
    try {
      expect(await requeue(db, queue, [works.loud.id], ['ready', 'failed'])).toEqual([
        works.loud.id,
      ])
    } finally {
      await queue.stop()
    }
    const { video } = await watchVideo(
      fetch,
      token,
      works.loud.id,
      (v) => settled(v) && (v as Answer).loudness !== null,
      { timeoutMs: 180_000, everyMs: 200 },
    )
    expectMeasured((video as Answer).loudness, works.loud.measured!)
  }, 240_000)
})
