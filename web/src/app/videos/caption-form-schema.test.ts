// The caption rows' messages, as react-hook-form's zod resolver shows them (docs/dashboard.md).
import { expect, test } from 'bun:test'
import {
  captionFieldOf,
  captionFileError,
  captionRowSchema,
  captionRowsSchema,
  captionUploadKey,
  labelForLanguage,
  languageName,
} from './caption-form-schema.ts'

const file = (name: string, type: string, size: number) => {
  const f = new File(['x'], name, { type })
  Object.defineProperty(f, 'size', { value: size })
  return f
}
const vtt = file('en.vtt', 'text/vtt', 2000)
const srt = file('fr.srt', '', 2000)

/** The first message of each field, as the form shows it. */
function messages(value: unknown) {
  const result = captionRowsSchema.safeParse(value)
  if (result.success) return {}
  const out: Record<string, string> = {}
  for (const issue of result.error.issues) out[issue.path.join('.')] ??= issue.message
  return out
}

test('a row needs a file, a language tag and a label', () => {
  expect(messages([{ file: undefined, language: '', label: '' }])).toEqual({
    '0.file': 'A WebVTT or SRT file is required',
    '0.language': 'Language is required',
    '0.label': 'Label is required',
  })
  expect(messages([{ file: vtt, language: 'english', label: 'English' }])).toEqual({
    '0.language': 'Language must be a language tag such as en, fr or pt-BR',
  })
})

test('the language comes out canonical, the label trimmed', () => {
  const parsed = captionRowSchema.parse({ file: srt, language: ' pt-br ', label: ' Português ' })
  expect(parsed).toEqual({ file: srt, language: 'pt-BR', label: 'Português' })
})

test('files: up to 1 MB; what they hold the server reads, whatever their name', () => {
  expect(captionFileError(vtt)).toBeNull()
  expect(captionFileError(srt)).toBeNull()
  expect(captionFileError(file('cues.txt', 'text/plain', 10))).toBeNull()
  expect(captionFileError(file('big.vtt', 'text/vtt', 1_000_001))).toBe(
    'Captions must be at most 1 MB',
  )
  expect(captionFileError(file('edge.vtt', 'text/vtt', 1_000_000))).toBeNull()
})

test('each language once, and at most 20 tracks', () => {
  const rows = [
    { file: vtt, language: 'en', label: 'English' },
    { file: srt, language: 'EN', label: 'English (SDH)' },
  ]
  expect(messages(rows)).toEqual({
    '1.language': 'Each language may have only one caption track',
  })
  const many = Array.from({ length: 21 }, (_, i) => ({
    file: vtt,
    language: `a${String.fromCharCode(97 + (i % 26))}${i < 26 ? '' : 'x'}`.slice(0, 3),
    label: `T${i}`,
  }))
  expect(Object.values(messages(many))).toContain('A work can have at most 20 caption tracks')
})

test('a label to start from is the language name in English', () => {
  expect(languageName('fr')).toBe('French')
  expect(languageName('pt-BR')).toBe('Brazilian Portuguese')
  expect(languageName('not a tag')).toBe('')
})

test("a refusal's field finds its track: by index, or the only one, else the whole section", () => {
  expect(captionFieldOf(captionUploadKey(2), 3)).toEqual({ index: 2, field: 'file' })
  expect(captionFieldOf('captions.1.upload', 3)).toEqual({ index: 1, field: 'file' })
  expect(captionFieldOf('captions.0.language', 1)).toEqual({ index: 0, field: 'language' })
  expect(captionFieldOf('captions', 1)).toEqual({ index: 0, field: 'file' })
  expect(captionFieldOf('captions', 2)).toEqual({ index: null, field: 'file' })
  expect(captionFieldOf('title', 1)).toBeNull()
  expect(captionFieldOf(undefined, 1)).toBeNull()
})

test('the label follows the language until the admin types one', () => {
  expect(labelForLanguage('', '', 'f')).toBeNull()
  expect(labelForLanguage('', 'f', 'fr')).toBe('French')
  expect(labelForLanguage('French', 'fr', 'fr-CA')).toBe('Canadian French')
  expect(labelForLanguage('French (SDH)', 'fr', 'de')).toBeNull()
  expect(labelForLanguage('Canadian French', 'fr-CA', 'fr-C')).toBe('')
  expect(labelForLanguage('German', 'de', 'de')).toBeNull()
})
