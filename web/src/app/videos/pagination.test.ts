import { expect, test } from 'bun:test'
import { pageWindow } from '../components/pagination.tsx'

test('all pages when few', () => {
  expect(pageWindow(1, 1)).toEqual([1])
  expect(pageWindow(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7])
})

test('gaps around the current page when many', () => {
  expect(pageWindow(1, 12)).toEqual([1, 2, null, 12])
  expect(pageWindow(6, 12)).toEqual([1, null, 5, 6, 7, null, 12])
  expect(pageWindow(12, 12)).toEqual([1, null, 11, 12])
})
