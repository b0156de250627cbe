import { expect, test } from 'bun:test'
import { trackIn, withoutTrack, withTrack } from './caption-tracks.ts'

const en = { language: 'en', label: 'English', url: '/media/a/en.vtt' }
const fr = { language: 'fr', label: 'French', url: '/media/a/fr.vtt' }

test('an added track joins the end; one in a language already there replaces it in place', () => {
  expect(withTrack([en], fr)).toEqual([en, fr])
  const sdh = { language: 'EN', label: 'English (SDH)', url: '/media/a/en2.vtt' }
  expect(withTrack([en, fr], sdh)).toEqual([sdh, fr])
})

test('removing takes out only that language, whatever its case', () => {
  expect(withoutTrack([en, fr], 'EN')).toEqual([fr])
  expect(withoutTrack([en, fr], 'de')).toEqual([en, fr])
  expect(trackIn([en, fr], 'Fr')).toBe(fr)
  expect(trackIn([en], 'fr')).toBeUndefined()
})
