// Every kind of failure reads the same way: kind from the status, field from the server.
import { describe, expect, test } from 'bun:test'
import { TRPCClientError } from '@trpc/client'
import { RequestError, toClientError } from './errors.ts'

/** A tRPC error as the client builds it from our server's error formatter (src/api/trpc.ts). */
const trpcError = (message: string, data: { httpStatus: number; code: string; field?: string }) =>
  new TRPCClientError(message, {
    result: { error: { message, code: -32600, data: { field: null, ...data } } },
  } as ConstructorParameters<typeof TRPCClientError>[1])

describe('toClientError', () => {
  test('tRPC: kind from the status, field and message from the server', () => {
    expect(
      toClientError(
        trpcError('Title already exists', { httpStatus: 409, code: 'CONFLICT', field: 'title' }),
      ),
    ).toEqual({ kind: 'conflict', field: 'title', message: 'Title already exists' })
    expect(
      toClientError(trpcError('Not signed in', { httpStatus: 401, code: 'UNAUTHORIZED' })),
    ).toEqual({ kind: 'unauthorized', message: 'Not signed in' })
  })

  test('tRPC without an answer is a network failure', () => {
    expect(toClientError(new TRPCClientError('Failed to fetch')).kind).toBe('network')
  })

  test('REST and tus refusals', () => {
    expect(
      toClientError(new RequestError('Video size must be less than 2GB', 413, 'video')),
    ).toEqual({ kind: 'too-large', field: 'video', message: 'Video size must be less than 2GB' })
    expect(toClientError(new RequestError('', 404)).kind).toBe('not-found')
    expect(toClientError(new RequestError('', 403)).kind).toBe('forbidden')
    expect(toClientError(new RequestError('', 400)).kind).toBe('invalid')
    expect(toClientError(new RequestError('offline', 0)).kind).toBe('network')
    expect(toClientError(new RequestError('', 502)).kind).toBe('server')
  })

  test('anything else keeps its message', () => {
    expect(toClientError(new TypeError('Failed to fetch'))).toEqual({
      kind: 'network',
      message: 'Failed to fetch',
    })
    expect(toClientError(new Error('Invalid response format')).message).toBe(
      'Invalid response format',
    )
    expect(toClientError('nope')).toEqual({ kind: 'server', message: '' })
  })
})
