// How processing progress reaches the row: whole percents that changed, at most one write a
// second, never two at once (a slow database must not pile up writes behind a fast ffmpeg).
import { expect, test } from 'bun:test'
import { PROGRESS_EVERY_MS, progressWriter } from '../../src/processing/jobs/process-video.ts'

test('whole percents that changed, at most once a second, one write at a time', async () => {
  const writes: { percent: number; at: number }[] = []
  let running = 0
  let overlapped = false
  const progress = progressWriter(async (percent) => {
    running++
    if (running > 1) overlapped = true
    writes.push({ percent, at: Date.now() })
    await Bun.sleep(50)
    running--
  })
  const started = Date.now()
  // ffmpeg reports twice a second; here much faster, with fractions and repeats.
  for (const value of [0.2, 0.7, 1.5, 1.9, 2, 3.3, Number.NaN, 3.9]) progress.push(value)
  await progress.settled()
  expect(writes.map((w) => w.percent)).toEqual([0])
  await Bun.sleep(PROGRESS_EVERY_MS + 50)
  progress.push(4.2)
  progress.push(4.8) // same whole percent while the first write runs
  progress.push(7)
  await progress.settled()
  await Bun.sleep(PROGRESS_EVERY_MS + 50)
  // 7 waited (too soon, and a write was running): the next report brings it.
  progress.push(7.5)
  await progress.settled()
  progress.push(9) // too soon again: dropped, and nothing is written after the run
  await Bun.sleep(PROGRESS_EVERY_MS + 50)
  expect(writes.map((w) => w.percent)).toEqual([0, 4, 7])
  for (let i = 1; i < writes.length; i++) {
    expect(writes[i]!.at - writes[i - 1]!.at).toBeGreaterThanOrEqual(PROGRESS_EVERY_MS)
  }
  expect(overlapped).toBe(false)
  expect(writes[0]!.at - started).toBeLessThan(100)
})
