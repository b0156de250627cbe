// Which jobs exist for which video file, with no worker running (MEDIA_WORKERS=0): one per file,
// made with the row, cancelled with a replaced or deleted file, and made again at start-up for
// a queued video that has none (as after the migration that brought the pipeline).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { PgBoss } from 'pg-boss'
import { MEDIA_QUEUE } from '../../src/processing/queue.ts'
import { fixtures } from '../../testkit/media.ts'
import { uploadVideo, type VideoAnswer } from '../../testkit/pipeline.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
let token: string
const fetch = (path: string, init?: RequestInit) => t.fetch(path, init)

beforeAll(async () => {
  t = await startTestApp()
  token = await t.login()
}, 60_000)
afterAll(() => t.stop())

/** pg-boss as another client of the same database sees it, for each question anew (restarts). */
async function withBoss<T>(use: (boss: PgBoss) => Promise<T>): Promise<T> {
  const boss = new PgBoss({
    ...t.app.database.poolTarget,
    max: 1,
    supervise: false,
    schedule: false,
  })
  boss.on('error', () => {})
  await boss.start()
  try {
    return await use(boss)
  } finally {
    await boss.stop()
  }
}

/** The media jobs by state and key. */
const jobs = () =>
  withBoss(async (boss) =>
    (await boss.findJobs(MEDIA_QUEUE)).map((j) => `${j.state} ${j.singletonKey}`).sort(),
  )

const keyOf = (video: VideoAnswer) => `${video._id}:${video.videoUrl.split('/').pop()}`

test('one job per video file: with the row, again at start-up only when missing, cancelled with the file', async () => {
  const f = await fixtures()
  const video = await uploadVideo(fetch, token, f.mp4, 'First')
  expect(await jobs()).toEqual([`created ${keyOf(video)}`])

  // A restart queues nothing twice.
  await t.restart()
  expect(await jobs()).toEqual([`created ${keyOf(video)}`])

  // A queued video without a job (rows from before the pipeline): start-up makes it.
  await withBoss((boss) => boss.deleteQueuedJobs(MEDIA_QUEUE))
  expect(await jobs()).toEqual([])
  await t.restart()
  expect(await jobs()).toEqual([`created ${keyOf(video)}`])

  // A new file: the old file's job is cancelled, the new one queued, in the same transaction.
  const body = new FormData()
  body.append('video', Bun.file(f.webm), 'other.webm')
  const put = await t.fetch(`/api/videos/${video._id}/video`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}` },
    body,
  })
  expect(put.status).toBe(200)
  const replaced = ((await put.json()) as { data: { video: VideoAnswer } }).data.video
  expect(replaced.status).toBe('queued')
  expect(await jobs()).toEqual([`cancelled ${keyOf(video)}`, `created ${keyOf(replaced)}`].sort())

  // An edit that keeps the file keeps its job.
  const patched = await t.call('PATCH', `/api/videos/${video._id}`, {
    token,
    body: { title: 'Renamed' },
  })
  expect(patched.json.data.video.status).toBe('queued')
  expect(await jobs()).toEqual([`cancelled ${keyOf(video)}`, `created ${keyOf(replaced)}`].sort())

  // Deleted: nothing is left to run.
  expect((await t.call('DELETE', `/api/videos/${video._id}`, { token })).status).toBe(200)
  expect(await jobs()).toEqual([`cancelled ${keyOf(video)}`, `cancelled ${keyOf(replaced)}`].sort())
}, 120_000)
