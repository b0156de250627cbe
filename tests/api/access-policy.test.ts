// Every procedure's declared access (src/api/policy.ts, read from its base procedure) against
// what the real HTTP handler does: each procedure the router has, found from the router itself, is
// called over /trpc by a super admin, a plain admin and nobody. A procedure re-protected, renamed
// or newly added without the HTTP layer (the answer cache included) following fails here.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Access } from '../../src/accounts/guard.ts'
import { policyOf, procedurePolicies } from '../../src/api/policy.ts'
import { appRouter } from '../../src/api/routers/index.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
let superAdminId: string
let plainAdminId: string

beforeAll(async () => {
  t = await startTestApp()
  const { admins, videos } = t.app.services
  superAdminId = (await admins.list()).find((a) => a.role === 'super_admin')!._id
  plainAdminId = (
    await admins.create({
      username: 'plain_admin',
      email: 'plain@studio.test',
      password: 'password-123',
    })
  )._id
  videos.invalidate()
}, 120_000)
afterAll(() => t?.stop(), 60_000)

// Read from the router, not from the policy module, so a procedure the policy missed counts too.
const routerProcedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>,
).map(([path, procedure]) => ({ path, type: procedure._def.type }))

type Caller = 'super_admin' | 'admin' | 'nobody'

/** The procedure called over HTTP with an empty input; a fresh session each time (logout ends one). */
async function statusOf(path: string, type: string, as: Caller): Promise<number> {
  const headers: Record<string, string> = {}
  if (as !== 'nobody') {
    const id = as === 'super_admin' ? superAdminId : plainAdminId
    headers.authorization = `Bearer ${await t.app.services.auth.startSessionFor(id)}`
  }
  const res =
    type === 'query'
      ? await t.fetch(`/trpc/${path}?input=${encodeURIComponent('{}')}`, { headers })
      : await t.fetch(`/trpc/${path}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{}',
        })
  await res.arrayBuffer()
  return res.status
}

/** What the declaration promises: refused with 401 or 403, or let through (any answer below 500 else). */
function expected(access: Access, as: Caller): 401 | 403 | 'through' {
  if (access === 'public' || as === 'super_admin') return 'through'
  if (as === 'nobody') return 401
  return access === 'super_admin' ? 403 : 'through'
}

const observed = (status: number): 401 | 403 | 'through' | number =>
  status === 401 || status === 403 ? status : status < 500 ? 'through' : status

describe('declared access and the HTTP layer agree', () => {
  test('every procedure of the router declares its access', () => {
    expect(routerProcedures.length).toBeGreaterThan(20)
    expect([...procedurePolicies.keys()].sort()).toEqual(routerProcedures.map((p) => p.path).sort())
    for (const { path, type } of routerProcedures) {
      expect(['query', 'mutation']).toContain(type)
      expect(policyOf(path)?.type as string | undefined).toBe(type)
    }
  })

  // Super admin first: a cacheable read is then stored before the others ask for it, so a cached
  // answer reaching a caller its procedure refuses fails here too.
  for (const { path, type } of routerProcedures) {
    test(`${path} (${type})`, async () => {
      const access = policyOf(path)?.access ?? 'undeclared'
      const seen: Record<string, unknown> = {}
      const want: Record<string, unknown> = {}
      for (const as of ['super_admin', 'admin', 'nobody'] as const) {
        seen[as] = observed(await statusOf(path, type, as))
        want[as] = access === 'undeclared' ? 'declared' : expected(access, as)
      }
      expect({ path, access, ...seen }).toEqual({ path, access, ...want })
    })
  }

  test('the access levels in use are the three the base procedures declare', () => {
    const levels = new Set([...procedurePolicies.values()].map((p) => p.access))
    expect([...levels].sort()).toEqual(['public', 'session', 'super_admin'])
  })
})
