// The per-kind file rules shared by the tus hooks, the REST adapter, intake and the web forms.
import { expect, test } from 'bun:test'
import {
  acceptedTypes,
  fileError,
  fileRuleSummary,
  kindAccepts,
  maxBytes,
  requiredMessage,
  tooLargeMessage,
  wrongTypeMessage,
} from '../../src/contract/file-rules.ts'

const MiB = 1024 * 1024

test('video type and 2 GB limit', () => {
  expect(fileError('video', { type: 'video/mp4', size: 10 }, 'create')).toBeNull()
  expect(fileError('video', { type: 'video/quicktime', size: 10 }, 'create')).toBe(
    'Invalid video format. Allowed types: MP4, WebM, OGG',
  )
  expect(fileError('video', { type: 'video/webm', size: 2048 * MiB + 1 }, 'create')).toBe(
    'Video size must be less than 2GB',
  )
})

test('thumbnail type and 10 MB limit', () => {
  expect(fileError('thumbnail', { type: 'image/gif', size: 10 }, 'create')).toBe(
    'Invalid image format. Allowed types: JPEG, PNG, WebP',
  )
  expect(fileError('thumbnail', { type: 'image/png', size: 10 * MiB + 1 }, 'edit')).toBe(
    'Thumbnail size must be less than 10MB',
  )
})

test('brand logo: 10 MB on upload, 5 MB on edit', () => {
  const six = { type: 'image/webp', size: 6_000_000 }
  expect(fileError('brandLogo', six, 'create')).toBeNull()
  expect(fileError('brandLogo', six, 'edit')).toBe('Brand logo size must be less than 5MB')
  expect(fileError('brandLogo', { type: 'image/png', size: 10_000_001 }, 'create')).toBe(
    'Brand logo size must be less than 10MB',
  )
})

test('missing files', () => {
  expect(requiredMessage('video')).toBe('Video file is required')
  expect(requiredMessage('thumbnail')).toBe('Thumbnail is required')
  expect(requiredMessage('brandLogo')).toBe('Brand Logo is required')
})

test('the server side asks the same rules: limits by mode, sniffed types, messages', () => {
  expect(maxBytes('video')).toBe(2048 * MiB)
  expect(maxBytes('thumbnail', 'edit')).toBe(10 * MiB)
  expect(maxBytes('brandLogo', 'create')).toBe(10_000_000)
  expect(maxBytes('brandLogo', 'edit')).toBe(5_000_000)
  expect(acceptedTypes('video')).toEqual(['video/mp4', 'video/webm', 'video/ogg'])
  expect(acceptedTypes('brandLogo')).toEqual(['image/jpeg', 'image/png', 'image/webp'])
  expect(kindAccepts('video', 'video/ogg')).toBe(true)
  expect(kindAccepts('video', 'image/png')).toBe(false)
  expect(kindAccepts('thumbnail', 'video/mp4')).toBe(false)
  expect(kindAccepts('thumbnail', undefined)).toBe(false)
  expect(tooLargeMessage('brandLogo')).toBe('Brand logo size must be less than 10MB')
  expect(tooLargeMessage('brandLogo', 'edit')).toBe('Brand logo size must be less than 5MB')
  expect(wrongTypeMessage('thumbnail')).toBe('Invalid image format. Allowed types: JPEG, PNG, WebP')
})

test("the forms state each kind's types and limit from the same rules", () => {
  expect(fileRuleSummary('video')).toBe('MP4, WebM or OGG · up to 2 GB')
  expect(fileRuleSummary('thumbnail')).toBe('JPEG, PNG or WebP · up to 10 MB')
  expect(fileRuleSummary('thumbnail', 'edit')).toBe('JPEG, PNG or WebP · up to 10 MB')
  expect(fileRuleSummary('brandLogo', 'create')).toBe('JPEG, PNG or WebP · up to 10 MB')
  expect(fileRuleSummary('brandLogo', 'edit')).toBe('JPEG, PNG or WebP · up to 5 MB')
})
