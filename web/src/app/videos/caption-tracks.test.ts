import { expect, test } from 'bun:test'
import { trackIn } from './caption-tracks.ts'

const en = { language: 'en', label: 'English', url: '/media/a.vtt' }
const fr = { language: 'fr', label: 'French', url: '/media/b.vtt' }

test('the track a language would replace is found whatever its case', () => {
  expect(trackIn([en, fr], 'Fr')).toBe(fr)
  expect(trackIn([en], 'fr')).toBeUndefined()
})
