// Streams a multipart/form-data request body to files on disk, enforcing limits while it streams.
// Bun's request.formData() holds the whole body in memory, which a 2 GB video must never do.
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import busboy from 'busboy'
import { isDiskFull } from '../errors.ts'
import { countUploadedBytes } from '../telemetry/process-metrics.ts'
import { SNIFF_BYTES } from './sniff.ts'

export type FileRule = {
  maxBytes: number
  /** The 413 message when the file is larger than `maxBytes`. */
  tooLarge: string
  /** Sees the file's first bytes; a returned message refuses the file with 415 at once. */
  checkHead?: (head: Uint8Array) => string | undefined
}

export type MultipartOptions = {
  /** Parent folder for this request's scratch folder; on the media store's file system. */
  dir: string
  /** Accepted file fields; parts for any other name are read and discarded. */
  files: Readonly<Record<string, FileRule>>
  maxFieldBytes?: number
  maxFields?: number
}

export type ReceivedFile = { path: string; size: number }

export type MultipartFailure = { status: 400 | 413 | 415; message: string; field?: string }

export type MultipartResult =
  | {
      ok: true
      fields: Record<string, string>
      files: Record<string, ReceivedFile>
      /** Removes the scratch folder and whatever the caller did not move out of it. */
      cleanup: () => Promise<void>
    }
  | { ok: false; failure: MultipartFailure }

class Refusal extends Error {
  constructor(readonly failure: MultipartFailure) {
    super(failure.message)
  }
}

const refuse = (failure: MultipartFailure) => new Refusal(failure)
// busboy's errors for bodies that break the multipart grammar; they carry no code of their own.
const isClientMalformed = (error: unknown) =>
  error instanceof Error &&
  /^(Unexpected end of (form|file)|Malformed part header|Multipart: )/.test(error.message)
const MALFORMED = { status: 400, message: 'Malformed multipart body' } as const
// Boundaries, part headers and CRLFs: generous, so only a body that cannot fit is refused early.
const FRAMING_BYTES = 64 * 1024

/** Counts a file's bytes as they pass, refusing it the moment it breaks its rule. */
function guard(field: string, rule: FileRule, onSize: (n: number) => void): Transform {
  let size = 0
  let head: Uint8Array | undefined = new Uint8Array(0)
  const checkHead = () => {
    const message = head && rule.checkHead?.(head)
    head = undefined
    return message ? refuse({ status: 415, message, field }) : undefined
  }
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      size += chunk.length
      onSize(size)
      if (size > rule.maxBytes) return done(refuse({ status: 413, message: rule.tooLarge, field }))
      if (head) {
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)])
        if (head.length >= SNIFF_BYTES) {
          const refusal = checkHead()
          if (refusal) return done(refusal)
        }
      }
      done(null, chunk)
    },
    flush(done: TransformCallback) {
      done(checkHead() ?? null)
    },
  })
}

function totalBudget(options: MultipartOptions): number {
  const files = Object.values(options.files).reduce((sum, rule) => sum + rule.maxBytes, 0)
  return files + (options.maxFields ?? 20) * (options.maxFieldBytes ?? 64 * 1024) + FRAMING_BYTES
}

/**
 * Reads `request`'s multipart body, writing each accepted file to its own scratch file. Fails
 * with 413 when a file passes its limit (or the declared length cannot fit), 415 when a file's
 * first bytes are refused, 400 for a malformed body; throws the error of a full disk. On
 * failure nothing is left on disk.
 */
export async function receiveMultipart(
  request: Request,
  options: MultipartOptions,
): Promise<MultipartResult> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!/^multipart\/form-data\b/i.test(contentType) || !request.body) {
    return { ok: false, failure: { status: 400, message: 'Expected a multipart/form-data body' } }
  }
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > totalBudget(options)) {
    return { ok: false, failure: { status: 413, message: 'Request body is too large' } }
  }
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: {
        fields: options.maxFields ?? 20,
        fieldSize: options.maxFieldBytes ?? 64 * 1024,
        files: Object.keys(options.files).length + 4,
      },
    })
  } catch {
    return { ok: false, failure: MALFORMED }
  }

  const workDir = join(options.dir, `mp-${crypto.randomUUID()}`)
  await mkdir(workDir, { recursive: true })
  const cleanup = () => rm(workDir, { recursive: true, force: true })
  const fields: Record<string, string> = {}
  const files: Record<string, ReceivedFile> = {}
  const writes: Promise<void>[] = []
  const reader = request.body.getReader()
  let failure: MultipartFailure | undefined
  // A full disk is not the client's fault: it is thrown as itself (src/errors.ts answers 507).
  let diskFull: unknown
  // Stops everything at the first failure: the parser, and reading the socket (which also ends
  // a read that is waiting on a slow client, so the answer goes out at once).
  const fail = (error: unknown) => {
    // A malformed or cut-off body is the client's doing; only our own faults are logged (a
    // full disk where it is answered).
    if (!failure && isDiskFull(error)) diskFull = error
    else if (!failure && !(error instanceof Refusal) && !isClientMalformed(error))
      console.error('[multipart]', error)
    failure ??= error instanceof Refusal ? error.failure : MALFORMED
    parser.destroy()
    reader.cancel().catch(() => undefined)
  }

  parser.on('field', (name, value, info) => {
    if (info.valueTruncated)
      fail(refuse({ status: 400, message: `${name} is too long`, field: name }))
    else fields[name] = value
  })
  parser.on('file', (name, stream, info) => {
    const rule = options.files[name]
    // A part with no filename is how a browser sends a file input left empty: it means "absent".
    if (!rule || !info.filename || name in files || failure) {
      // A body that ends inside this part destroys the stream with an error; with no listener
      // that error would escape as an uncaught exception. The parser's own 'error' reports it.
      stream.on('error', () => undefined)
      stream.resume()
      return
    }
    const file: ReceivedFile = { path: join(workDir, `${Object.keys(files).length}.part`), size: 0 }
    files[name] = file
    const counted = guard(name, rule, (n) => {
      file.size = n
    })
    writes.push(pipeline(stream, counted, createWriteStream(file.path)).catch(fail))
  })
  for (const event of ['fieldsLimit', 'filesLimit', 'partsLimit']) {
    parser.on(event, () => fail(refuse({ status: 400, message: 'Too many form fields' })))
  }
  parser.on('error', fail)
  const parsed = once(parser, 'close').catch(() => undefined)

  try {
    while (!failure) {
      const { done, value } = await reader.read()
      if (done) break
      // Respect busboy's backpressure so a slow disk holds the socket instead of filling memory.
      if (!parser.write(value)) await Promise.race([once(parser, 'drain'), parsed])
    }
    if (!failure) {
      parser.end()
      await parsed
    }
  } catch (error) {
    fail(error instanceof Refusal ? error : refuse({ status: 400, message: 'Upload interrupted' }))
  }
  await Promise.all(writes)
  if (failure) {
    await cleanup()
    if (diskFull) throw diskFull
    return { ok: false, failure }
  }
  for (const file of Object.values(files)) countUploadedBytes('multipart', file.size)
  return { ok: true, fields, files, cleanup }
}
