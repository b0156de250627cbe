import { expect, test } from 'bun:test'
import { fileError, missingFileError } from './file-rules.ts'

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
  expect(missingFileError('video')).toBe('Video file is required')
  expect(missingFileError('thumbnail')).toBe('Thumbnail is required')
  expect(missingFileError('brandLogo')).toBe('Brand Logo is required')
})
