// /r/<token>/notes and /r/<token>/notes/<noteId>: a review link's notes as JSON, in the REST
// envelope (docs/review.md). The link is the capability: its notes answer only through it, and
// through its password cookie where it has one; a revoked or expired link answers 410 as its
// page does. The device's secret travels in the X-Review-Device header. Nothing here decides
// more than which call it is: the notes domain does the rest.
import type { ReviewLinkRow } from '../../db/schema.ts'
import { reviewLinkGoneMessage } from '../contract/review-link.ts'
import { AppError } from '../errors.ts'
import { readJson } from '../http/body.ts'
import { fail, ok } from '../http/respond.ts'
import type { Resolved, ReviewLinksService } from '../review-links/links.ts'
import type { ReviewNotesService } from '../review-notes/notes.ts'

export const DEVICE_HEADER = 'x-review-device'
export const NOTES_PATH = /^notes(?:\/([^/]+))?$/
const NOTE_BODY_LIMIT = 16 * 1024
export const PASSWORD_NEEDED = 'This link needs its password first'

const PRIVATE = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' }

function withPrivate(res: Response): Response {
  for (const [name, value] of Object.entries(PRIVATE)) res.headers.set(name, value)
  return res
}

async function jsonBody(req: Request): Promise<Record<string, unknown>> {
  // A form or a text body from another site's page is never a note.
  if (!(req.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the note as JSON')
  }
  return readJson(req, NOTE_BODY_LIMIT)
}

export function createReviewNotePaths(deps: {
  links: Pick<ReviewLinksService, 'hasPass'>
  notes: ReviewNotesService
}) {
  /** Answers a notes path of an active link; `passCookie` is the link's password cookie, if sent. */
  async function answer(
    req: Request,
    link: ReviewLinkRow,
    noteId: string | undefined,
    passCookie: string | undefined,
    address: () => string,
  ): Promise<Response> {
    if (!deps.links.hasPass(link, passCookie)) throw new AppError('UNAUTHORIZED', PASSWORD_NEEDED)
    const device = req.headers.get(DEVICE_HEADER)
    if (noteId === undefined) {
      if (req.method === 'GET') return ok({ notes: await deps.notes.listForLink(link, device) })
      if (req.method === 'POST') {
        const made = await deps.notes.create(link, await jsonBody(req), device, address())
        return ok(made, 201)
      }
    } else {
      if (req.method === 'PATCH') {
        return ok({ note: await deps.notes.edit(link, noteId, await jsonBody(req), device) })
      }
      if (req.method === 'DELETE') {
        await deps.notes.remove(link, noteId, device)
        return ok({ deleted: true })
      }
    }
    return Response.json({ status: 'error', message: 'Method not allowed' }, { status: 405 })
  }

  return {
    async handle(
      req: Request,
      found: Resolved,
      noteId: string | undefined,
      passCookie: string | undefined,
      address: () => string,
    ): Promise<Response> {
      if (found.state === 'unknown') {
        return withPrivate(fail(new AppError('NOT_FOUND', 'Link not found')))
      }
      if (found.state === 'gone') {
        return withPrivate(
          Response.json({ status: 'error', message: reviewLinkGoneMessage }, { status: 410 }),
        )
      }
      try {
        return withPrivate(await answer(req, found.link, noteId, passCookie, address))
      } catch (error) {
        return withPrivate(fail(error))
      }
    },
  }
}
