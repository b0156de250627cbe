// Hostile request generators (fast-check) shared by the fuzz tests and bench/fuzz.ts: every REST
// path, the tRPC endpoint and the tus endpoint, with random and boundary bodies, headers and ids.
import fc from 'fast-check'
import type { TestApp } from '../test-app.ts'
import { externalSvgArbitrary, heavySvgArbitrary, svgReachesOut } from './svg.ts'

export type FuzzRequest = {
  method: string
  path: string
  headers: Record<string, string>
  body: string | Uint8Array | undefined
  authed: boolean
  /** A hostile SVG logo: refused (within a second when 'heavy'), or stored reaching nowhere. */
  svg?: 'heavy' | 'external'
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
  ['GET', `/api/videos?order=${i}`],
  ['POST', '/api/videos/reorder'],
  ['PUT', `/api/videos/${i}/published`],
  ['GET', `/api/videos/${i}/links`],
  ['POST', `/api/videos/${i}/links`],
  ['DELETE', `/api/videos/${i}/links/${i}`],
  ['GET', `/r/${i}`],
  ['POST', `/r/${i}`],
  ['GET', `/r/${i}/media/${i}`],
  ['GET', '/api/public/site'],
  ['GET', '/api/site'],
  ['PUT', '/api/site'],
  ['POST', '/api/site/undo'],
  ['POST', `/api/site/images?purpose=${i}`],
  ['POST', '/api/site/images?purpose=logo'],
  ['GET', `/api/activity?page=${i}&actor=${i}&kind=${i}`],
  ['GET', '/api/activity/people'],
  ['POST', '/uploads/'],
  ['PATCH', `/uploads/${i}`],
  ['HEAD', `/uploads/${i}`],
  ['DELETE', `/uploads/${i}`],
  ['GET', `/media/${i}`],
  ['GET', `/trpc/videos.list?input=${i}`],
  ['POST', '/trpc/auth.login'],
  ['POST', '/trpc/admins.create,admins.update,videos.create?batch=1'],
  ['POST', '/trpc/videos.bulkDelete'],
  ['POST', '/trpc/videos.reorder'],
  ['POST', '/trpc/videos.setPublished'],
  ['GET', `/trpc/${i}`],
]

/** Every Unicode control character (C0, DEL, C1); NUL often, as PostgreSQL refuses it. */
const controlChar = fc.oneof(
  fc.constant('\u0000'),
  fc
    .integer({ min: 0, max: 0x9f })
    .filter((c) => c < 0x20 || c >= 0x7f)
    .map((c) => String.fromCharCode(c)),
)

/** A control character somewhere in an otherwise plausible value, so format checks pass it on. */
const withControl = (base: fc.Arbitrary<string>) =>
  fc.tuple(base, controlChar, fc.nat()).map(([text, c, at]) => {
    const i = at % (text.length + 1)
    return text.slice(0, i) + c + text.slice(i)
  })

export const controlText = fc.oneof(
  withControl(fc.emailAddress()),
  withControl(fc.stringMatching(/^[A-Za-z0-9_]{3,20}$/)),
  withControl(fc.string({ minLength: 3, maxLength: 40 })),
)

const field = fc.oneof(
  controlText,
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

/** Multipart text fields with control characters in names and values (no files: those need
real media, and tests/security.test.ts sends a title with a NUL beside real ones). */
const multipartText = fc
  .tuple(
    fc.oneof(fc.constantFrom('title', 'description'), controlText),
    fc.oneof(controlText, fc.string({ maxLength: 30 })),
    fc.constantFrom('title', 'description'),
    controlText,
  )
  .map(([name1, value1, name2, value2]) => {
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    return new TextEncoder().encode(
      `${part(name1, value1)}${part(name2, value2)}--${boundary}--\r\n`,
    )
  })

const body = fc.oneof(
  jsonBody,
  multipartText,
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

const hostileRequest: fc.Arbitrary<FuzzRequest> = fc
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

/**
 * Well-formed calls with one text field carrying a control character and every other field
 * valid, so the character reaches the deepest check: random bodies almost never get past the
 * other fields' validation.
 */
const controlTextRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(controlText, fc.uuid(), fc.nat(), fc.boolean())
  .map(([text, uuid, pick, authed]) => {
    const calls: [string, string, Record<string, unknown>][] = [
      ['POST', '/api/auth/login', { email: text, password: 'secret-12' }],
      ['POST', '/api/auth/reset-password/request', { email: text }],
      ['POST', '/api/admins', { username: text, email: 'new@fuzz.test', password: 'secret-12' }],
      ['POST', '/api/admins', { username: 'new_one', email: text, password: 'secret-12' }],
      ['PATCH', `/api/admins/${uuid}`, { email: text }],
      ['PUT', `/api/admins/${uuid}`, { username: text }],
      ['POST', '/api/videos/check-title', { title: text }],
      ['PATCH', `/api/videos/${uuid}`, { title: text }],
      ['PATCH', `/api/videos/${uuid}`, { description: text }],
      ['POST', '/trpc/auth.login', { email: text, password: 'secret-12' }],
      ['POST', '/trpc/auth.requestPasswordReset', { email: text }],
      ['POST', '/trpc/admins.create', { username: 'new_one', email: text, password: 'secret-12' }],
    ]
    const [method, path, json] = calls[pick % calls.length]!
    return {
      method,
      path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
      authed,
    }
  })

/** A signed-in upload of a hostile SVG logo (testkit/fuzz/svg.ts). */
const hostileSvgRequest: fc.Arbitrary<FuzzRequest> = fc
  .oneof(
    heavySvgArbitrary.map((body) => ({ body, svg: 'heavy' as const })),
    externalSvgArbitrary.map((body) => ({ body, svg: 'external' as const })),
  )
  .map(({ body, svg }) => ({
    method: 'POST',
    path: '/api/site/images?purpose=logo',
    headers: {},
    body,
    authed: true,
    svg,
  }))

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { arbitrary: hostileRequest, weight: 10 },
  { arbitrary: controlTextRequest, weight: 2 },
  { arbitrary: hostileSvgRequest, weight: 1 },
)

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
  const started = performance.now()
  const res = await t.app.fetch(req, '10.1.1.1')
  return { status: res.status, text: await res.text(), ms: performance.now() - started }
}

/**
 * What is wrong with the answer to a hostile SVG upload, or null: an SVG over the budget must be
 * refused within a second, and one reaching outside refused or stored without the reference.
 */
export async function svgProblem(
  t: TestApp,
  r: FuzzRequest,
  res: { status: number; text: string; ms: number },
): Promise<string | null> {
  if (r.svg === 'heavy') {
    if (res.status < 400) return `an SVG over the budget was stored (${res.status})`
    if (res.ms >= 1000) return `an SVG over the budget took ${res.ms.toFixed(0)} ms to refuse`
  }
  if (r.svg === 'external' && res.status < 300) {
    const url = JSON.parse(res.text).data.image.files[0].url as string
    const stored = await (
      await t.app.fetch(new Request(`http://localhost${url}`), '10.1.1.1')
    ).text()
    if (svgReachesOut(stored)) return `a stored SVG reaches outside: ${stored.slice(0, 300)}`
  }
  return null
}
