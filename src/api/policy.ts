// Each procedure's access and cache policy, read from the router itself (the base procedure it is
// built from and its meta, src/api/trpc.ts), for the HTTP entries that decide before a procedure runs.
// Renaming or re-protecting a procedure changes what they see; nothing here restates it.
import type { Access } from '../accounts/guard.ts'
import { appRouter } from './routers/index.ts'
import type { ProcedureMeta } from './trpc.ts'

export type ProcedurePolicy = {
  path: string
  type: 'query' | 'mutation' | 'subscription'
  access: Access
  cache: ProcedureMeta['cache']
}

type Built = { _def: { type: ProcedurePolicy['type']; meta?: ProcedureMeta & { access?: Access } } }

function readPolicies(): ReadonlyMap<string, ProcedurePolicy> {
  const procedures = appRouter._def.procedures as unknown as Record<string, Built>
  const policies = new Map<string, ProcedurePolicy>()
  for (const [path, { _def }] of Object.entries(procedures)) {
    const access = _def.meta?.access
    // Only the base procedures of src/api/trpc.ts set it; a procedure built otherwise is a mistake.
    if (!access) throw new Error(`${path}: build it from a base procedure of src/api/trpc.ts`)
    const cache = _def.meta?.cache
    if (cache && _def.type !== 'query') throw new Error(`${path}: only a query's answer is kept`)
    policies.set(path, { path, type: _def.type, access, cache })
  }
  return policies
}

/** Every procedure of the app's router, by path (`videos.list`). */
export const procedurePolicies = readPolicies()

export const policyOf = (path: string): ProcedurePolicy | undefined => procedurePolicies.get(path)
