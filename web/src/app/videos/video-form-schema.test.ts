// The video form's messages, as react-hook-form's zod resolver shows them (docs/dashboard.md).
import { expect, test } from 'bun:test'
import { videoFormSchema } from './video-form-schema.ts'

const file = (name: string, type: string, size: number) => {
  const f = new File(['x'], name, { type })
  Object.defineProperty(f, 'size', { value: size })
  return f
}
const mp4 = file('clip.mp4', 'video/mp4', 1000)
const jpg = file('thumb.jpg', 'image/jpeg', 1000)
const png = file('logo.png', 'image/png', 1000)

/** The first message of each field. */
function messages(mode: 'create' | 'edit', value: Record<string, unknown>) {
  const result = videoFormSchema(mode).safeParse(value)
  if (result.success) return {}
  const out: Record<string, string> = {}
  for (const issue of result.error.issues) {
    const key = issue.path.join('.')
    out[key] ??= issue.message
  }
  return out
}

test('creating: every field is required, with the documented messages', () => {
  expect(messages('create', { title: '', description: '' })).toEqual({
    title: 'Title is required',
    video: 'Video file is required',
    thumbnail: 'Thumbnail is required',
    brandLogo: 'Brand Logo is required',
  })
  expect(messages('create', { title: 'A', video: mp4, thumbnail: jpg, brandLogo: png })).toEqual({})
})

test("creating: a removed video says 'Video is required'", () => {
  expect(messages('create', { title: 'A', video: null, thumbnail: jpg, brandLogo: png })).toEqual({
    video: 'Video is required',
  })
})

test('types and limits come from the shared file rules', () => {
  expect(
    messages('create', {
      title: 'A',
      video: file('a.mov', 'video/quicktime', 10),
      thumbnail: file('a.gif', 'image/gif', 10),
      brandLogo: file('big.png', 'image/png', 10_000_001),
    }),
  ).toEqual({
    video: 'Invalid video format. Allowed types: MP4, WebM, OGG',
    thumbnail: 'Invalid image format. Allowed types: JPEG, PNG, WebP',
    brandLogo: 'Brand logo size must be less than 10MB',
  })
  expect(
    messages('create', {
      title: 'A',
      video: file('big.mp4', 'video/mp4', 2 * 1024 ** 3 + 1),
      thumbnail: file('big.jpg', 'image/jpeg', 10 * 1024 ** 2 + 1),
      brandLogo: png,
    }),
  ).toEqual({
    video: 'Video size must be less than 2GB',
    thumbnail: 'Thumbnail size must be less than 10MB',
  })
})

test('editing: files optional, title at least 3 characters, brand logo at most 5 MB', () => {
  expect(messages('edit', { title: 'Ok title' })).toEqual({})
  expect(messages('edit', { title: 'Ed' })).toEqual({
    title: 'Title must be at least 3 characters',
  })
  const six = file('logo.webp', 'image/webp', 6_000_000)
  expect(messages('edit', { title: 'Ok title', brandLogo: six })).toEqual({
    brandLogo: 'Brand logo size must be less than 5MB',
  })
  expect(messages('create', { title: 'A', video: mp4, thumbnail: jpg, brandLogo: six })).toEqual({})
})

test('title and description are trimmed', () => {
  const result = videoFormSchema('edit').parse({ title: '  Spaced  ', description: ' words ' })
  expect(result.title).toBe('Spaced')
  expect(result.description).toBe('words')
})
