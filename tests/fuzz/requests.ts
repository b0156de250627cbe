// Hostile request generators (fast-check) shared by the fuzz tests and bench/fuzz.ts: every REST
// path, the tRPC endpoint and the tus endpoint, with random and boundary bodies, headers and ids.
import fc from 'fast-check'
import type { TestApp } from '../helpers/test-app.ts'

export type FuzzRequest = {
  method: string
  path: string
  headers: Record<string, string>
  body: string | Uint8Array | undefined
  authed: boolean
}

const trickyIds = fc.constantFrom(
  '..',
  '../../etc/passwd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2F..%2Fpackage.json',
  '/etc/passwd',
  '%00',
  '%ff%fe',
  'a'.repeat(400),
  '00000000-0000-0000-0000-000000000000',
  '1 OR 1=1',
  "'; drop table admins; --",
  '<script>alert(1)</script>',
  '😀',
)

const id = fc.oneof(
  fc.uuid(),
  trickyIds,
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
)

const restPaths = (i: string): [string, string][] => [
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/logout'],
  ['GET', '/api/auth/me'],
  ['POST', '/api/auth/reset-password/request'],
  ['POST', `/api/auth/reset-password/${i}`],
  ['GET', '/api/admins'],
  ['POST', '/api/admins'],
  ['PUT', `/api/admins/${i}`],
  ['PATCH', `/api/admins/${i}`],
  ['DELETE', `/api/admins/${i}`],
  ['GET', '/api/public/videos'],
  ['GET', `/api/videos?page=${i}&limit=${i}`],
  ['GET', `/api/videos/${i}`],
  ['POST', '/api/videos/check-title'],
  ['POST', '/api/videos/upload'],
  ['PATCH', `/api/videos/${i}`],
  ['PUT', `/api/videos/${i}/update-all`],
  ['PUT', `/api/videos/${i}/video`],
  ['PUT', `/api/videos/${i}/thumbnail`],
  ['DELETE', `/api/videos/${i}`],
  ['POST', '/api/videos/bulk-delete'],
  ['POST', '/uploads/'],
  ['PATCH', `/uploads/${i}`],
  ['HEAD', `/uploads/${i}`],
  ['DELETE', `/uploads/${i}`],
  ['GET', `/media/${i}`],
  ['GET', `/trpc/videos.list?input=${i}`],
  ['POST', '/trpc/auth.login'],
  ['POST', '/trpc/admins.create,admins.update,videos.create?batch=1'],
  ['POST', '/trpc/videos.bulkDelete'],
  ['GET', `/trpc/${i}`],
]

const field = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.constant('x'.repeat(70_000)),
  fc.constant('<img src=x onerror=alert(1)>'),
)

const jsonBody = fc.oneof(
  fc.json(),
  fc
    .record(
      {
        email: field,
        password: field,
        username: field,
        title: field,
        description: field,
        ids: fc.oneof(fc.array(field, { maxLength: 5 }), field),
        uploads: fc.oneof(fc.dictionary(fc.string(), field), field),
        '0': fc.oneof(fc.dictionary(fc.string(), field), field),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
)

const boundary = 'fuzzBoundary42'
const brokenMultipart = fc
  .tuple(fc.string({ maxLength: 30 }), fc.uint8Array({ maxLength: 200 }), fc.boolean())
  .map(([name, bytes, close]) => {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="../../x.mp4"\r\nContent-Type: video/mp4\r\n\r\n`
    const tail = close ? `\r\n--${boundary}--\r\n` : ''
    return Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)])
  })

const body = fc.oneof(
  jsonBody,
  fc.string({ maxLength: 200 }),
  fc.constant(''),
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 300 }),
  brokenMultipart.map((b) => new Uint8Array(b)),
  jsonBody.map((s) => s.slice(0, Math.floor(s.length / 2))), // truncated
)

const numberish = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom(
    '-1',
    '0',
    '1e309',
    'NaN',
    '',
    ' 5',
    '99999999999999999999',
    '0x10',
    '2147483648',
  ),
)

const headers = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      `multipart/form-data; boundary=${boundary}`,
      'multipart/form-data',
      'text/plain',
      'application/offset+octet-stream',
      'application/x-www-form-urlencoded',
    ),
    'tus-resumable': fc.constantFrom('1.0.0', '0.2.2', ''),
    'upload-length': numberish,
    'upload-offset': numberish,
    'upload-defer-length': fc.constantFrom('1', '0', 'x'),
    'upload-metadata': fc.oneof(
      fc.constantFrom(
        `kind ${btoa('video')}`,
        `kind ${btoa('thumbnail')},filename ${btoa('../../etc/passwd')}`,
        'kind',
        'kind !!!notbase64',
        `kind ${btoa('video')},kind ${btoa('brandLogo')}`,
      ),
      fc.string({ maxLength: 60 }),
    ),
    'x-http-method-override': fc.constantFrom('DELETE', 'PATCH', 'GET'),
    range: fc.constantFrom(
      'bytes=0-',
      'bytes=-5',
      'bytes=99999999-',
      'bytes=5-1',
      'bytes=abc',
      'bytes=0-1,3-4',
    ),
    'content-length': numberish,
  },
  { requiredKeys: [] },
)

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(id, fc.nat(), body, headers, fc.boolean(), fc.boolean())
  .map(([i, pick, b, h, authed, swapMethod]) => {
    const paths = restPaths(i)
    const [method, path] = paths[pick % paths.length]!
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']
    const m = swapMethod ? methods[pick % methods.length]! : method
    // A body on GET/HEAD is not allowed by fetch; keep the rest as generated.
    const hasBody = m !== 'GET' && m !== 'HEAD'
    // Content-Length is the runtime's to set; a forged one goes in as a different header name.
    const { 'content-length': forged, ...rest } = h
    return {
      method: m,
      path,
      headers: forged ? { ...rest, 'x-claimed-length': forged } : rest,
      body: hasBody ? b : undefined,
      authed,
    }
  })

/** A stack trace or internal detail that must never reach a client. */
export const LEAK =
  /\bat [\w.<>]+ \(|\.ts:\d+:\d+|node_modules|TRPCError|ZodError|PostgresError|stack/i

/** Sends one generated request through the app's fetch handler; null if fetch cannot express it. */
export async function sendFuzz(t: TestApp, r: FuzzRequest, authToken: string) {
  let req: Request
  try {
    req = new Request(`http://localhost${r.path}`, {
      method: r.method,
      headers: { ...r.headers, ...(r.authed ? { authorization: `Bearer ${authToken}` } : {}) },
      body: r.body as BodyInit | undefined,
    })
  } catch {
    return null // e.g. a header value that fetch itself refuses
  }
  const res = await t.app.fetch(req, '10.1.1.1')
  return { status: res.status, text: await res.text() }
}
