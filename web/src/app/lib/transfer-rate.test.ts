import { expect, test } from 'bun:test'
import { createRateMeter } from './transfer-rate.ts'

const MB = 1024 * 1024

test('no rate until the samples span a second', () => {
  const meter = createRateMeter()
  meter.add(0, 0)
  meter.add(MB, 500)
  expect(meter.rate()).toBeNull()
  expect(meter.secondsLeft(10 * MB)).toBeNull()
  meter.add(2 * MB, 1000)
  expect(meter.rate()).toBe(2 * MB)
  expect(meter.secondsLeft(10 * MB)).toBe(4)
})

test('the rate follows the last five seconds, not the whole history', () => {
  const meter = createRateMeter({ windowMs: 5000 })
  // 10 s at 4 MB/s, then 10 s at 1 MB/s.
  for (let t = 0; t <= 10_000; t += 500) meter.add((t / 1000) * 4 * MB, t)
  for (let t = 10_500; t <= 20_000; t += 500) meter.add(40 * MB + ((t - 10_000) / 1000) * MB, t)
  expect(meter.rate()).toBeCloseTo(MB, 0)
})

test('a stall brings the rate to zero and time left to unknown', () => {
  const meter = createRateMeter({ windowMs: 5000 })
  for (let t = 0; t <= 2000; t += 500) meter.add(t * 1000, t)
  for (let t = 2500; t <= 9000; t += 500) meter.add(2_000_000, t)
  expect(meter.rate()).toBe(0)
  expect(meter.secondsLeft(10_000_000)).toBeNull()
})

test('fewer bytes than before (a chunk sent again) starts a new measurement', () => {
  const meter = createRateMeter()
  meter.add(0, 0)
  meter.add(8 * MB, 2000)
  meter.add(5 * MB, 2500)
  expect(meter.rate()).toBeNull()
  meter.add(6 * MB, 3500)
  expect(meter.rate()).toBe(MB)
})

test('reset forgets everything', () => {
  const meter = createRateMeter()
  meter.add(0, 0)
  meter.add(MB, 1000)
  meter.reset()
  expect(meter.rate()).toBeNull()
})
