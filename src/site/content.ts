// The public page's editable content (docs/decisions/037-site-content-as-versions.md): versions,
// undo and the site's images. Every save is a new row of site_versions and the newest is current.
// Undo walks back through the saves, one a click, each restore a new row on the record
// (docs/decisions/060-undo-walks-back-and-the-log-is-bounded.md). Reads are cached until the next
// change (one process owns the writes), and `version()` lets the REST adapter keep the public
// answer as bytes with an ETag.
import { rm } from 'node:fs/promises'
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm'
import { siteImages, siteVersions } from '../../db/schema.ts'
import {
  aspectRefusal,
  type ImagePurpose,
  imageMsg,
  type PublicSite,
  playbackOf,
  type SiteContent,
  type SiteImage,
  type SiteSection,
  siteMsg,
} from '../contract/site.ts'
import type { Db } from '../db/database.ts'
import { ReadCache } from '../db/read-cache.ts'
import { AppError } from '../errors.ts'
import { mediaUrl } from '../storage/layout.ts'
import { addHolder, adopt, type MediaStore, removeNames } from '../storage/store.ts'
import { builtinImages, defaultContent } from './defaults.ts'
import { convertImage } from './images.ts'

/** A version as stored: the content and every image it names, so it restores on its own. */
type Stored = { content: SiteContent; images: Record<string, SiteImage> }

export type SiteChange = { at: string; by: string | null; kind: 'save' | 'undo'; changed: string[] }

/** The change the next undo takes back: a save, with the sections it changed. */
export type UndoableChange = { version: number; at: string; by: string | null; changed: string[] }

export type SiteState = {
  /** The current version's id; 0 while the instance still shows the built-in defaults. */
  version: number
  content: SiteContent
  /** Every image the content names, by id (the dashboard previews them). */
  images: Record<string, SiteImage>
  lastChange: SiteChange | null
  canUndo: boolean
  /** What the next undo takes back; null when nothing is left to undo. */
  nextUndo: UndoableChange | null
}

type Actor = { id: string; username: string }

/** Unsaved uploads are kept this long before the clean-up may take them. */
export const UPLOAD_GRACE_HOURS = 24

const BUILTIN_PREFIX: Record<ImagePurpose, string> = {
  heroWide: 'builtin:hero-wide',
  heroMobile: 'builtin:hero-mobile',
  logo: 'builtin:logo-',
}

const builtinStored = (): Stored => ({
  content: defaultContent,
  images: Object.fromEntries(imageIdsOf(defaultContent).map((id) => [id, builtinImages.get(id)!])),
})

function imageIdsOf(content: SiteContent): string[] {
  return [
    ...new Set([
      content.hero.wideImage,
      content.hero.mobileImage,
      ...content.clients.map((c) => c.logo),
    ]),
  ]
}

// Deep, key-order-blind: jsonb gives keys back in its own order.
const same = (a: unknown, b: unknown) => Bun.deepEquals(a, b)

/** Which sections differ between two versions, in the page's order. */
export function changedSections(before: SiteContent, after: SiteContent): SiteSection[] {
  const out: SiteSection[] = []
  if (before.hero.line !== after.hero.line) out.push('heroLine')
  if (!same(before.hero.services, after.hero.services)) out.push('services')
  if (
    before.hero.wideImage !== after.hero.wideImage ||
    before.hero.mobileImage !== after.hero.mobileImage
  )
    out.push('heroImages')
  if (!same(before.clients, after.clients)) out.push('clients')
  if (!same(before.about, after.about)) out.push('about')
  if (!same(before.contact, after.contact)) out.push('contact')
  if (!same(playbackOf(before), playbackOf(after))) out.push('playback')
  return out
}

export function toPublicSite({ content, images }: Stored): PublicSite {
  const image = (id: string) => images[id]!
  return {
    hero: {
      line: content.hero.line,
      services: content.hero.services,
      images: { wide: image(content.hero.wideImage), mobile: image(content.hero.mobileImage) },
    },
    clients: content.clients.map((c) => ({ name: c.name, logo: image(c.logo) })),
    about: content.about,
    contact: content.contact,
    playback: playbackOf(content),
  }
}

const versionColumns = {
  id: siteVersions.id,
  content: siteVersions.content,
  kind: siteVersions.kind,
  restoredFrom: siteVersions.restoredFrom,
  changed: siteVersions.changed,
  createdByName: siteVersions.createdByName,
  createdAt: siteVersions.createdAt,
}

export function createSiteService(deps: {
  db: Db
  store: MediaStore
  /**
   * Told when images are added or removed (the bucket's public copies follow,
   * docs/decisions/087-public-copies-under-public-for-shown-works-only.md).
   */
  imagesChanged?: () => void
}) {
  const { db, store } = deps
  const reads = new ReadCache(4)

  const imageNames = async () =>
    (await db.select({ names: siteImages.names }).from(siteImages)).flatMap((r) => r.names)
  // The start-up sweep of the media store keeps every file a site_images row names.
  addHolder(store, imageNames)

  type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

  type Version = Awaited<ReturnType<typeof newest>>
  const newest = async (q: Db | Tx) =>
    (await q.select(versionColumns).from(siteVersions).orderBy(desc(siteVersions.id)).limit(1))[0]
  const byId = async (q: Db | Tx, id: number) =>
    (await q.select(versionColumns).from(siteVersions).where(eq(siteVersions.id, id)))[0]

  /**
   * Undo as a stack of saves: the next undo of `current` takes back the save whose content it
   * shows. An undo row shows the version it restored, so it is looked through to that one (ids
   * only go down, so the walk ends); the save found is undone by restoring the row just before
   * it. v1..v4 saved: undo gives v3, then v2, then v1, then nothing; a save after an undo is
   * undone first, then the walk goes on from where the undo had left it.
   */
  async function undoStep(q: Db | Tx, current: Version) {
    let shown = current
    while (shown?.kind === 'undo' && shown.restoredFrom !== null) {
      shown = await byId(q, shown.restoredFrom)
    }
    if (!shown) return undefined
    const [target] = await q
      .select(versionColumns)
      .from(siteVersions)
      .where(lt(siteVersions.id, shown.id))
      .orderBy(desc(siteVersions.id))
      .limit(1)
    return target ? { undone: shown, target } : undefined
  }

  /** Serialises every change of the site's content (reads are not blocked). */
  const lock = (tx: Tx) => tx.execute(sql`lock table site_versions in exclusive mode`)

  async function loadState(): Promise<SiteState> {
    const current = await newest(db)
    const step = await undoStep(db, current)
    const stored = current ? (current.content as Stored) : builtinStored()
    return {
      version: current?.id ?? 0,
      content: { ...stored.content, playback: playbackOf(stored.content) },
      images: stored.images,
      lastChange:
        current && current.kind !== 'default'
          ? {
              at: current.createdAt.toISOString(),
              by: current.createdByName,
              kind: current.kind,
              changed: current.changed,
            }
          : null,
      canUndo: step !== undefined,
      nextUndo: step
        ? {
            version: step.undone.id,
            at: step.undone.createdAt.toISOString(),
            by: step.undone.createdByName,
            changed: step.undone.changed,
          }
        : null,
    }
  }

  async function loadPublic(): Promise<PublicSite> {
    const state = await reads.get('state', loadState)
    return toPublicSite(state)
  }

  /** The images `content` names, built-in or uploaded for the same purpose; others refused. */
  async function resolveImages(tx: Tx, content: SiteContent) {
    const uploaded = imageIdsOf(content).filter((id) => !id.startsWith('builtin:'))
    const rows = uploaded.length
      ? await tx
          .select({ id: siteImages.id, purpose: siteImages.purpose, image: siteImages.image })
          .from(siteImages)
          .where(inArray(siteImages.id, uploaded))
      : []
    const byId = new Map(rows.map((r) => [r.id, r]))
    const images: Record<string, SiteImage> = {}
    const take = (id: string, purpose: ImagePurpose, field: string) => {
      const image = id.startsWith('builtin:')
        ? id.startsWith(BUILTIN_PREFIX[purpose])
          ? builtinImages.get(id)
          : undefined
        : byId.get(id)?.purpose === purpose
          ? (byId.get(id)?.image as SiteImage)
          : undefined
      if (!image) throw new AppError('BAD_REQUEST', imageMsg.notAvailable, field)
      images[id] = image
    }
    take(content.hero.wideImage, 'heroWide', 'hero')
    take(content.hero.mobileImage, 'heroMobile', 'hero')
    for (const client of content.clients) take(client.logo, 'logo', 'clients')
    return images
  }

  /**
   * Removes uploaded images that no version names (any version may come back by undo), once
   * they are older than `graceHours`, so an upload whose form was never saved goes too. Run after
   * every change and periodically (src/services.ts, its housekeeping). Returns how many images went.
   */
  async function cleanUp(graceHours = UPLOAD_GRACE_HOURS): Promise<number> {
    const gone = await db.transaction(async (tx) => {
      // A save naming an image commits before this sees it, or waits for this to finish.
      await lock(tx)
      return tx
        .delete(siteImages)
        .where(
          and(
            lt(siteImages.createdAt, sql`now() - make_interval(hours => ${graceHours})`),
            sql`not exists (select 1 from ${siteVersions} where jsonb_exists(${siteVersions.content} -> 'images', ${siteImages.id}::text))`,
          ),
        )
        .returning({ names: siteImages.names })
    })
    await removeNames(
      store,
      gone.flatMap((r) => r.names),
    )
    if (gone.length > 0) deps.imagesChanged?.()
    return gone.length
  }

  return {
    /** The current content, for the dashboard. */
    current: () => reads.get('state', loadState),

    /** What visitors see (GET /api/public/site; later the server-rendered page). */
    publicSite: () => reads.get('public', loadPublic),

    /** Moves with every change of the content. */
    version: () => reads.version,

    /** Forgets cached reads; for writes that bypass this service (tests emptying tables). */
    invalidate: () => reads.invalidate(),

    /**
     * Saves `content` as the new current version, made from `baseVersion` (409 when another save
     * came first). Unchanged content makes no version. Answers the new state and what changed.
     */
    async save(actor: Actor, baseVersion: number, content: SiteContent) {
      const changed = await db.transaction(async (tx) => {
        await lock(tx)
        const latest = await newest(tx)
        if ((latest?.id ?? 0) !== baseVersion) throw new AppError('CONFLICT', siteMsg.stale)
        const before = latest ? (latest.content as Stored) : builtinStored()
        const sections = changedSections(before.content, content)
        if (sections.length === 0) return sections
        const images = await resolveImages(tx, content)
        if (!latest) await tx.insert(siteVersions).values({ content: before, kind: 'default' })
        await tx.insert(siteVersions).values({
          content: { content, images } satisfies Stored,
          kind: 'save',
          changed: sections,
          createdBy: actor.id,
          createdByName: actor.username,
        })
        return sections
      })
      if (changed.length > 0) {
        reads.invalidate()
        await cleanUp()
      }
      return { ...(await reads.get('state', loadState)), changed }
    },

    /** Takes back the newest save not yet undone (undoStep), as a new version. */
    async undo(actor: Actor, baseVersion: number) {
      const result = await db.transaction(async (tx) => {
        await lock(tx)
        const current = await newest(tx)
        if ((current?.id ?? 0) !== baseVersion) throw new AppError('CONFLICT', siteMsg.stale)
        const step = current && (await undoStep(tx, current))
        if (!current || !step) throw new AppError('BAD_REQUEST', siteMsg.nothingToUndo)
        const previous = step.target
        const restored = previous.content as Stored
        const changed = changedSections((current.content as Stored).content, restored.content)
        await tx.insert(siteVersions).values({
          content: restored,
          kind: 'undo',
          restoredFrom: previous.id,
          changed,
          createdBy: actor.id,
          createdByName: actor.username,
        })
        return { changed, restoredFrom: previous.id }
      })
      reads.invalidate()
      await cleanUp()
      return { ...(await reads.get('state', loadState)), ...result }
    },

    /**
     * Converts an uploaded image for `purpose` and keeps its files in the media store; a save
     * that names it makes it part of the page. Nothing is stored when the image is refused.
     */
    async addImage(actor: Actor, purpose: ImagePurpose, bytes: Uint8Array): Promise<SiteImage> {
      const converted = await convertImage(purpose, bytes, store.tmpDir)
      const names: string[] = []
      try {
        // Raster images are measured before converting (images.ts); an SVG's size is known only
        // once it has been read, so every role's shape is held to its bounds here too.
        const misshapen = aspectRefusal(purpose, converted.width, converted.height)
        if (misshapen) throw new AppError('BAD_REQUEST', misshapen, 'file')
        for (const file of converted.files) names.push(await adopt(store, file.path, file.type))
        const id = crypto.randomUUID()
        const image: SiteImage = {
          id,
          width: converted.width,
          height: converted.height,
          files: converted.files.map((file, i) => ({
            url: mediaUrl(names[i]!),
            width: file.width,
            type: file.type,
          })),
        }
        await db.insert(siteImages).values({ id, purpose, image, names, createdBy: actor.id })
        deps.imagesChanged?.()
        return image
      } catch (error) {
        await removeNames(store, names)
        throw error
      } finally {
        await Promise.all(converted.files.map((f) => rm(f.path, { force: true })))
      }
    },

    cleanUp,
    /** Every stored name of the site's images: all of them are for visitors. */
    imageNames,
  }
}

export type SiteService = ReturnType<typeof createSiteService>
