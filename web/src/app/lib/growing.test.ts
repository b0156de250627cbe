import { describe, expect, test } from 'bun:test'
import type { Video } from '../../api.ts'
import { dashboardSources, readyLine, rungsLine, waitingLine } from './growing.ts'

const growing = {
  hlsUrl: '/media/signed/growing/master.m3u8',
  rungs: ['360p', '480p'],
  planned: ['360p', '480p', '720p', '1080p'],
  seconds: 42,
}
const processing = {
  hlsUrl: null,
  growing,
  loudness: null,
  captions: [],
} as unknown as Video

describe('the words beside a growing stream', () => {
  test('the rungs that play now, then those on the way', () => {
    expect(rungsLine(growing)).toBe('Playable now · 360p, 480p — 720p, 1080p on the way')
    expect(rungsLine({ rungs: ['360p'], planned: ['360p'] })).toBe('Playable now · 360p')
    expect(rungsLine({ rungs: [], planned: ['360p', '720p'] })).toBe('On the way · 360p, 720p')
  })

  test('how much is ready, never rounded up, and what a jump waits for', () => {
    expect(readyLine(42.9, 180)).toBe('Still processing: 0:42 of 3:00 is ready to play.')
    expect(readyLine(42, null)).toBe('Still processing: 0:42 is ready to play.')
    expect(waitingLine(90)).toBe('Waiting for the encoder to reach 1:30…')
  })
})

describe('what a dashboard player plays', () => {
  test('the growing stream while processing, the master link to fall back on', () => {
    expect(dashboardSources(processing, null)).toBeNull()
    const sources = dashboardSources(processing, '/media/signed/master.mp4')
    expect(sources?.hlsUrl).toBe(growing.hlsUrl)
    expect(sources?.videoUrl).toBe('/media/signed/master.mp4')
  })

  test('the final streams once they exist, the master alone without a growing stream', () => {
    const ready = { ...processing, hlsUrl: '/media/x/master.m3u8' } as Video
    expect(dashboardSources(ready, null)).toBe(ready)
    const none = { ...processing, growing: null } as Video
    expect(dashboardSources(none, '/m.mp4')?.hlsUrl).toBeNull()
  })
})
