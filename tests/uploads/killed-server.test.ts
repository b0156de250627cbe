// The short variant of bench/kill-upload: SIGKILL of the real server mid-upload and during
// videos.create; after restarts nothing is lost, corrupted or left half-done, and a create the
// kill stopped left its uploads usable.
import { expect, test } from 'bun:test'
import { runKillTrials } from '../../testkit/kill-trials.ts'

test('kills mid-upload and mid-create lose nothing and leave nothing behind', async () => {
  const r = await runKillTrials({ trials: 3, sizeMB: 24, createTrials: 6 })
  expect(r.completed).toBe(3)
  expect(r.shaMismatches).toBe(0)
  expect(r.createComplete + r.createGone).toBe(6)
  expect(r.uploadsLost).toBe(0)
  expect(r.orphanFiles).toEqual([])
  expect(r.danglingRows).toEqual([])
}, 240_000)
