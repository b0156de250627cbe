import { describe, expect, test } from 'bun:test'
import { loudnessReferenceOf, pageDataFrom } from './page-data.ts'

const image = { id: 'builtin:x', width: 10, height: 10, files: [{ url: '/x.webp', width: 10 }] }
const site = (playback?: unknown) => ({
  hero: { line: 'A line', services: [], images: { wide: image, mobile: image } },
  clients: [],
  about: { lead: 'Lead', paragraphs: [], mission: '' },
  contact: { intro: '', address: '', team: [] },
  ...(playback === undefined ? {} : { playback }),
})
const video = { _id: 'a', videoUrl: '/media/a.mp4', thumbnailUrl: '/media/a.jpg' }

describe('the loudness reference a page levels by', () => {
  test("a work page's and the landing page's come from the site", () => {
    const work = pageDataFrom({ kind: 'work', site: site({ loudnessReference: -16.5 }), video })
    expect(loudnessReferenceOf(work)).toBe(-16.5)
    const off = pageDataFrom({ kind: 'work', site: site({ loudnessReference: null }), video })
    expect(loudnessReferenceOf(off)).toBeNull()
  })
  test('a review page carries its own; a page from an older server levels at −14', () => {
    expect(
      loudnessReferenceOf(pageDataFrom({ kind: 'review', video, loudnessReference: -20 })),
    ).toBe(-20)
    expect(loudnessReferenceOf(pageDataFrom({ kind: 'review', video }))).toBe(-14)
    expect(loudnessReferenceOf(pageDataFrom({ kind: 'work', site: site(), video }))).toBe(-14)
    expect(loudnessReferenceOf(null)).toBe(-14)
  })
  test("a work's loudness reaches the player as its integrated value only", () => {
    const data = pageDataFrom({
      kind: 'review',
      video: { ...video, loudness: { integrated: -8.1, range: 2, truePeak: 0.3 } },
    })
    expect(data?.kind === 'review' && data.video.loudness).toEqual({ integrated: -8.1 })
    const bad = pageDataFrom({ kind: 'review', video: { ...video, loudness: { integrated: 'x' } } })
    expect(bad?.kind === 'review' && bad.video.loudness).toBeNull()
  })
})

describe("a work's captions in the page's data", () => {
  test('reach the players as language, label and file; anything else is left out', () => {
    const en = { language: 'en', label: 'English', url: '/media/a/captions/en.vtt' }
    const data = pageDataFrom({
      kind: 'work',
      site: site(),
      video: { ...video, captions: [en, { language: 'fr' }, 'x', { ...en, url: 7 }] },
    })
    expect(data?.kind === 'work' && data.video.captions).toEqual([en])
    const landing = pageDataFrom({
      kind: 'landing',
      site: site(),
      videos: { videos: [{ ...video, captions: [en] }], nextCursor: null },
    })
    expect(landing?.kind === 'landing' && landing.page.videos[0]?.captions).toEqual([en])
  })
  test('a page from an older server has none', () => {
    const data = pageDataFrom({ kind: 'review', video, loudnessReference: null })
    expect(data?.kind === 'review' && data.video.captions).toEqual([])
  })
})

describe('a review page’s versions', () => {
  test('kept in order with their players; a malformed one is left out; none from an older server', () => {
    const data = pageDataFrom({
      kind: 'review',
      video,
      versions: [
        { id: 'v1', number: 1, current: false, video },
        { id: 'v2', number: 2, current: true, video },
        { id: 3, number: 3, video },
        { id: 'v4', number: 4, current: false, video: null },
      ],
    })
    expect(data?.kind === 'review' && data.versions.map((v) => [v.id, v.current])).toEqual([
      ['v1', false],
      ['v2', true],
    ])
    const old = pageDataFrom({ kind: 'review', video })
    expect(old?.kind === 'review' && old.versions).toEqual([])
  })
})
