// Caption tracks over REST and tus with the real app and database: SRT arrives as WebVTT, a
// malformed file is refused with its line and leaves nothing behind, over 1 MB is 413, a language
// is replaced, a removal is 204 and leaves no file, and the answers list every track.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { captionsMessages } from '../../src/contract/captions.ts'
import { msg } from '../../src/contract/messages.ts'
import { captionFiles, captionsForm } from '../../testkit/captions.ts'
import { signedMediaUrl } from '../../testkit/media.ts'
import { prepareOutputs, readyWorks } from '../../testkit/ready.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { bytesOf, fixtures, form, send, tusVia, uploadTrio } from '../../testkit/videos.ts'

let t: TestApp
let token: string
const files = captionFiles()

beforeAll(async () => {
  t = await startTestApp()
  await prepareOutputs((await fixtures()).mp4)
}, 120_000)
afterAll(async () => {
  await t.stop()
  rmSync(files.dir, { recursive: true, force: true })
})
beforeEach(async () => {
  await t.reset()
  token = await t.login()
})

async function createVideo(title = 'Captioned Work') {
  const f = await fixtures()
  const res = await send(
    t,
    'POST',
    '/api/videos/upload',
    token,
    form({ title }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
  )
  expect(res.status).toBe(201)
  return res.json.data.video as { _id: string; captions: unknown[] }
}

const addCaptions = (id: string, fields: Record<string, string>, file?: string, auth = token) =>
  send(t, 'POST', `/api/videos/${id}/captions`, auth, captionsForm(fields, file))

const answerOf = async (id: string) => (await t.call('GET', `/api/videos/${id}`, { token })).json

type TrpcAnswer = {
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes by path
  result?: { data: any }
  error?: { message: string; data: { field: string | null } }
}
/** A tRPC mutation over HTTP, as the web app sends it. */
async function mutate(path: string, body: unknown) {
  const res = await t.fetch(`/trpc/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as TrpcAnswer }
}

const captionKeys = async () => (await t.storedKeys()).filter((key) => key.startsWith('captions/'))

const rows = async () =>
  [
    ...(await t.app.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from video_captions`,
    )),
  ][0]!.n

describe('POST /api/videos/:id/captions', () => {
  test('an SRT file becomes WebVTT: 201 with the track, listed by the answers, served as text/vtt', async () => {
    const video = await createVideo()
    expect(video.captions).toEqual([])
    const res = await addCaptions(video._id, { language: 'en', label: 'English' }, files.srt)
    expect(res.status).toBe(201)
    expect(res.json.status).toBe('success')
    const track = res.json.data
    expect(Object.keys(track).sort()).toEqual(['label', 'language', 'url'])
    expect(track).toMatchObject({ language: 'en', label: 'English' })
    expect(track.url).toMatch(/^\/media\/[0-9a-f]{32}\.vtt$/)

    const served = await t.fetch(track.url)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('text/vtt; charset=utf-8')
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const text = await served.text()
    expect(text.startsWith('WEBVTT\n')).toBe(true)
    expect(text).toContain('00:00:00.200 --> 00:00:01.000')
    expect(text).not.toContain(',')
    expect(text).not.toContain('\r')
    expect(text).not.toContain('\uFEFF')

    // Visitors see the work once its streams exist.
    await readyWorks(t, [video._id])
    for (const answer of [
      (await answerOf(video._id)).data.video,
      (await t.call('GET', '/api/videos', { token })).json.data.videos[0],
      (await t.call('GET', '/api/public/videos')).json.data.videos[0],
    ]) {
      expect(answer.captions).toEqual([track])
    }
    expect(await captionKeys()).toHaveLength(1)
  })

  test('a WebVTT file is kept as given, whatever its name; the tag is made canonical', async () => {
    const video = await createVideo()
    const res = await addCaptions(video._id, { language: 'fr-ca', label: 'Français' }, files.vtt)
    expect(res.status).toBe(201)
    expect(res.json.data.language).toBe('fr-CA')
    expect(await (await t.fetch(res.json.data.url)).text()).toBe(
      'WEBVTT\n\n00:00.300 --> 00:01.500\nBonjour\n',
    )
  })

  test('STYLE blocks (@import, url()) are neither stored nor served; the cues are', async () => {
    const video = await createVideo()
    const styled = files.write(
      'styled.vtt',
      [
        'WEBVTT',
        '',
        'STYLE',
        "@import url('https://tracker.example/a.css');",
        '',
        'STYLE',
        '::cue { background-image: url(https://tracker.example/b.png) }',
        '',
        '00:01.000 --> 00:02.000',
        'Styled words',
        '',
      ].join('\n'),
    )
    const res = await addCaptions(video._id, { language: 'en', label: 'English' }, styled)
    expect(res.status).toBe(201)
    const expected = 'WEBVTT\n\n00:01.000 --> 00:02.000\nStyled words\n'
    expect(await (await t.fetch(res.json.data.url)).text()).toBe(expected)
    const [key] = await captionKeys()
    const stored = await t.storage.read(key!)
    expect(await new Response(stored!.body).text()).toBe(expected)
  })

  test('a malformed file: 400 naming the line, and nothing stored', async () => {
    const video = await createVideo()
    const res = await addCaptions(video._id, { language: 'en', label: 'English' }, files.malformed)
    expect(res.status).toBe(400)
    expect(res.json.message).toBe(
      'Line 6: the cue timing "00:00:05,000 --> 00:00:03,000" ends before it starts',
    )
    expect(await captionKeys()).toEqual([])
    expect(await rows()).toBe(0)
    expect((await answerOf(video._id)).data.video.captions).toEqual([])
  })

  test('binary (an image) is refused as not text', async () => {
    const video = await createVideo()
    const res = await addCaptions(
      video._id,
      { language: 'en', label: 'English' },
      (await fixtures()).png,
    )
    expect(res.status).toBe(400)
    expect(res.json.message).toMatch(/^Line \d+: /)
    expect(await captionKeys()).toEqual([])
  })

  test('over 1 MB: 413 with the limit, nothing stored', async () => {
    const video = await createVideo()
    const res = await addCaptions(video._id, { language: 'en', label: 'English' }, files.large)
    expect(res.status).toBe(413)
    expect(res.json.message).toBe(captionsMessages.tooLarge)
    expect(await captionKeys()).toEqual([])
  })

  test('bad fields: 400 with the message; no file: 400', async () => {
    const video = await createVideo()
    const cases: [Record<string, string>, string | undefined, string][] = [
      [{ language: 'english!', label: 'English' }, files.vtt, captionsMessages.languageInvalid],
      [{ language: '', label: 'English' }, files.vtt, captionsMessages.languageRequired],
      [{ language: 'en', label: '' }, files.vtt, captionsMessages.labelRequired],
      [{ language: 'en', label: 'x'.repeat(61) }, files.vtt, captionsMessages.labelMax],
      [{ language: 'en', label: 'English' }, undefined, captionsMessages.fileRequired],
    ]
    for (const [fields, file, message] of cases) {
      const res = await addCaptions(video._id, fields, file)
      expect(res.status).toBe(400)
      expect(res.json.message).toBe(message)
    }
    expect(await captionKeys()).toEqual([])
  })

  test('the same language again replaces the track and removes the old file', async () => {
    const video = await createVideo()
    const first = await addCaptions(video._id, { language: 'en', label: 'English' }, files.srt)
    const second = await addCaptions(
      video._id,
      { language: 'en', label: 'English (SDH)' },
      files.vtt,
    )
    expect(second.status).toBe(201)
    expect(second.json.data.url).not.toBe(first.json.data.url)
    expect((await answerOf(video._id)).data.video.captions).toEqual([second.json.data])
    expect(await captionKeys()).toEqual([`captions/${second.json.data.url.slice(7)}`])
    expect((await t.fetch(first.json.data.url)).status).toBe(404)
  })

  test('tracks are listed by label, then language', async () => {
    const video = await createVideo()
    await addCaptions(video._id, { language: 'fr', label: 'French' }, files.vtt)
    await addCaptions(video._id, { language: 'en', label: 'English (SDH)' }, files.srt)
    await addCaptions(video._id, { language: 'de', label: 'English (SDH)' }, files.srt)
    const listed = (await answerOf(video._id)).data.video.captions as { language: string }[]
    expect(listed.map((c) => c.language)).toEqual(['de', 'en', 'fr'])
  })

  test('unknown video 404; without a session 401 before the body is read', async () => {
    const missing = '00000000-0000-4000-8000-000000000000'
    const res = await addCaptions(missing, { language: 'en', label: 'English' }, files.vtt)
    expect(res.status).toBe(404)
    expect(res.json.message).toBe(msg.videoNotFound)
    const video = await createVideo()
    const anonymous = await addCaptions(
      video._id,
      { language: 'en', label: 'English' },
      files.vtt,
      '',
    )
    expect(anonymous.status).toBe(401)
    expect(await captionKeys()).toEqual([])
  })

  test('a hidden work: its track is signed for admins and refused to visitors', async () => {
    const video = await createVideo()
    const added = await addCaptions(video._id, { language: 'en', label: 'English' }, files.vtt)
    const plain = added.json.data.url as string
    expect((await t.fetch(plain)).status).toBe(200)
    const hidden = await t.call('PUT', `/api/videos/${video._id}/published`, {
      token,
      body: { published: false },
    })
    expect(hidden.status).toBe(200)
    expect((await t.fetch(plain)).status).toBe(404)
    const [track] = (await answerOf(video._id)).data.video.captions
    expect(track.url).toMatch(signedMediaUrl(plain.slice('/media/'.length)))
    const signed = await t.fetch(track.url)
    expect(signed.status).toBe(200)
    expect(signed.headers.get('cache-control')).toBe('private, no-cache')
    expect(await signed.text()).toStartWith('WEBVTT')
    // With the session, the plain address answers too.
    expect((await t.fetch(plain, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    )
  })
})

describe('DELETE /api/videos/:id/captions/:language', () => {
  test('204, then gone from the answers and the store; again 404', async () => {
    const video = await createVideo()
    const added = await addCaptions(video._id, { language: 'pt-BR', label: 'Português' }, files.vtt)
    const res = await t.fetch(`/api/videos/${video._id}/captions/pt-br`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    expect((await answerOf(video._id)).data.video.captions).toEqual([])
    expect(await captionKeys()).toEqual([])
    expect((await t.fetch(added.json.data.url)).status).toBe(404)
    const again = await t.call('DELETE', `/api/videos/${video._id}/captions/pt-BR`, { token })
    expect(again.status).toBe(404)
    expect(again.json.message).toBe(captionsMessages.notFound)
  })

  test('unknown video 404, no session 401', async () => {
    const missing = await t.call(
      'DELETE',
      '/api/videos/00000000-0000-4000-8000-000000000000/captions/en',
      { token },
    )
    expect(missing.status).toBe(404)
    expect(missing.json.message).toBe(msg.videoNotFound)
    const video = await createVideo()
    await addCaptions(video._id, { language: 'en', label: 'English' }, files.vtt)
    const anonymous = await t.call('DELETE', `/api/videos/${video._id}/captions/en`)
    expect(anonymous.status).toBe(401)
    expect(await captionKeys()).toHaveLength(1)
  })

  test('deleting the video deletes its caption files', async () => {
    const video = await createVideo()
    await addCaptions(video._id, { language: 'en', label: 'English' }, files.srt)
    await addCaptions(video._id, { language: 'fr', label: 'French' }, files.vtt)
    expect(await captionKeys()).toHaveLength(2)
    expect((await t.call('DELETE', `/api/videos/${video._id}`, { token })).status).toBe(200)
    expect(await captionKeys()).toEqual([])
    expect(await rows()).toBe(0)
  })
})

describe('over tus (kind `captions`) and tRPC', () => {
  test('an SRT upload becomes WebVTT through videos.addCaptions, and videos.create takes tracks', async () => {
    const tus = tusVia(t, token)
    const trio = await uploadTrio(t, token, await fixtures())
    const upload = await tus.upload(await bytesOf(files.srt), 'captions' as never)
    const created = await mutate('videos.create', {
      title: 'Made With Tracks',
      uploads: trio,
      captions: [{ upload, language: 'en', label: 'English' }],
    })
    expect(created.status).toBe(200)
    const video = created.json.result!.data.video
    expect(video.captions).toHaveLength(1)
    const text = await (await t.fetch(video.captions[0].url)).text()
    expect(text).toStartWith('WEBVTT\n')
    expect(text).toContain('00:00:01.200 --> 00:00:02.500')

    const more = await tus.upload(await bytesOf(files.vtt), 'captions' as never)
    const added = await mutate('videos.addCaptions', {
      id: video._id,
      upload: more,
      language: 'fr',
      label: 'Français',
    })
    expect(added.status).toBe(200)
    expect(added.json.result!.data.caption).toMatchObject({ language: 'fr', label: 'Français' })
    expect(added.json.result!.data.video.captions).toHaveLength(2)
    // The upload was spent.
    const reused = await mutate('videos.addCaptions', {
      id: video._id,
      upload: more,
      language: 'de',
      label: 'Deutsch',
    })
    expect(reused.status).toBe(400)
  })

  test('tus refuses a caption upload over 1 MB at creation; a malformed one is refused with its line at use', async () => {
    const tus = tusVia(t, token)
    const big = await tus.create(1024 * 1024 + 1, 'captions')
    expect(big.status).toBe(413)
    expect(await big.text()).toBe(captionsMessages.tooLarge)
    const video = await createVideo()
    const upload = await tus.upload(await bytesOf(files.malformed), 'captions' as never)
    const res = await mutate('videos.addCaptions', {
      id: video._id,
      upload,
      language: 'en',
      label: 'English',
    })
    expect(res.status).toBe(400)
    expect(res.json.error!.message).toBe(
      'Line 6: the cue timing "00:00:05,000 --> 00:00:03,000" ends before it starts',
    )
    expect(await captionKeys()).toEqual([])
  })

  test('videos.create with several tracks names the one refused, and makes nothing', async () => {
    const tus = tusVia(t, token)
    const trio = await uploadTrio(t, token, await fixtures())
    const good = await tus.upload(await bytesOf(files.srt), 'captions' as never)
    const bad = await tus.upload(await bytesOf(files.malformed), 'captions' as never)
    const res = await mutate('videos.create', {
      title: 'Two Tracks, One Wrong',
      uploads: trio,
      captions: [
        { upload: good, language: 'en', label: 'English' },
        { upload: bad, language: 'fr', label: 'Français' },
      ],
    })
    expect(res.status).toBe(400)
    expect(res.json.error!.message).toBe(
      'Line 6: the cue timing "00:00:05,000 --> 00:00:03,000" ends before it starts',
    )
    expect(res.json.error!.data.field).toBe('captions.1.upload')
    expect(await captionKeys()).toEqual([])
    expect(await rows()).toBe(0)
  })

  test('a video upload is not a caption track', async () => {
    const trio = await uploadTrio(t, token, await fixtures())
    const video = await createVideo()
    const res = await mutate('videos.addCaptions', {
      id: video._id,
      upload: trio.thumbnail,
      language: 'en',
      label: 'English',
    })
    expect(res.status).toBe(400)
    expect(res.json.error!.message).toBe(captionsMessages.wrongType)
  })

  test('the activity log records adding and removing a track', async () => {
    const video = await createVideo('Logged Work')
    await addCaptions(video._id, { language: 'en', label: 'English' }, files.vtt)
    await t.call('DELETE', `/api/videos/${video._id}/captions/en`, { token })
    const log = await t.app.database.db.execute<{ summary: string }>(
      sql`select summary from activity_log
          where kind = 'video.update' and target_id = ${video._id} order by id`,
    )
    expect([...log].map((row) => row.summary)).toEqual([
      'Edited “Logged Work”: captions English (en)',
      'Edited “Logged Work”: removed captions English (en)',
    ])
  })
})
