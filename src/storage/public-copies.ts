// Public copies in the bucket
// (docs/decisions/087-public-copies-under-public-for-shown-works-only.md). With MEDIA_PUBLIC_URL,
// what visitors may fetch (a shown work's stream folder, thumbnail and logo; the site's images) is
// copied inside the bucket to `public/<copy id>/<key>`, and only `public/*` is readable at the
// bucket's public address; the originals (`streams/`, `images/`, `masters/`, `captions/`) stay
// private and are what the app itself reads. Hiding a work removes its copies before the hide
// answers; showing it makes new ones (a new copy id) in the background, and /media redirects only
// to a copy that is complete. The rows of `public_copies` say which copies exist and in which
// state, so a crash at any step is finished by the next sync or reconcile.
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import { publicCopies } from '../../db/schema.ts'
import type { Db } from '../db/database.ts'
import {
  derivedFile,
  isFolderName,
  keyOfFolder,
  keyOfName,
  PUBLIC_PREFIX,
  publicKey,
  publicParts,
  storedFile,
} from './layout.ts'
import type { CopyHeaders, Storage } from './types.ts'

// What a copy tells the browsers and shared caches that fetch it. Browsers keep a segment as the
// app's own answer says (its URL never changes its bytes); a CDN keeps it at most CDN_SECONDS, so a
// hidden work leaves the CDN's edges within that time even when the CDN is never purged.
const CDN_SECONDS = 300
const FILE_CACHE = `public, max-age=31536000, immutable, s-maxage=${CDN_SECONDS}`
const PLAYLIST_CACHE = 'public, max-age=60, s-maxage=60'

// A copier holds its copy this long and renews the hold well before it ends; another copier takes
// over a copy whose hold ran out (its copier died). Longer than any one request may take.
const CLAIM_SECONDS = 600
const RENEW_MS = 30_000
const COPIES_IN_FLIGHT = 4
// How long the probe of the public address waits.
const PROBE_MS = 5_000

export type PublicCopies = {
  /** Whether copies are kept (a bucket with MEDIA_PUBLIC_URL). */
  readonly enabled: boolean
  /**
   * The copy id of `name`'s complete copy, when /media may send a visitor there: the copy is done
   * and the public address was seen to serve public copies.
   */
  copyOf(name: string): Promise<string | undefined>
  /** Removes the copies of these names: nothing redirects to them once this begins. */
  withdraw(names: Iterable<string>): Promise<void>
  /** Makes the copies that are wanted and removes the others, soon, in the background. */
  schedule(): void
  /** `schedule`'s work, now: resolves when every wanted copy is done and no other is left. */
  sync(): Promise<void>
  /**
   * `sync` after a look at the bucket itself: objects under `public/` that no row accounts for go,
   * a done copy missing objects is made again, and the public address is probed. With `copy`
   * false the copies to make are left to a `schedule` (start-up does not wait on copying).
   */
  reconcile(options?: { copy?: boolean }): Promise<void>
  /** Waits for the work in flight and takes no more. */
  stop(): Promise<void>
}

export type PublicCopiesDeps = {
  db: Db
  storage: Storage
  /** The public base URL of the bucket's keys (MEDIA_PUBLIC_URL); unset: no copies are kept. */
  publicUrl: string | undefined
  /** Every name visitors may fetch now: shown works' folders and images, the site's images. */
  wanted(): Promise<ReadonlySet<string>>
}

type CopyRow = typeof publicCopies.$inferSelect

/** Cache-Control and type of a copied key, as /media would have sent it. */
function headersOf(key: string): CopyHeaders {
  const stream = key.startsWith('streams/') && derivedFile(key.split('/').slice(1))
  const type = stream ? stream.type : storedFile(key.slice('images/'.length))?.type
  if (!type) throw new Error(`not a public file: ${key}`)
  return { type, cacheControl: key.endsWith('.m3u8') ? PLAYLIST_CACHE : FILE_CACHE }
}

export function createPublicCopies(deps: PublicCopiesDeps): PublicCopies {
  const { db, storage, publicUrl } = deps
  const enabled = !!publicUrl && storage.engine === 's3'
  // The disk has no public address and keeps no copies; rows left from a bucket are dropped.
  const keepsObjects = storage.engine !== 'disk'
  let doneCopies: Promise<ReadonlyMap<string, string>> | undefined
  /** Whether the public address serves public copies; undefined until probed. */
  let reachable: boolean | undefined
  let warnedPrivate = false
  let running: Promise<void> | undefined
  let again = false
  let stopped = false

  const forget = () => {
    doneCopies = undefined
  }

  /** The keys of a name in the store: one image, or every file of a stream folder. */
  async function keysOfName(name: string): Promise<string[]> {
    if (isFolderName(name)) {
      const keys: string[] = []
      for await (const item of storage.list(keyOfFolder(name)!)) keys.push(item.key)
      return keys
    }
    const key = storedFile(name) && keyOfName(name)
    return key?.startsWith('images/') && (await storage.stat(key)) ? [key] : []
  }

  async function objectsOf(copyId: string): Promise<string[]> {
    const keys: string[] = []
    for await (const item of storage.list(`${PUBLIC_PREFIX}${copyId}/`)) keys.push(item.key)
    return keys
  }

  /** Removes one copy's objects, then its row (a row in `withdrawing` state). */
  async function removeCopy(copyId: string): Promise<void> {
    if (keepsObjects) await storage.delete(await objectsOf(copyId))
    await db
      .delete(publicCopies)
      .where(and(eq(publicCopies.copyId, copyId), eq(publicCopies.state, 'withdrawing')))
  }

  async function withdraw(names: Iterable<string>): Promise<void> {
    const list = [...new Set(names)].filter(Boolean)
    // The disk has no copies (a start removed any row a bucket left): nothing to ask.
    if (list.length === 0 || !keepsObjects) return
    const rows = await db
      .update(publicCopies)
      .set({ state: 'withdrawing', claimedUntil: null })
      .where(inArray(publicCopies.name, list))
      .returning({ copyId: publicCopies.copyId })
    forget()
    for (const row of rows) await removeCopy(row.copyId)
  }

  /** Claims a copying row for this process; false when another copier holds it or it moved on. */
  async function claim(copyId: string): Promise<boolean> {
    const rows = await db
      .update(publicCopies)
      .set({ claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})` })
      .where(
        and(
          eq(publicCopies.copyId, copyId),
          eq(publicCopies.state, 'copying'),
          or(isNull(publicCopies.claimedUntil), lt(publicCopies.claimedUntil, sql`now()`)),
        ),
      )
      .returning({ copyId: publicCopies.copyId })
    return rows.length > 0
  }

  /** Still ours and still wanted: renews the hold; false once the copy is being withdrawn. */
  async function renew(copyId: string): Promise<boolean> {
    const rows = await db
      .update(publicCopies)
      .set({ claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})` })
      .where(and(eq(publicCopies.copyId, copyId), eq(publicCopies.state, 'copying')))
      .returning({ copyId: publicCopies.copyId })
    return rows.length > 0
  }

  /**
   * Copies every object of the row's name under its copy id, then marks it done. A copy id is
   * named to nobody before it is done, and nothing is copied under it once done: a copier still
   * going when its copy is withdrawn writes only where no visitor was ever sent, and removes it.
   */
  async function makeCopy(row: Pick<CopyRow, 'copyId' | 'name'>): Promise<void> {
    if (!(await claim(row.copyId))) return
    const keys = await keysOfName(row.name)
    // Nothing stored under the name (yet, or any more): the hold keeps it from being tried again
    // at every change until it runs out, and nothing redirects to a copy that is not done.
    if (keys.length === 0) return
    let renewedAt = Date.now()
    let lost = false
    const queue = [...keys]
    const copier = async () => {
      for (let key = queue.shift(); key && !lost && !stopped; key = queue.shift()) {
        if (Date.now() - renewedAt > RENEW_MS) {
          renewedAt = Date.now()
          if (!(await renew(row.copyId))) lost = true
          if (lost) return
        }
        await storage.copy(key, publicKey(row.copyId, key), headersOf(key))
      }
    }
    await Promise.all(Array.from({ length: COPIES_IN_FLIGHT }, copier))
    const [done] =
      lost || stopped
        ? []
        : await db
            .update(publicCopies)
            .set({ state: 'done', claimedUntil: null })
            .where(and(eq(publicCopies.copyId, row.copyId), eq(publicCopies.state, 'copying')))
            .returning({ copyId: publicCopies.copyId })
    if (done) {
      forget()
      return
    }
    if (stopped) return
    // Withdrawn meanwhile: what was written under the copy id goes.
    await db
      .update(publicCopies)
      .set({ state: 'withdrawing', claimedUntil: null })
      .where(eq(publicCopies.copyId, row.copyId))
    await removeCopy(row.copyId)
  }

  /** Whether the public address serves a public copy (and not an original); logged once each. */
  async function probe(): Promise<void> {
    if (!enabled || !publicUrl) return
    const [row] = await db
      .select({ copyId: publicCopies.copyId, name: publicCopies.name })
      .from(publicCopies)
      .where(eq(publicCopies.state, 'done'))
      .limit(1)
    if (!row) return
    const [key] = await keysOfName(row.name)
    if (!key) return
    const status = async (path: string) => {
      try {
        const res = await fetch(`${publicUrl}/${path}`, {
          method: 'HEAD',
          redirect: 'manual',
          signal: AbortSignal.timeout(PROBE_MS),
        })
        return res.status
      } catch {
        return 0
      }
    }
    const copy = await status(publicKey(row.copyId, key))
    const was = reachable
    reachable = copy >= 200 && copy < 300
    if (!reachable && was !== false) {
      console.error(
        `[media] ${publicUrl}/${PUBLIC_PREFIX}… answers ${copy || 'nothing'}: /media streams through the app until the bucket (or CDN) lets anyone read ${PUBLIC_PREFIX}* (docs/storage.md)`,
      )
    }
    if (reachable !== was) forget()
    const original = await status(key)
    if (original >= 200 && original < 300 && !warnedPrivate) {
      warnedPrivate = true
      console.error(
        `[media] ${publicUrl}/${key} answers ${original}: the bucket lets anyone read more than ${PUBLIC_PREFIX}*, so hidden works stay readable there. Let only ${PUBLIC_PREFIX}* be read (docs/storage.md).`,
      )
    }
  }

  /** Withdraws every copy no longer wanted, and finishes withdrawals a crash stopped. */
  async function removeUnwanted(): Promise<void> {
    const wanted = enabled ? await deps.wanted() : new Set<string>()
    const rows = await db.select().from(publicCopies)
    const unwanted = rows.filter((row) => row.state === 'withdrawing' || !wanted.has(row.name))
    if (unwanted.length === 0) return
    await db
      .update(publicCopies)
      .set({ state: 'withdrawing', claimedUntil: null })
      .where(
        inArray(
          publicCopies.copyId,
          unwanted.map((row) => row.copyId),
        ),
      )
    forget()
    for (const row of unwanted) await removeCopy(row.copyId)
  }

  /** Makes the copies wanted and missing, and finishes those a copier left (its hold ran out). */
  async function makeWanted(): Promise<void> {
    if (!enabled) return
    const wanted = await deps.wanted()
    const rows = await db.select().from(publicCopies)
    const live = new Set(rows.filter((row) => row.state !== 'withdrawing').map((row) => row.name))
    const toMake: Pick<CopyRow, 'copyId' | 'name'>[] = rows.filter(
      (row) => row.state === 'copying' && wanted.has(row.name),
    )
    for (const name of wanted) {
      if (live.has(name)) continue
      const [made] = await db
        .insert(publicCopies)
        .values({ copyId: newCopyId(), name, state: 'copying' })
        .onConflictDoNothing()
        .returning({ copyId: publicCopies.copyId, name: publicCopies.name })
      if (made) toMake.push(made)
    }
    for (const row of toMake) {
      if (stopped) return
      await makeCopy(row)
    }
    if (reachable === undefined) await probe()
  }

  async function syncOnce(): Promise<void> {
    await removeUnwanted()
    await makeWanted()
  }

  /** One sync at a time; a call while one runs runs one more after it. */
  function sync(): Promise<void> {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      try {
        do {
          again = false
          await syncOnce()
        } while (again && !stopped)
      } finally {
        running = undefined
      }
    })()
    return running
  }

  async function reconcile({ copy = true }: { copy?: boolean } = {}): Promise<void> {
    if (keepsObjects) {
      // Listed before the rows are read: an object a copier writes after the listing has a row
      // by then, and one listed has its row unless it was withdrawn.
      const listed = new Map<string, string[]>()
      for await (const item of storage.list(PUBLIC_PREFIX)) {
        const parts = publicParts(item.key)
        if (!parts) continue
        listed.set(parts.copyId, [...(listed.get(parts.copyId) ?? []), parts.key])
      }
      const rows = await db.select().from(publicCopies)
      const known = new Set(rows.map((row) => row.copyId))
      const strays = [...listed].filter(([copyId]) => !known.has(copyId))
      await storage.delete(
        strays.flatMap(([copyId, keys]) => keys.map((k) => publicKey(copyId, k))),
      )
      // A done copy must hold every file of its name (a restored or emptied bucket has none).
      for (const row of rows.filter((r) => r.state === 'done')) {
        const have = new Set(listed.get(row.copyId) ?? [])
        const need = await keysOfName(row.name)
        if (need.length > 0 && need.every((key) => have.has(key))) continue
        await db
          .update(publicCopies)
          .set({ state: 'withdrawing', claimedUntil: null })
          .where(eq(publicCopies.copyId, row.copyId))
        forget()
      }
    } else {
      await db.delete(publicCopies)
    }
    // Removals before anything else (a hidden work's copies never outlive a start); copies in
    // the background unless asked for.
    await removeUnwanted()
    if (copy) await sync()
    else schedule()
    await probe()
  }

  function schedule(): void {
    forget()
    if (stopped || (!enabled && !running)) return
    void sync().catch((error) => console.error('[media] public copies', error))
  }

  return {
    enabled,
    async copyOf(name) {
      if (!enabled || reachable !== true) return undefined
      doneCopies ??= db
        .select({ name: publicCopies.name, copyId: publicCopies.copyId })
        .from(publicCopies)
        .where(eq(publicCopies.state, 'done'))
        .then((rows) => new Map(rows.map((row) => [row.name, row.copyId])))
      const pending = doneCopies
      const map = await pending.catch((error) => {
        if (doneCopies === pending) doneCopies = undefined
        throw error
      })
      return map.get(name)
    },
    withdraw,
    schedule,
    sync,
    reconcile,
    async stop() {
      stopped = true
      await running?.catch(() => undefined)
    },
  }
}

const newCopyId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
