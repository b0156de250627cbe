import { describe, expect, test } from 'bun:test'
import { gainToVolume, playbackGainDb } from '@contract/loudness.ts'
import { decibels, loudnessText } from './loudness-text.ts'

const figures = (integrated: number, truePeak: number | null = -3, range = 4) => ({
  integrated,
  range,
  truePeak,
})

describe('playbackGainDb', () => {
  test('a louder work is turned down to the reference', () => {
    expect(playbackGainDb(-8.1, -14)).toBe(-5.9)
    expect(playbackGainDb(-8, -14)).toBe(-6)
    expect(playbackGainDb(-3, -23)).toBe(-20)
  })
  test('a quieter work, or one at the reference, is never turned up', () => {
    expect(playbackGainDb(-20, -14)).toBe(0)
    expect(playbackGainDb(-14, -14)).toBe(0)
    expect(Object.is(playbackGainDb(-14.04, -14), 0)).toBe(true)
  })
  test('off, no audio or not measured: 0', () => {
    expect(playbackGainDb(-8, null)).toBe(0)
    expect(playbackGainDb(null, -14)).toBe(0)
    expect(playbackGainDb(Number.NaN, -14)).toBe(0)
  })
  test('the volume for a gain', () => {
    expect(gainToVolume(0)).toBe(1)
    expect(gainToVolume(-6)).toBeCloseTo(0.501, 3)
    expect(gainToVolume(-20)).toBeCloseTo(0.1, 6)
    expect(gainToVolume(3)).toBe(1)
  })
})

describe('loudnessText', () => {
  test('a loud work says how much quieter it plays', () => {
    expect(loudnessText(figures(-8.1), true, -14)).toEqual({
      level: '−8.1 LUFS · plays 5.9 dB quieter on the site',
      warning: null,
    })
  })
  test('a quiet work plays as mixed; with levelling off, every work does', () => {
    expect(loudnessText(figures(-20), true, -14)?.level).toBe('−20.0 LUFS · plays as mixed')
    expect(loudnessText(figures(-8.1), true, null)?.level).toBe(
      '−8.1 LUFS · plays as mixed (levelling is off)',
    )
  })
  test('a true peak above −1 dBTP is a warning; at or below it, none', () => {
    expect(loudnessText(figures(-8, 0.4), true, -14)?.warning).toBe(
      'true peak +0.4 dBTP: may clip on some devices',
    )
    expect(loudnessText(figures(-8, -0.5), true, -14)?.warning).toBe(
      'true peak −0.5 dBTP: may clip on some devices',
    )
    expect(loudnessText(figures(-8, -1), true, -14)?.warning).toBeNull()
    expect(loudnessText(figures(-70, null), true, -14)?.warning).toBeNull()
  })
  test('no audio, not measured yet, not probed yet', () => {
    expect(loudnessText(null, false, -14)).toEqual({ level: 'No audio', warning: null })
    expect(loudnessText(null, true, -14)?.level).toBe('Loudness not measured yet')
    expect(loudnessText(null, null, -14)).toBeNull()
  })
  test('decibels: one decimal, a real minus, a plus only when asked', () => {
    expect(decibels(-8.06)).toBe('−8.1')
    expect(decibels(0.4, true)).toBe('+0.4')
    expect(decibels(-0.01, true)).toBe('0.0')
    expect(decibels(5.9)).toBe('5.9')
  })
})
