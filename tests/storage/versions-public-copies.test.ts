// A work's versions and the bucket's public copies (MEDIA_PUBLIC_URL,
// docs/decisions/087-public-copies-under-public-for-shown-works-only.md), on a real S3
// bucket: the current version's streams are copied under public/ and /media redirects there; once
// another version is current, the old one's copy leaves the public address and its streams answer
// only admins; deleting a version leaves nothing of it in the bucket, public copy included.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { S3Config } from '../../src/config.ts'
import { pollUntil } from '../../testkit/poll.ts'
import { prepareOutputs, readyVersion, readyWorks } from '../../testkit/ready.ts'
import {
  bucketKeys,
  dropBucket,
  makeBucket,
  publishPublicPrefixes,
  s3Available,
  s3Env,
} from '../../testkit/s3.ts'
import { describeSkipIf } from '../../testkit/skip.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { bytesOf, type Fixtures, fixtures, form, send, tusVia } from '../../testkit/videos.ts'

const folderOf = (url: string) => /\/media\/([0-9a-f]{32})\//.exec(url)?.[1] ?? ''

describeSkipIf(s3Available().reason)('versions and public copies', () => {
  let bucket: S3Config
  let t: TestApp
  let f: Fixtures
  let token: string
  let dir: string

  beforeAll(async () => {
    bucket = await makeBucket()
    const publicUrl = await publishPublicPrefixes(bucket)
    dir = mkdtempSync(join(tmpdir(), 'versions-public-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html lang="en"><title>Studio</title>')
    t = await startTestApp({ ...s3Env(bucket), MEDIA_PUBLIC_URL: `${publicUrl}/`, WEB_DIST: dir })
    f = await fixtures()
    await Promise.all([prepareOutputs(f.mp4), prepareOutputs(f.webm)])
    token = await t.login()
  }, 120_000)
  afterAll(async () => {
    await t?.stop()
    if (bucket) await dropBucket(bucket)
    rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  const status = async (path: string, headers: Record<string, string> = {}) => {
    const res = await t.fetch(path, { headers, redirect: 'manual' })
    await res.arrayBuffer()
    return res.status
  }
  const publicKeysOf = async (name: string) =>
    (await bucketKeys(bucket)).filter((key) => key.startsWith('public/') && key.includes(name))
  const waitFor = (what: string, check: () => Promise<boolean>) =>
    pollUntil(check, (ok) => ok, { what, timeoutMs: 60_000, everyMs: 200 })

  test('the old version’s copy leaves the public address, and a deleted version leaves the bucket', async () => {
    const res = await send(
      t,
      'POST',
      '/api/videos/upload',
      token,
      form({ title: 'Copied Cut' }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
    )
    const id = res.json.data.video._id as string
    await readyWorks(t, [id])
    const v1 = (await t.call('GET', `/api/videos/${id}`, { token })).json.data.video
    const first = folderOf(v1.hlsUrl)
    await waitFor(
      'version 1 copied',
      async () => (await status(`/media/${first}/master.m3u8`)) === 302,
    )

    const upload = await tusVia(t, token).upload(await bytesOf(f.webm), 'video')
    const added = await t.call('POST', `/api/videos/${id}/versions`, { token, body: { upload } })
    const versionId = added.json.data.version._id as string
    await readyVersion(t, versionId)
    const v2 = (await t.call('GET', `/api/videos/${id}`, { token })).json.data.video
    const second = folderOf(v2.hlsUrl)
    await waitFor(
      'version 2 copied',
      async () => (await status(`/media/${second}/master.m3u8`)) === 302,
    )
    await waitFor('version 1 withdrawn', async () => (await publicKeysOf(first)).length === 0)
    expect(await status(`/media/${first}/master.m3u8`)).toBe(404)
    expect(await status(`/media/${first}/master.m3u8`, { authorization: `Bearer ${token}` })).toBe(
      200,
    )

    // Version 1 current again: its copy comes back, version 2's goes; then version 2 is deleted.
    const [old] = (await t.call('GET', `/api/videos/${id}/versions`, { token })).json.data.versions
    expect(
      (await t.call('PUT', `/api/videos/${id}/versions/${old._id}/current`, { token })).status,
    ).toBe(200)
    await waitFor(
      'version 1 copied again',
      async () => (await status(`/media/${first}/master.m3u8`)) === 302,
    )
    const master = v2.videoUrl.replace(/^.*\//, '')
    const deleted = await t.call('DELETE', `/api/videos/${id}/versions/${versionId}`, { token })
    expect(deleted.status).toBe(200)
    const left = (await bucketKeys(bucket)).filter(
      (key) => key.includes(second) || key.includes(master),
    )
    expect(left).toEqual([])
  }, 180_000)
})
