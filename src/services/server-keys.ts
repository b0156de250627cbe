// Keys every server of a site shares (the `server_keys` table): made by the first process that
// asks, then read by all. Two first asks at once make one key: the insert that loses is ignored.
import { eq } from 'drizzle-orm'
import { serverKeys } from '../../db/schema.ts'
import type { Db } from '../database.ts'

export type ServerKeyName = 'media-links' | 'review-links'

/** The key named `name` as base64url (32 random bytes), made now if none exists. */
export async function serverKey(db: Db, name: ServerKeyName): Promise<string> {
  const made = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  await db.insert(serverKeys).values({ name, key: made }).onConflictDoNothing()
  const [row] = await db
    .select({ key: serverKeys.key })
    .from(serverKeys)
    .where(eq(serverKeys.name, name))
  if (!row) throw new Error(`server key ${name} is missing`)
  return row.key
}
