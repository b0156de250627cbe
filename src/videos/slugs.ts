// Addresses of works (/work/<slug>): a free slug for a title, and the history of old slugs that
// keep shared links working after a rename. Runs inside the caller's transaction.
import { and, eq, like, ne, or } from 'drizzle-orm'
import { videoSlugs, videos } from '../../db/schema.ts'
import { slugify } from '../contract/slug.ts'
import type { Db } from '../db/database.ts'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/**
 * The slug for `title`: its base, or the base with the smallest free `-2`, `-3`… Slugs of other
 * works, current or old, are taken; `videoId`'s own old slugs may come back to it.
 */
export async function freeSlug(tx: Tx | Db, title: string, videoId?: string): Promise<string> {
  const base = slugify(title)
  const family = (column: typeof videos.slug | typeof videoSlugs.slug) =>
    or(eq(column, base), like(column, `${base}-%`))
  // One after the other: a transaction has one connection.
  const current = await tx
    .select({ slug: videos.slug })
    .from(videos)
    .where(videoId ? and(family(videos.slug), ne(videos.id, videoId)) : family(videos.slug))
  const old = await tx
    .select({ slug: videoSlugs.slug })
    .from(videoSlugs)
    .where(
      videoId
        ? and(family(videoSlugs.slug), ne(videoSlugs.videoId, videoId))
        : family(videoSlugs.slug),
    )
  const taken = new Set([...current, ...old].map((row) => row.slug))
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
}

/**
 * After a rename: `previous` redirects to the work from now on, and `next`, if it was one of the
 * work's old slugs, is its address again rather than a redirect.
 */
export async function moveSlug(tx: Tx, videoId: string, previous: string, next: string) {
  if (previous === next) return
  await tx.delete(videoSlugs).where(and(eq(videoSlugs.slug, next), eq(videoSlugs.videoId, videoId)))
  await tx.insert(videoSlugs).values({ slug: previous, videoId })
}
