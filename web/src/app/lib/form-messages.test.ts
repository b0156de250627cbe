// The forms show the shared schemas' messages: check each one reads as docs/dashboard.md says.
import { expect, test } from 'bun:test'
import {
  createAdminFormSchema,
  editTitleSchema,
  forgotPasswordSchema,
  loginSchema,
  resetPasswordFormSchema,
  titleSchema,
  updateAdminFormSchema,
} from '@contract/index.ts'
import type { z } from 'zod'

/** The first message of each field, as react-hook-form's zod resolver shows them. */
const messages = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value)
  if (result.success) return []
  const first = new Map<string, string>()
  for (const issue of result.error.issues) {
    const path = issue.path.join('.')
    if (!first.has(path)) first.set(path, issue.message)
  }
  return [...first.values()]
}

test('sign-in and forgot password', () => {
  expect(messages(loginSchema, { email: '', password: '' })).toEqual([
    'Email is required',
    'This field is required',
  ])
  expect(messages(loginSchema, { email: 'nope', password: 'x' })).toEqual(['Invalid email address'])
  expect(messages(forgotPasswordSchema, { email: '' })).toEqual(['Email is required'])
})

test('reset password', () => {
  expect(messages(resetPasswordFormSchema, { password: '', confirmPassword: '' })).toEqual([
    'Password is required',
    'Please confirm your password',
  ])
  expect(messages(resetPasswordFormSchema, { password: '12345', confirmPassword: '1' })).toContain(
    'Password must be at least 6 characters',
  )
  expect(
    messages(resetPasswordFormSchema, { password: '123456', confirmPassword: '1234567' }),
  ).toEqual(['Passwords do not match'])
})

test('video titles', () => {
  expect(messages(titleSchema, '  ')).toEqual(['Title is required'])
  expect(messages(titleSchema, 'ab')).toEqual([])
  expect(messages(editTitleSchema, 'ab')).toEqual(['Title must be at least 3 characters'])
})

test('create and edit admin', () => {
  expect(
    messages(createAdminFormSchema, { username: '', email: '', password: '', confirmPassword: '' }),
  ).toEqual([
    'Username is required',
    'Email is required',
    'Password is required',
    'Please confirm password',
  ])
  const bad = { username: 'a b', email: 'x', password: '123456', confirmPassword: '654321' }
  expect(messages(createAdminFormSchema, bad)).toContain(
    'Username can only contain letters, numbers and underscore',
  )
  expect(messages(createAdminFormSchema, { ...bad, username: 'ab' })).toContain(
    'Username must be at least 3 characters',
  )
  // Edit: everything optional; blanks mean "unchanged".
  expect(messages(updateAdminFormSchema, { username: '', email: '', password: '' })).toEqual([])
  expect(
    messages(updateAdminFormSchema, { password: 'newpass', confirmPassword: 'other' }),
  ).toEqual(['Passwords do not match'])
})
