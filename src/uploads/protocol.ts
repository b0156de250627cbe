// @tus/server with the tus 1.0.0 rules it reads otherwise, applied once, before its dispatch:
// - `X-HTTP-Method-Override` is the request's method, whatever the method it came with ("the
//   actual method MUST be ignored"); the library ignores the header since its move to web
//   Requests. It is resolved first, by the /uploads entry (http.ts), so that the session rule is
//   the overridden method's: a GET overridden to OPTIONS is a preflight, an OPTIONS overridden to
//   DELETE needs a signed-in admin. A browser's own preflight names the header only in
//   Access-Control-Request-Headers, so it stays one;
// - a missing or unsupported `Tus-Resumable` gets 412 with `Tus-Version`, and nothing is done
//   (the library answers a missing one 412 without `Tus-Version`, another version 400);
// - a PATCH without `Content-Type: application/offset+octet-stream` gets 415 (the library: 403
//   when it is missing, 400 when it is another type);
// - OPTIONS also names the checksum algorithms when the store checks them (checksum.ts; the
//   library has no checksum).
// A subclass of @tus/server 2.4.5's `Server` (pinned exactly in package.json), overriding only its
// public `handleWeb`. No upstream issue found as of 2026-11; it can go when the library does these.
import { Server, TUS_RESUMABLE, TUS_VERSION } from '@tus/server'
import { CHECKSUM_ALGORITHMS } from './checksum.ts'

const TUS_METHODS = ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'] as const
const OCTETS = 'application/offset+octet-stream'

const refusal = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: { 'Tus-Resumable': TUS_RESUMABLE, 'Content-Type': 'text/plain', ...headers },
  })

/**
 * The request as its method override names it, or a 400 for a method tus has no use for, whatever
 * method carried it (a GET naming GET too: tus has no GET). A body goes along only to methods
 * that take one; one left behind is read by the endpoint's exit.
 */
export function withMethodOverride(request: Request): Request | Response {
  const override = request.headers.get('x-http-method-override')
  if (override === null) return request
  const method = TUS_METHODS.find((name) => name === override)
  if (!method) {
    return refusal(400, `X-HTTP-Method-Override must be one of ${TUS_METHODS.join(', ')}`)
  }
  if (method === request.method) return request
  const carriesBody = method === 'POST' || method === 'PATCH'
  return new Request(request.url, {
    method,
    headers: request.headers,
    body: carriesBody ? request.body : null,
    signal: request.signal,
    // Streams the body on as it arrives (fetch's name for a request body that is a stream).
    duplex: 'half',
  } as RequestInit)
}

export class TusServer extends Server {
  /** `request` is one whose method override is already resolved (withMethodOverride). */
  override async handleWeb(request: Request): Promise<Response> {
    const { method } = request
    // GET is no tus request: the library answers it (404) without these rules.
    if (method !== 'OPTIONS' && method !== 'GET') {
      const version = request.headers.get('tus-resumable')
      if (version !== TUS_RESUMABLE) {
        const why = version ? `Tus-Resumable ${version} is not supported` : 'Tus-Resumable required'
        return refusal(412, `${why}; this server speaks ${TUS_VERSION.join(',')}`, {
          'Tus-Version': TUS_VERSION.join(','),
        })
      }
    }
    if (method === 'PATCH' && request.headers.get('content-type') !== OCTETS) {
      return refusal(415, `PATCH bodies must be sent as Content-Type: ${OCTETS}`)
    }
    const response = await super.handleWeb(request)
    if (method === 'OPTIONS' && this.datastore.hasExtension('checksum')) {
      response.headers.set('Tus-Checksum-Algorithm', CHECKSUM_ALGORITHMS.join(','))
    }
    return response
  }
}
