import { expect, test } from 'bun:test'
import { safeRedirect } from './redirect.ts'

test('paths of this site are followed as the browser reads them', () => {
  expect(safeRedirect('/dashboard')).toBe('/dashboard')
  expect(safeRedirect('/dashboard/admins?from=mail#top')).toBe('/dashboard/admins?from=mail#top')
  expect(safeRedirect('/dashboard/../dashboard/manage')).toBe('/dashboard/manage')
  expect(safeRedirect('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example')
})

test('anything that leaves the site, or is no path, is refused', () => {
  for (const value of [
    'https://evil.example/x',
    '//evil.example/x',
    '/\\evil.example/x',
    '/\t/evil.example/x',
    '/.//evil.example/x',
    '/..//evil.example/x',
    'javascript:alert(1)',
    'dashboard',
    '',
    undefined,
    42,
  ]) {
    expect([value, safeRedirect(value)]).toEqual([value, undefined])
  }
})
