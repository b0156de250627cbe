// Keys every server of a site shares (the `server_keys` table): made by the first process that
// asks, then read by all. Two first asks at once make one key: the insert that loses is ignored. A
// server reads them all at start-up, before its first request (src/app.ts), so nothing signs with a
// key still to be loaded: a lazy load inside a transaction waited on a second connection, which the
// embedded database cannot serve until the transaction ends
// (docs/decisions/084-a-transaction-never-waits-on-another-connection.md).
import { eq } from 'drizzle-orm'
import { serverKeys } from '../../db/schema.ts'
import type { Db } from '../db/database.ts'

export const SERVER_KEY_NAMES = ['media-links', 'review-links'] as const
export type ServerKeyName = (typeof SERVER_KEY_NAMES)[number]
/** Each key as base64url (32 random bytes). */
export type ServerKeys = Record<ServerKeyName, string>

/** The key named `name` as base64url (32 random bytes), made now if none exists. */
async function serverKey(db: Db, name: ServerKeyName): Promise<string> {
  const made = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  await db.insert(serverKeys).values({ name, key: made }).onConflictDoNothing()
  const [row] = await db
    .select({ key: serverKeys.key })
    .from(serverKeys)
    .where(eq(serverKeys.name, name))
  if (!row) throw new Error(`server key ${name} is missing`)
  return row.key
}

/** Every shared key, made where missing. */
export async function loadServerKeys(db: Db): Promise<ServerKeys> {
  const keys: Partial<ServerKeys> = {}
  // One after the other: the embedded database answers one query at a time anyway.
  for (const name of SERVER_KEY_NAMES) keys[name] = await serverKey(db, name)
  return keys as ServerKeys
}
